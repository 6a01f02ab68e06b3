package io.parquetbloom.pruning;

import io.airlift.slice.Slices;
import io.parquetbloom.metadata.FooterReader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.FooterBloomFilters;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pruning by the dictionaries of entirely dictionary-encoded chunks without bloom filters: what it removes, what it
 * reads and caches, and every case where it must keep the row group.
 */
final class TestDictionaryPruning
{
    private static final int ROW_GROUPS = 4;
    private static final int ROWS = 100;
    // statistics off: the serials' min/max would prune on their own; only dictionaries judge here
    private static final PruningPlan.Options DICTIONARIES = new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS, PruningPlan.Path.DICTIONARIES), 1_000, 1_000, 0);

    @Test
    void absentValuesReadNoRowGroupAndPresentOnesOnlyTheirs()
    {
        byte[] file = TestingParquetFiles.serials(ROW_GROUPS, ROWS);
        Pruner pruner = new Pruner(file);
        long footerGets = pruner.store.gets();
        Pruned absent = pruner.prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(absent.survivors()).isEmpty();
        assertThat(absent.stats().rowGroupsPrunedByDictionary()).isEqualTo(ROW_GROUPS);
        assertThat(absent.stats().dictionaryPagesRead()).isEqualTo(ROW_GROUPS);
        assertThat(absent.stats().dictionaryBytesRead()).isPositive();
        assertThat(pruner.store.gets()).isEqualTo(footerGets + ROW_GROUPS);

        // warm: a new value costs no GET and no page
        Pruned present = pruner.prune(Map.of("serial", Domain.multipleValues(VARCHAR, List.of(Slices.utf8Slice("serial-205"), Slices.utf8Slice("serial-999")))), DICTIONARIES);
        assertThat(present.survivors()).containsExactly(2);
        assertThat(present.stats().dictionaryPagesRead()).isZero();
        assertThat(pruner.store.gets()).isEqualTo(footerGets + ROW_GROUPS);

        Pruned number = pruner.prune(Map.of("num", Domain.singleValue(BIGINT, 319L)), DICTIONARIES);
        assertThat(number.survivors()).containsExactly(3);
    }

    @Test
    void chunksThatFellBackToPlainAreNeverPrunedByTheirDictionary()
            throws IOException
    {
        byte[] file = TestingParquetFiles.serials(ROW_GROUPS, ROWS);
        // the fixture is what it claims: dictionary pages first, then PLAIN data pages, in every row group
        for (RowGroup rowGroup : FooterBloomFilters.readFooter(file).getRow_groups()) {
            List<Encoding> dataEncodings = column(rowGroup, "Fallback").getEncoding_stats().stream()
                    .filter(stats -> stats.getPage_type() == PageType.DATA_PAGE)
                    .map(PageEncodingStats::getEncoding)
                    .toList();
            assertThat(dataEncodings).contains(Encoding.PLAIN).containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
        }
        Pruned pruned = new Pruner(file).prune(Map.of("fallback", varchar("no-such-value")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionaryPagesRead()).isZero();
    }

    @Test
    void withoutEncodingStatsOnlyVersionOneEncodingsProveIt()
    {
        // PLAIN_DICTIONARY with level encodings only: every page was dictionary-encoded (parquet-java 1.x)
        byte[] v1 = rewrite(TestingParquetFiles.serials(ROW_GROUPS, ROWS), "Serial", chunk -> {
            chunk.unsetEncoding_stats();
            chunk.setEncodings(List.of(Encoding.PLAIN_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED));
        });
        assertThat(new Pruner(v1).prune(Map.of("serial", varchar("serial-55")), DICTIONARIES).survivors()).isEmpty();
        // RLE_DICTIONARY cannot tell whether a page fell back
        byte[] v2 = rewrite(TestingParquetFiles.serials(ROW_GROUPS, ROWS), "Serial", chunk -> {
            chunk.unsetEncoding_stats();
            chunk.setEncodings(List.of(Encoding.PLAIN, Encoding.RLE_DICTIONARY, Encoding.RLE));
        });
        Pruned pruned = new Pruner(v2).prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionaryPagesRead()).isZero();
    }

    @Test
    void unreadableDictionariesKeepTheirRowGroupsAndAreCounted()
    {
        // the page's recorded start is one byte late: its header is not where the footer says
        byte[] shifted = rewrite(TestingParquetFiles.serials(ROW_GROUPS, ROWS), "Serial", chunk -> chunk.setDictionary_page_offset(chunk.getDictionary_page_offset() + 1));
        Pruned pruned = new Pruner(shifted).prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionariesUnusable()).isEqualTo(ROW_GROUPS);

        // the data pages recorded to begin three bytes early: the page runs past its extent
        byte[] early = rewrite(TestingParquetFiles.serials(ROW_GROUPS, ROWS), "Serial", chunk -> chunk.setData_page_offset(chunk.getData_page_offset() - 3));
        pruned = new Pruner(early).prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionariesUnusable()).isEqualTo(ROW_GROUPS);

        // an extent outside the file
        byte[] outside = rewrite(TestingParquetFiles.serials(ROW_GROUPS, ROWS), "Serial", chunk -> {
            chunk.setDictionary_page_offset(chunk.getData_page_offset() + 10);
            chunk.setData_page_offset(chunk.getData_page_offset() + 1_000_000);
        });
        pruned = new Pruner(outside).prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionariesUnusable()).isEqualTo(ROW_GROUPS);

        // the GETs fail (S3 trouble): kept and counted
        byte[] file = TestingParquetFiles.serials(ROW_GROUPS, ROWS);
        long footerStart = file.length - 8 - ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        Pruner failing = new Pruner(new InMemoryObjectStore(file, position -> position < footerStart));
        pruned = failing.prune(Map.of("serial", varchar("serial-55")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionariesUnusable()).isEqualTo(ROW_GROUPS);
    }

    @Test
    void aHeaderThatDeclaresFewerEntriesThanThePageHoldsIsUnusable()
            throws IOException
    {
        // the page's bytes intact, its header one entry short: decoding it would drop serial-19 (and so on) from the
        // dictionary and prune row groups that hold it
        byte[] file = TestingParquetFiles.serials(ROW_GROUPS, ROWS);
        for (RowGroup rowGroup : FooterBloomFilters.readFooter(file).getRow_groups()) {
            int offset = (int) column(rowGroup, "Serial").getDictionary_page_offset();
            org.apache.parquet.format.PageHeader header = org.apache.parquet.format.Util.readPageHeader(new ByteArrayInputStream(file, offset, file.length - offset));
            ByteArrayOutputStream original = new ByteArrayOutputStream();
            org.apache.parquet.format.Util.writePageHeader(header, original);
            header.getDictionary_page_header().setNum_values(header.getDictionary_page_header().getNum_values() - 1);
            ByteArrayOutputStream changed = new ByteArrayOutputStream();
            org.apache.parquet.format.Util.writePageHeader(header, changed);
            assertThat(changed.size()).isEqualTo(original.size());
            System.arraycopy(changed.toByteArray(), 0, file, offset, changed.size());
        }
        // serial-19 is the last entry of row group 0's dictionary
        Pruned pruned = new Pruner(file).prune(Map.of("serial", varchar("serial-19")), DICTIONARIES);
        assertThat(pruned.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(pruned.stats().dictionariesUnusable()).isEqualTo(ROW_GROUPS);
    }

    @Test
    void boundsTogglesAndNullsKeepRowGroups()
    {
        byte[] file = TestingParquetFiles.serials(ROW_GROUPS, ROWS);
        Map<String, Domain> absent = Map.of("serial", varchar("serial-55"));
        // off
        Pruned off = new Pruner(file).prune(absent, new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS), 1_000, 1_000, 0));
        assertThat(off.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(off.stats().dictionaryPagesRead()).isZero();
        // 20 entries are more than a bound of 19: read, found too large, not used, not unusable
        Pruned bounded = new Pruner(file).prune(absent, new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS, PruningPlan.Path.DICTIONARIES), 1_000, 19, 0));
        assertThat(bounded.survivors()).containsExactly(0, 1, 2, 3);
        assertThat(bounded.stats().dictionariesUnusable()).isZero();
        // bloom filters off alone still prunes by dictionary
        Pruned noFilters = new Pruner(file).prune(absent, new PruningPlan.Options(EnumSet.of(PruningPlan.Path.DICTIONARIES), 1_000, 1_000, 0));
        assertThat(noFilters.survivors()).isEmpty();
        // a predicate that accepts NULL on a chunk with NULLs: the dictionary does not hold NULL
        Domain orNull = Domain.create(ValueSet.of(VARCHAR, Slices.utf8Slice("fallback-value-00000001-1")), true);
        Pruned nullable = new Pruner(file).prune(Map.of("fallback", orNull), DICTIONARIES);
        assertThat(nullable.survivors()).containsExactly(0, 1, 2, 3);
    }

    private static Domain varchar(String value)
    {
        return Domain.singleValue(VARCHAR, Slices.utf8Slice(value));
    }

    private static ColumnMetaData column(RowGroup rowGroup, String name)
    {
        return rowGroup.getColumns().stream()
                .map(ColumnChunk::getMeta_data)
                .filter(metadata -> metadata.getPath_in_schema().equals(List.of(name)))
                .findFirst()
                .orElseThrow();
    }

    private static byte[] rewrite(byte[] file, String name, Consumer<ColumnMetaData> change)
    {
        return TestingParquetFiles.rewriteFooter(file, (FileMetaData footer) -> footer.getRow_groups().forEach(rowGroup -> change.accept(column(rowGroup, name))));
    }

    private record Pruned(List<Integer> survivors, PruningStats stats) {}

    /**
     * One file in one store with one node's caches; its footer read with a tail that holds only the footer, so each
     * dictionary page costs a GET of its own.
     */
    private static final class Pruner
    {
        private final InMemoryObjectStore store;
        private final TestingMetadata metadata;
        private final ParquetFileMetadata footer;

        Pruner(byte[] file)
        {
            this(new InMemoryObjectStore(file));
        }

        Pruner(InMemoryObjectStore store)
        {
            this.store = store;
            this.metadata = TestingMetadata.create(store);
            ParquetFileMetadata read = FooterReader.readFooter(store, store.object(), 64, new S3RequestStats());
            this.footer = read.retainOnlyFooter();
        }

        Pruned prune(Map<String, Domain> domains, PruningPlan.Options options)
        {
            Map<PruningPlan.DataColumn, Domain> columns = new HashMap<>();
            domains.forEach((name, domain) -> columns.put(new PruningPlan.DataColumn(name, domain.getType()), domain));
            PruningPlan plan = PruningPlan.of(new SchemaTableName("schema", "table"), options, columns, Map.of());
            RowGroupSelection selection = metadata.pruner().prune(footer, plan, RowGroupScope.WHOLE_FILE, new ReadStats());
            return new Pruned(selection.rowGroups(), selection.stats());
        }
    }
}
