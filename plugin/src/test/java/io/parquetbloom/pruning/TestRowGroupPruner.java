package io.parquetbloom.pruning;

import io.airlift.slice.Slices;
import io.parquetbloom.metadata.FooterReader;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Statistics;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one pruning call the coordinator (whole files) and the worker (its split's byte range) both make: it never
 * fails for bad metadata, keeps what it cannot judge and counts it, and gives each row group to exactly one split.
 */
final class TestRowGroupPruner
{
    private static final int ROW_GROUPS = 4;
    private static final int ROWS = 100;
    private static final PruningPlan.Options ALL_ON = new PruningPlan.Options(EnumSet.of(PruningPlan.Path.STATISTICS, PruningPlan.Path.BLOOM_FILTERS), 1_000, 0, 0);

    @Test
    void prunesByStatisticsAndFilters()
    {
        Pruned pruned = prune(TestingParquetFiles.devices(ROW_GROUPS, ROWS), Map.of("seq", Domain.singleValue(BIGINT, 250L)), ALL_ON);
        assertThat(pruned.survivors()).containsExactly(2);
        assertThat(pruned.stats().rowGroupsPrunedByStatistics()).isEqualTo(3);

        // row 150 is "device-150"; with statistics off only the filters can exclude the other row groups
        pruned = prune(TestingParquetFiles.devices(ROW_GROUPS, ROWS), Map.of("deviceid", Domain.singleValue(VARCHAR, Slices.utf8Slice("device-150"))), new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS), 1_000, 0, 0));
        assertThat(pruned.survivors()).containsExactly(1);
        assertThat(pruned.stats().rowGroupsPrunedByBloomFilter()).isEqualTo(3);
    }

    @Test
    void contradictoryStatisticsKeepTheirRowGroups()
    {
        // min above max in every row group: trino-parquet calls that corrupt and throws; we keep and count
        byte[] file = TestingParquetFiles.rewriteFooter(TestingParquetFiles.devices(ROW_GROUPS, ROWS), footer -> forColumn(footer, "Seq", chunk -> {
            Statistics statistics = chunk.getMeta_data().getStatistics();
            ByteBuffer min = statistics.bufferForMin_value();
            statistics.setMin_value(statistics.bufferForMax_value());
            statistics.setMax_value(min);
        }));
        Pruned pruned = prune(file, Map.of("seq", Domain.singleValue(BIGINT, 250L)), new PruningPlan.Options(EnumSet.of(PruningPlan.Path.STATISTICS), 1_000, 0, 0));
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().statisticsUnusable()).isEqualTo(ROW_GROUPS);
        // the filters still judge each row group
        pruned = prune(file, Map.of("seq", Domain.singleValue(BIGINT, 250L)), ALL_ON);
        assertThat(pruned.survivors()).containsExactly(2);
    }

    @Test
    void filtersThatCannotBeFetchedKeepTheirRowGroups()
    {
        byte[] file = TestingParquetFiles.devices(ROW_GROUPS, ROWS);
        // the tail read holds only the footer; the filters' own GET fails as S3 does under throttling
        long footerStart = file.length - 8 - ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        InMemoryObjectStore store = new InMemoryObjectStore(file, position -> position < footerStart);
        // a footer read with a tail that ends before the filters: they need a GET of their own
        ParquetFileMetadata metadata = FooterReader.readFooter(store, store.object(), 64, new S3RequestStats());
        RowGroupSelection selection = TestingMetadata.create(store).pruner().prune(metadata, plan(Map.of("deviceid", Domain.singleValue(VARCHAR, Slices.utf8Slice("device-150"))), new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS), 1_000, 0, 0)),
                RowGroupScope.WHOLE_FILE, new ReadStats());
        assertThat(selection.rowGroups()).containsExactly(0, 1, 2, 3);
        assertThat(selection.stats().bloomFiltersUnusable()).isEqualTo(ROW_GROUPS);
    }

    @Test
    void filtersThatCanHardlyRuleOutSoManyValuesAreNotFetched()
    {
        // the footer says each device id chunk holds a million values: a filter of its size would answer "maybe" for
        // some of 1,000 values in nearly every row group, so fetching it is a GET for nothing; the row groups are kept
        byte[] file = TestingParquetFiles.rewriteFooter(TestingParquetFiles.devices(ROW_GROUPS, ROWS), footer -> forColumn(footer, "deviceId", chunk -> chunk.getMeta_data().setNum_values(1_000_000)));
        PruningPlan.Options options = new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS), 100_000, 0, 0);
        Pruned unselective = prune(file, Map.of("deviceid", absentDevices(RowGroupPruner.UNSELECTIVE_VALUES)), options);
        assertThat(unselective.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(unselective.stats().bloomFiltersNotFetched()).isEqualTo(ROW_GROUPS);
        assertThat(unselective.stats().bloomFilterBytesRead()).isZero();
        // fewer values than that: the filters are fetched whatever their size, and (holding 100 values) rule them out
        // in some row groups
        Pruned fewer = prune(file, Map.of("deviceid", absentDevices(RowGroupPruner.UNSELECTIVE_VALUES - 1)), options);
        assertThat(fewer.stats().bloomFiltersNotFetched()).isZero();
        assertThat(fewer.stats().bloomFilterBytesRead()).isPositive();
        assertThat(fewer.survivors()).hasSizeLessThan(ROW_GROUPS);
        // the footer's true value counts: the filters are tight enough to be worth a GET even for 1,000 values
        Pruned trueCounts = prune(TestingParquetFiles.devices(ROW_GROUPS, ROWS), Map.of("deviceid", absentDevices(RowGroupPruner.UNSELECTIVE_VALUES)), options);
        assertThat(trueCounts.stats().bloomFiltersNotFetched()).isZero();
        assertThat(trueCounts.survivors()).hasSizeLessThan(ROW_GROUPS);
    }

    private static Domain absentDevices(int count)
    {
        return Domain.multipleValues(VARCHAR, IntStream.range(0, count).<Object>mapToObj(i -> Slices.utf8Slice("device-" + (1_000_000 + i))).toList());
    }

    @Test
    void everyRowGroupBelongsToExactlyOneSplit()
    {
        byte[] file = TestingParquetFiles.devices(ROW_GROUPS, ROWS);
        for (long splitSize : new long[] {1, 100, 1_000, 3_333, file.length}) {
            List<Integer> all = new ArrayList<>();
            for (long start = 0; start < file.length; start += splitSize) {
                all.addAll(prune(file, Map.of(), ALL_ON, start, Math.min(splitSize, file.length - start)).survivors());
            }
            assertThat(all).as("splits of %d bytes", splitSize).containsExactly(0, 1, 2, 3);
        }
        // a row group whose recorded start lies outside the file belongs to the first split
        byte[] badOffsets = TestingParquetFiles.rewriteFooter(file, footer -> footer.getRow_groups().get(3).getColumns().forEach(chunk -> chunk.getMeta_data().setData_page_offset(file.length + 10)));
        List<Integer> all = new ArrayList<>();
        for (long start = 0; start < badOffsets.length; start += 1_000) {
            all.addAll(prune(badOffsets, Map.of(), ALL_ON, start, Math.min(1_000, badOffsets.length - start)).survivors());
        }
        assertThat(all).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    private record Pruned(List<Integer> survivors, PruningStats stats) {}

    private static Pruned prune(byte[] file, Map<String, Domain> domains, PruningPlan.Options options)
    {
        return prune(file, domains, options, 0, Long.MAX_VALUE);
    }

    private static Pruned prune(byte[] file, Map<String, Domain> domains, PruningPlan.Options options, long splitStart, long splitLength)
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        TestingMetadata metadata = TestingMetadata.create(store);
        PruningPlan plan = plan(domains, options);
        ParquetFileMetadata footer = metadata.reader().footer(FooterRequest.footer(store.object(), plan.table()), new ReadStats());
        RowGroupSelection selection = metadata.pruner().prune(footer, plan, new RowGroupScope.ByteRange(splitStart, splitLength), new ReadStats());
        return new Pruned(selection.rowGroups(), selection.stats());
    }

    /**
     * A plan on data columns named as the file names them, typed as their domains.
     */
    private static PruningPlan plan(Map<String, Domain> domains, PruningPlan.Options options)
    {
        Map<PruningPlan.DataColumn, Domain> columns = new HashMap<>();
        domains.forEach((name, domain) -> columns.put(new PruningPlan.DataColumn(name, domain.getType()), domain));
        return PruningPlan.of(new SchemaTableName("schema", "table"), options, columns, Map.of());
    }

    private static void forColumn(org.apache.parquet.format.FileMetaData footer, String column, Consumer<ColumnChunk> action)
    {
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                if (chunk.getMeta_data().getPath_in_schema().equals(List.of(column))) {
                    action.accept(chunk);
                }
            }
        }
    }
}
