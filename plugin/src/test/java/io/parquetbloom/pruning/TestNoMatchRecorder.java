package io.parquetbloom.pruning;

import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A no-match fact hides rows from every later query, so it may only be recorded for a row group whose every row was
 * seen, attributed by the row numbers the reader reports.
 */
final class TestNoMatchRecorder
{
    private static final FileKey FILE = new FileKey("s3://bucket/t/f.parquet", 1000, "etag");
    private static final Domain SEVEN = Domain.singleValue(BIGINT, 7L);

    // row group 3 holds file rows [0, 100), row group 5 rows [100, 200)
    private static final List<NoMatchRecorder.ReadRowGroup> ROW_GROUPS = List.of(
            new NoMatchRecorder.ReadRowGroup(3, 0, 100),
            new NoMatchRecorder.ReadRowGroup(5, 100, 100));

    @Test
    void rowsAreChargedToTheRowGroupTheReaderNames()
    {
        NoMatchCache cache = cache();
        NoMatchRecorder recorder = recorder(cache, SEVEN);
        // a reader that skipped the second half of row group 3 (page indexes): 50 rows of it, then all of row group 5
        recorder.observe(page(0, 50), 0);
        recorder.observe(page(100, 60), 100);
        recorder.observe(page(160, 40), 160);
        recorder.finish();
        // counting positions would have charged the first 50 rows of row group 5 to row group 3 and "finished" it
        assertThat(cache.knownNoMatch(FILE, 3, "x", SEVEN)).isFalse();
        assertThat(cache.knownNoMatch(FILE, 5, "x", SEVEN)).isTrue();
    }

    @Test
    void aMatchInAnyPageKeepsTheRowGroup()
    {
        NoMatchCache cache = cache();
        NoMatchRecorder recorder = recorder(cache, SEVEN);
        recorder.observe(page(0, 100), 0);
        // the value 7 is row 107
        recorder.observe(page(100, 50), 100);
        recorder.observe(page(0, 50).getPositionCount() == 50 ? withValue(7, 50) : null, 150);
        recorder.finish();
        assertThat(cache.knownNoMatch(FILE, 3, "x", SEVEN)).isTrue();
        assertThat(cache.knownNoMatch(FILE, 5, "x", SEVEN)).isFalse();
    }

    @Test
    void anEarlyCloseRecordsOnlyFinishedRowGroups()
    {
        NoMatchCache cache = cache();
        NoMatchRecorder recorder = recorder(cache, SEVEN);
        recorder.observe(page(0, 100), 0);
        recorder.observe(page(100, 30), 100);
        // LIMIT satisfied: the source is closed, finish() never comes
        assertThat(cache.knownNoMatch(FILE, 3, "x", SEVEN)).isTrue();
        assertThat(cache.knownNoMatch(FILE, 5, "x", SEVEN)).isFalse();
    }

    @Test
    void rangesAreNeverRemembered()
    {
        NoMatchCache cache = cache();
        Domain range = Domain.create(ValueSet.ofRanges(Range.greaterThan(BIGINT, 1_000_000L)), false);
        assertThat(cache.remembers(range)).isFalse();
        assertThat(cache.remembers(SEVEN)).isTrue();
        assertThat(cache.remembers(Domain.create(ValueSet.of(BIGINT, 7L, 9L), true))).isTrue();
        cache.recordNoMatch(FILE, 3, "x", range);
        assertThat(cache.knownNoMatch(FILE, 3, "x", range)).isFalse();
    }

    private static NoMatchRecorder recorder(NoMatchCache cache, Domain domain)
    {
        return new NoMatchRecorder(cache, FILE, ROW_GROUPS, List.of(new NoMatchRecorder.TrackedColumn(0, "x", domain, new DomainValueMatcher(BIGINT, domain))), new PruningStats());
    }

    private static NoMatchCache cache()
    {
        return new NoMatchCache(new ParquetMetadataCache(new MetadataConfig()));
    }

    /**
     * Rows whose value is their row number plus 1,000 (never 7).
     */
    private static SourcePage page(long firstRow, int rows)
    {
        BlockBuilder builder = BIGINT.createBlockBuilder(null, rows);
        LongStream.range(firstRow, firstRow + rows).forEach(row -> BIGINT.writeLong(builder, row + 1_000));
        return SourcePage.create(new Page(builder.build()));
    }

    private static SourcePage withValue(long value, int rows)
    {
        BlockBuilder builder = BIGINT.createBlockBuilder(null, rows);
        for (int i = 0; i < rows; i++) {
            BIGINT.writeLong(builder, i == rows / 2 ? value : 5_000 + i);
        }
        Block block = builder.build();
        return SourcePage.create(new Page(block));
    }
}
