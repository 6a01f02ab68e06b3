package io.parquetbloom.tests;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.operator.OperatorStats;
import io.trino.spi.QueryId;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.parquetbloom.testing.TestingLake.tableKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A row group read by pages: of a present key, the key column's chunk (or, with the key index, its one page) and the
 * page of each other column that holds the key's rows, each an exact ranged GET of the file, located by its offset
 * index; the offset indexes themselves once per node. One file of one row group of 8,000 rows in pages of 500 rows:
 * 16 pages per column.
 */
final class TestPageReads
        extends AbstractTestQueryFramework
{
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message pages {
              required binary k (STRING);
              required int64 v;
              required double w;
            }
            """);
    private static final int ROWS = 8_000;
    private static final int PAGE_ROWS = 500;
    // rows 1999 and 2000: the two sides of the boundary between pages 3 and 4
    private static final String SPANNING = "spans-pages";
    private static final String FILE = "part-00000.parquet";
    // once in each row group of the spread table
    private static final String SPREAD = "everywhere";

    private final Map<String, List<long[]>> pages = new HashMap<>();
    private long[] offsetIndexes;
    private long[] spreadOffsetIndexes;
    private long fileSize;
    private CountingProxy proxy;
    private int catalogs;
    private QueryId lastQuery;
    private String firstRowGroupV;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("pages"));
        Path file = s3.work().resolve("pages.parquet");
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS)
                .withPageRows(PAGE_ROWS)
                .withDictionary(false)
                .withBloomFilter("k", ROWS, 0.01);
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, SCHEMA, options)) {
            for (int row = 0; row < ROWS; row++) {
                writer.write(writer.newRow().append("k", key(row)).append("v", (long) row).append("w", row / 2.0));
            }
        }
        readLayout(file);
        // the same rows in 16 row groups of 500 rows
        Path many = s3.work().resolve("many.parquet");
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(many, SCHEMA, ParquetFixtureWriter.Options.rowsPerRowGroup(PAGE_ROWS).withDictionary(false))) {
            for (int row = 0; row < ROWS; row++) {
                writer.write(writer.newRow().append("k", key(row)).append("v", (long) row).append("w", row / 2.0));
            }
        }
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(many))) {
            ColumnChunkMetaData first = reader.getFooter().getBlocks().getFirst().getColumns().get(1);
            firstRowGroupV = "bytes=%d-%d".formatted(first.getStartingPos(), first.getStartingPos() + first.getTotalSize() - 1);
        }
        // 4 row groups of 2,000 rows, each holding SPREAD once (and as its minimum, so statistics keep them all); keys
        // of 600 bytes make each row group over 1 MB, a split of its own
        Path spread = s3.work().resolve("spread.parquet");
        ParquetFixtureWriter.Options spreadOptions = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS / 4)
                .withPageRows(PAGE_ROWS)
                .withDictionary(false)
                .withBloomFilter("k", ROWS / 4, 0.01);
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(spread, SCHEMA, spreadOptions)) {
            for (int row = 0; row < ROWS; row++) {
                String key = row % (ROWS / 4) == 100 ? SPREAD : key(row) + "-" + "x".repeat(600);
                writer.write(writer.newRow().append("k", key).append("v", (long) row).append("w", row / 2.0));
            }
        }
        spreadOffsetIndexes = offsetIndexBlock(spread);
        try (S3Client client = s3.client()) {
            TestingLake.upload(client, Files.readAllBytes(file), tableKey("paged", "keys", FILE));
            TestingLake.upload(client, Files.readAllBytes(many), tableKey("paged", "many", FILE));
            TestingLake.upload(client, Files.readAllBytes(spread), tableKey("paged", "spread", FILE));
        }
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return ParquetBloomQueryRunner.builder().withEndpoint(proxy.endpoint()).build();
    }

    private static long[] offsetIndexBlock(Path file)
            throws IOException
    {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            long start = Long.MAX_VALUE;
            long end = 0;
            for (BlockMetaData rowGroup : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                    start = Math.min(start, chunk.getOffsetIndexReference().getOffset());
                    end = Math.max(end, chunk.getOffsetIndexReference().getOffset() + chunk.getOffsetIndexReference().getLength());
                }
            }
            return new long[] {start, end};
        }
    }

    private static String key(int row)
    {
        return row == 1999 || row == 2000 ? SPANNING : "key-%05d".formatted(row);
    }

    private void readLayout(Path file)
            throws IOException
    {
        fileSize = Files.size(file);
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            long start = Long.MAX_VALUE;
            long end = 0;
            for (ColumnChunkMetaData chunk : reader.getFooter().getBlocks().getFirst().getColumns()) {
                OffsetIndex index = reader.readOffsetIndex(chunk);
                List<long[]> columnPages = new ArrayList<>();
                for (int page = 0; page < index.getPageCount(); page++) {
                    columnPages.add(new long[] {index.getOffset(page), index.getOffset(page) + index.getCompressedPageSize(page)});
                }
                pages.put(chunk.getPath().toDotString(), columnPages);
                start = Math.min(start, chunk.getOffsetIndexReference().getOffset());
                end = Math.max(end, chunk.getOffsetIndexReference().getOffset() + chunk.getOffsetIndexReference().getLength());
            }
            offsetIndexes = new long[] {start, end};
        }
        assertThat(pages.get("k")).hasSize(ROWS / PAGE_ROWS);
    }

    @Test
    void presentKeyReadsItsRowsPagesOfTheOtherColumns()
    {
        String catalog = newCatalog();
        Session session = withoutIndex(catalog);
        // cold: this node has not read the file's offset indexes; beside the footer, the key chunk whole and the
        // offset indexes side by side, then v and w whole (one GET): whole chunks, as with page reads off
        assertThat(dataReads(session, "SELECT v, w FROM keys WHERE k = 'key-04321'", 4321L, 2160.5)).isEqualTo(ImmutableMultiset.of(
                "k:chunk", "offset indexes", "v-w:chunks"));
        QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), lastQuery);
        assertThat(metrics.get("rowGroupsReadByPages")).isZero();
        assertThat(metrics.get("rowGroupsReadWholeOffsetIndexUncached")).isEqualTo(1);
        assertThat(metrics.get("offsetIndexesLoaded")).isEqualTo(3);
        // warm, another key: the offset indexes are cached; the key chunk, then the page of v and of w holding row 7
        assertThat(dataReads(session, "SELECT v, w FROM keys WHERE k = 'key-00007'", 7L, 3.5)).isEqualTo(ImmutableMultiset.of(
                "k:chunk", "v:0", "w:0"));
        metrics = QueryMetrics.of(getDistributedQueryRunner(), lastQuery);
        assertThat(metrics.get("offsetIndexCacheHits")).isEqualTo(3);
        assertThat(metrics.get("rowGroupsReadByPages")).isEqualTo(1);
        assertThat(metrics.get("rowGroupsReadWholeOffsetIndexUncached")).isZero();
        // the key chunk's rows holding the key found on its encoded pages, none decoded
        assertThat(metrics.get("rowGroupsProbedEncoded")).isEqualTo(1);
        assertThat(metrics.get("encodedProbesUnreadable")).isZero();
        // k, v and w: one page each read, 15 each not
        assertThat(metrics.get("pagesRead")).isEqualTo(3);
        assertThat(metrics.get("pagesSkipped")).isEqualTo(45);
        // of the page's rows the reader returns, only the one the probe matched reaches the engine
        assertThat(metrics.get("rowsNotMatchedDropped")).isEqualTo(PAGE_ROWS - 1);
        // the key in the last page of each column
        assertThat(dataReads(session, "SELECT v, w FROM keys WHERE k = 'key-07777'", 7777L, 3888.5)).isEqualTo(ImmutableMultiset.of(
                "k:chunk", "v:15", "w:15"));
    }

    @Test
    void keyOnBothSidesOfAPageBoundaryReadsBothPages()
    {
        String catalog = newCatalog();
        Session session = withoutIndex(catalog);
        dataReads(session, "SELECT v, w FROM keys WHERE k = 'key-00100'", 100L, 50.0);
        // rows 1999 (page 3) and 2000 (page 4): the adjacent pages of v are one GET, as are w's
        Multiset<String> reads = HashMultiset.create();
        MaterializedResult result = run(session, "SELECT v FROM keys WHERE k = '%s' ORDER BY v".formatted(SPANNING), reads);
        assertThat(result.getOnlyColumnAsSet()).containsExactlyInAnyOrder(1999L, 2000L);
        assertThat(reads).isEqualTo(ImmutableMultiset.of("k:chunk", "v:3-4"));
        // the two pages' rows, of which the two matched ones are returned
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), lastQuery).get("rowsNotMatchedDropped")).isEqualTo(2 * PAGE_ROWS - 2);
    }

    @Test
    void keyIndexReadsOnlyTheKeysPage()
    {
        String catalog = newCatalog();
        getQueryRunner().execute("CALL %s.system.create_key_index('paged', 'keys', 'k')".formatted(catalog));
        try {
            Session session = Session.builder(getSession()).setCatalog(catalog).setSchema("paged").build();
            // the reading node does not know the file's offset indexes yet: the key chunk whole, beside the offset
            // indexes (then cached), and v whole (a key chunk and v's chunk are one GET each, as with page reads off)
            assertThat(dataReads(session, "SELECT v FROM keys WHERE k = 'key-05555'", 5555L)).isEqualTo(ImmutableMultiset.of("k:chunk", "offset indexes", "v:chunk"));
            QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), lastQuery);
            assertThat(metrics.get("rowGroupsReadWholeOffsetIndexUncached")).isEqualTo(1);
            assertThat(metrics.get("rowGroupsProbedByKeyPages")).isZero();
            // warm, another key: the key's page of k and the page of v holding its row, nothing else
            assertThat(dataReads(session, "SELECT v FROM keys WHERE k = 'key-00600'", 600L)).isEqualTo(ImmutableMultiset.of("k:1", "v:1"));
            metrics = QueryMetrics.of(getDistributedQueryRunner(), lastQuery);
            assertThat(metrics.get("rowGroupsProbedByKeyPages")).isEqualTo(1);
            // the named page's rows holding the key found on it encoded, with the chunk's dictionary page if any
            assertThat(metrics.get("rowGroupsProbedEncoded")).isEqualTo(1);
            assertThat(metrics.get("encodedProbesUnreadable")).isZero();
            // a count of the key reads its page of k only
            assertThat(dataReads(session, "SELECT count(*) FROM keys WHERE k = 'key-07999'", 1L)).isEqualTo(ImmutableMultiset.of("k:15"));
            // a key on both sides of a page boundary: both pages of k, named by the index
            assertThat(dataReads(session, "SELECT count(*) FROM keys WHERE k = '%s'".formatted(SPANNING), 2L)).isEqualTo(ImmutableMultiset.of("k:3-4"));
            // with page reads off, the key chunk whole
            Session whole = Session.builder(session).setCatalogSessionProperty(catalog, "page_reads_enabled", "false").build();
            assertThat(dataReads(whole, "SELECT count(*) FROM keys WHERE k = 'key-03000'", 1L)).isEqualTo(ImmutableMultiset.of("k:chunk"));
        }
        finally {
            getQueryRunner().execute("CALL %s.system.drop_key_index('paged', 'keys', 'k')".formatted(catalog));
        }
    }

    @Test
    void limitReadsOnlyTheRowGroupsHoldingIt()
    {
        String catalog = newCatalog();
        Session session = withoutIndex(catalog);
        // the footer first, so that only the reader's GETs remain
        computeActual(session, "SELECT count(*) FROM many");
        proxy.reset();
        var executed = getDistributedQueryRunner().executeWithPlan(session, "SELECT v FROM many LIMIT 10");
        assertThat(executed.result().getRowCount()).isEqualTo(10);
        // the first row group's chunk of v, and nothing of the other 15 row groups
        assertThat(proxy.requests().stream().filter(request -> request.method().equals("GET") && request.target().endsWith("many/" + FILE)).map(CountingProxy.Request::range).toList())
                .containsExactly(firstRowGroupV);
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), executed.queryId()).rowGroupsRead()).isEqualTo(1);
        // more than a row group holds: the first two
        assertThat(computeActual(session, "SELECT v FROM many LIMIT 501").getRowCount()).isEqualTo(501);
    }

    @Test
    void splitsOfOneFileLoadItsOffsetIndexesOnce()
    {
        String catalog = newCatalog(Map.of("split.max-size", "1MB"));
        Session session = withoutIndex(catalog);
        proxy.reset();
        var executed = getDistributedQueryRunner().executeWithPlan(session, "SELECT v FROM spread WHERE k = '%s'".formatted(SPREAD));
        assertThat(executed.result().getOnlyColumnAsSet()).containsExactlyInAnyOrder(100L, 2100L, 4100L, 6100L);
        // a split per row group, all on a node that had not read the file's offset indexes: one GET of them, whether
        // the splits ran side by side (the later ones wait for the first one's load) or one after another (the later
        // ones find them cached and read by pages)
        assertThat(proxy.requests().stream()
                .filter(request -> request.method().equals("GET") && request.target().endsWith("spread/" + FILE))
                .map(CountingProxy.Request::range)
                .filter(range -> {
                    String[] bounds = range.substring("bytes=".length()).split("-");
                    return Long.parseLong(bounds[0]) >= spreadOffsetIndexes[0] && Long.parseLong(bounds[1]) < spreadOffsetIndexes[1];
                }))
                .hasSize(1);
        QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), executed.queryId());
        // k and v of 4 row groups
        assertThat(metrics.get("offsetIndexesLoaded")).isEqualTo(8);
        assertThat(metrics.rowGroupsRead()).isEqualTo(4);
        // a driver per split
        assertThat(getDistributedQueryRunner().getCoordinator().getQueryManager().getFullQueryInfo(executed.queryId()).getQueryStats().getOperatorSummaries().stream()
                .filter(operator -> operator.getOperatorType().equals("ScanFilterAndProjectOperator"))
                .mapToLong(OperatorStats::getTotalDrivers)
                .sum())
                .isEqualTo(4);
    }

    private String newCatalog()
    {
        return newCatalog(Map.of());
    }

    private String newCatalog(Map<String, String> properties)
    {
        String catalog = "pages_" + ++catalogs;
        Map<String, String> all = new HashMap<>(properties);
        // footers read alone: no small file read whole, no tail beyond the footer
        all.put("dictionary-pruning.small-file-threshold", "0B");
        all.put("footer.read-size", "8B");
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT, all));
        return catalog;
    }

    private Session withoutIndex(String catalog)
    {
        return Session.builder(getSession()).setCatalog(catalog).setSchema("paged").setCatalogSessionProperty(catalog, "key_index_enabled", "false").build();
    }

    /**
     * The query's answer (its only row) checked, and its GETs of the data file that are not of its tail, each named
     * by what it reads: "column:chunk", "column:page" or "column:first-last" for adjacent pages, "offset indexes".
     */
    private Multiset<String> dataReads(Session session, String sql, Object... expectedRow)
    {
        Multiset<String> reads = HashMultiset.create();
        MaterializedResult result = run(session, sql, reads);
        assertThat(result.getMaterializedRows()).hasSize(1);
        assertThat(result.getMaterializedRows().getFirst().getFields()).containsExactly(expectedRow);
        return reads;
    }

    private MaterializedResult run(Session session, String sql, Multiset<String> reads)
    {
        proxy.reset();
        var executed = getDistributedQueryRunner().executeWithPlan(session, sql);
        lastQuery = executed.queryId();
        for (CountingProxy.Request request : proxy.requests()) {
            if (request.method().equals("GET") && request.target().endsWith(FILE)) {
                String[] bounds = request.range().substring("bytes=".length()).split("-");
                long start = Long.parseLong(bounds[0]);
                long end = Long.parseLong(bounds[1]) + 1;
                if (end != fileSize) {
                    reads.add(name(start, end));
                }
            }
        }
        return executed.result();
    }

    private String name(long start, long end)
    {
        if (start >= offsetIndexes[0] && end <= offsetIndexes[1]) {
            return "offset indexes";
        }
        for (Map.Entry<String, List<long[]>> column : pages.entrySet()) {
            List<long[]> columnPages = column.getValue();
            if (start == columnPages.getFirst()[0] && end == columnPages.getLast()[1]) {
                return column.getKey() + ":chunk";
            }
            int first = -1;
            int last = -1;
            for (int page = 0; page < columnPages.size(); page++) {
                if (columnPages.get(page)[0] == start) {
                    first = page;
                }
                if (columnPages.get(page)[1] == end) {
                    last = page;
                }
            }
            if (first >= 0 && last >= first) {
                return column.getKey() + ":" + (first == last ? String.valueOf(first) : first + "-" + last);
            }
        }
        // adjacent chunks read whole in one GET
        String first = null;
        String last = null;
        for (Map.Entry<String, List<long[]>> column : pages.entrySet()) {
            if (column.getValue().getFirst()[0] == start) {
                first = column.getKey();
            }
            if (column.getValue().getLast()[1] == end) {
                last = column.getKey();
            }
        }
        if (first != null && last != null) {
            return first + "-" + last + ":chunks";
        }
        throw new UncheckedIOException(new IOException("a GET of bytes %d-%d, which are no page, chunk or index of the file".formatted(start, end)));
    }
}
