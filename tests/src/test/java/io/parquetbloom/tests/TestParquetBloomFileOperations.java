package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.spi.QueryId;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static com.google.common.collect.ImmutableMultiset.toImmutableMultiset;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.COLUMN_CHUNKS;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.DICTIONARY;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.FILTERS;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.LIST;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.OFFSET_INDEXES;
import static io.parquetbloom.tests.TestParquetBloomFileOperations.Kind.TAIL;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exact S3 requests of each query, cold (a new catalog: nothing cached on the coordinator or the worker) and
 * warm, as a multiset of (kind, object), the way Trino's {@code *FileOperations} tests assert file system use. A
 * request more or less is a change in behaviour that this test makes visible.
 */
final class TestParquetBloomFileOperations
        extends AbstractTestQueryFramework
{
    // inside every row group's min/max range; no filter of the table has a false positive for it
    private static final String ABSENT = new UUID(0x8123456789abcdefL, 42).toString();
    private static final String ABSENT_TOO = new UUID(0x8023456789abcdefL, 43).toString();

    private static final int ROW_GROUPS = TestingLake.ROW_GROUPS_PER_FILE;
    private static final String EU_0 = "region=eu/part-00000.parquet";
    private static final String EU_1 = "region=eu/part-00001.parquet";
    private static final String US_2 = "region=us/part-00002.parquet";
    private static final String US_3 = "region=us/part-00003.parquet";
    // finding the table: the root (its schema folder), the schema (its table folder); then its files
    private static final ImmutableMultiset<FileOperation> TABLE_LOOKUP = ImmutableMultiset.of(
            new FileOperation(LIST, ""),
            new FileOperation(LIST, "telemetry/"),
            new FileOperation(LIST, "telemetry/events/"));

    private static final ImmutableMultiset<FileOperation> SERIALS_LOOKUP = ImmutableMultiset.of(
            new FileOperation(LIST, ""),
            new FileOperation(LIST, "telemetry/"),
            new FileOperation(LIST, "telemetry/serials/"));

    enum Kind
    {
        LIST, TAIL, FILTERS, DICTIONARY, OFFSET_INDEXES, COLUMN_CHUNKS
    }

    record FileOperation(Kind kind, String target) {}

    /**
     * @param dictionaries the dictionary page of each chunk that has one
     */
    /**
     * @param offsetIndexes where the file's offset indexes lie together, before its filters
     */
    private record Layout(long size, long firstFilter, Chunk offsetIndexes, List<Chunk> chunks, List<Chunk> dictionaries)
    {
        /**
         * The columns whose chunks a byte range covers, sorted by name, e.g. "device_id" or "reading,seq".
         */
        String columnsIn(long start, long end)
        {
            return chunks.stream()
                    .filter(chunk -> chunk.start() <= end && chunk.end() > start)
                    .map(Chunk::column)
                    .distinct()
                    .sorted()
                    .collect(joining(","));
        }
    }

    private record Chunk(String column, long start, long end) {}

    private static final int COPY_REGIONS = 5;

    private final TestingLake lake = new TestingLake();
    private final Map<String, Layout> layouts = new HashMap<>();
    private final AtomicInteger catalogs = new AtomicInteger();
    private CountingProxy proxy;
    private QueryId lastQueryId;
    private Path work;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("file-operations"));
        work = s3.work();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, work);
            TestingLake.writeSerials(client, work);
        }
        for (int file = 0; file < 4; file++) {
            String region = file < TestingLake.FILES_PER_REGION ? "eu" : "us";
            layouts.put("telemetry/events/region=%s/part-%05d.parquet".formatted(region, file), layout(work.resolve("events-%d.parquet".formatted(file))));
        }
        for (int file = 0; file < 2; file++) {
            layouts.put("telemetry/serials/part-%05d.parquet".formatted(file), layout(work.resolve("serials-%d.parquet".formatted(file))));
        }
        // telemetry.copies: 10 copies of events' first file in 5 region folders, a table of many listing pages once
        // a page holds one key
        List<String> copies = new ArrayList<>();
        for (int region = 0; region < COPY_REGIONS; region++) {
            for (int file = 0; file < 2; file++) {
                copies.add("telemetry/copies/region=r%d/part-%d.parquet".formatted(region, file));
            }
        }
        try (S3Client client = s3.client()) {
            TestingLake.uploadAll(client, "lake", copies.stream().map(key -> "warehouse/" + key).toList(), Files.readAllBytes(work.resolve("events-0.parquet")));
        }
        copies.forEach(key -> layouts.put(key, layout(work.resolve("events-0.parquet"))));
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return ParquetBloomQueryRunner.builder().withEndpoint(proxy.endpoint()).build();
    }

    @Test
    void absentKey()
    {
        String catalog = coldCatalog();
        // the table's newest footer (schema, with a generous tail that also holds its filters), then the other three
        // footers with the tail size learned from the first, filters included: nothing reaches the worker
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        .build());
        // warm, another key: the coordinator's cache answers
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT_TOO),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .build());
    }

    @Test
    void lookupReadsOnlyItsOwnColumnsFilters()
    {
        // tails no larger than what the table's footers need: the filters of 15 columns lie before each footer, and a
        // device_id lookup reads device_id's only, one ranged GET per row group (the other columns' filters lie
        // between them), never the whole region
        // (and no small file read whole for its dictionaries)
        String catalog = coldCatalog(Map.of("footer.read-size", "8B", "dictionary-pruning.small-file-threshold", "0B"));
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        // the newest file's footer is read for the schema with a generous tail, its filters included
                        .add(tail(US_3))
                        .add(tail(EU_0), tail(EU_1), tail(US_2))
                        .addAll(Collections.nCopies(ROW_GROUPS, filters(EU_0)))
                        .addAll(Collections.nCopies(ROW_GROUPS, filters(EU_1)))
                        .addAll(Collections.nCopies(ROW_GROUPS, filters(US_2)))
                        .build());
        // warm: the cache holds the footers and the device_id filters
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT_TOO), TABLE_LOOKUP);
    }

    @Test
    void filterHealthTablesReadFootersAndFiltersOnly()
    {
        String catalog = coldCatalog();
        // every footer with its filters (the tail holds them), never a column chunk
        assertFileOperations(catalog, "SELECT count(*) FROM \"events$bloom_filters\"",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        .build());
        // the advice then finds everything in the coordinator's cache
        assertFileOperations(catalog, "SELECT count(*) FROM \"events$bloom_filter_advice\"", TABLE_LOOKUP);
        // the probe is checked on the coordinator and runs on the worker its split goes to, through that node's cache
        String probe = "SELECT count(*) FROM TABLE(%s.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'device_id', value => '%s'))".formatted(catalog, ABSENT);
        assertFileOperations(catalog, probe,
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .addAll(TABLE_LOOKUP)
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        .build());
        // again: the table's columns are known now (metadata.schema-cache-ttl), so only the probe lists its files
        assertFileOperations(catalog, probe,
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(new FileOperation(LIST, ""), new FileOperation(LIST, "telemetry/"))
                        .build());
    }

    @Test
    void bloomFiltersTableReadsOnlyTheFilesItsConstraintSelects()
    {
        String catalog = coldCatalog();
        assertFileOperations(catalog, "SELECT count(*) FROM \"events$bloom_filters\" WHERE file_path = 's3://lake/warehouse/telemetry/events/%s'".formatted(US_3),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(US_3))
                        .build());
        assertFileOperations(catalog, "SELECT count(*) FROM \"events$bloom_filters\" WHERE partition = 'region=eu'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(EU_0), tail(EU_1))
                        .build());
    }

    @Test
    void presentKey()
    {
        String catalog = coldCatalog();
        TelemetryRow target = lake.events().get(4321);
        assertFileOperations(catalog, "SELECT seq, reading FROM events WHERE device_id = '%s'".formatted(target.deviceId()),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        // coordinator: every footer with its filters; the key is in row groups of files 0 and 3
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        // worker: those two files' footers alone (their splits read less than half of each), then per
                        // surviving row group (two of file 0, one of file 3) the key column's chunk, beside it the
                        // file's offset indexes, and the other two columns because a row matched (each chunk is one
                        // page here, so the page that holds the row is the chunk)
                        .add(tail(EU_0), tail(US_3))
                        .add(columnChunks(EU_0, "device_id"), columnChunks(EU_0, "device_id"), columnChunks(US_3, "device_id"))
                        .add(offsetIndexes(EU_0), offsetIndexes(US_3))
                        .add(columnChunks(EU_0, "reading,seq"), columnChunks(EU_0, "reading,seq"), columnChunks(US_3, "reading,seq"))
                        .build());
        // again: the worker has the footers and offset indexes now; the same chunks, and nothing else
        assertFileOperations(catalog, "SELECT seq, reading FROM events WHERE device_id = '%s'".formatted(target.deviceId()),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(columnChunks(EU_0, "device_id"), columnChunks(EU_0, "device_id"), columnChunks(US_3, "device_id"))
                        .add(columnChunks(EU_0, "reading,seq"), columnChunks(EU_0, "reading,seq"), columnChunks(US_3, "reading,seq"))
                        .build());
    }

    @Test
    void partitionFolderExcludesFilesBeforeAnyRead()
    {
        String catalog = coldCatalog();
        // the columns come from the newest file, in region us: its footer is read for them, then only eu's files
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE region = 'eu' AND device_id = '%s'".formatted(ABSENT),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(US_3))
                        .add(tail(EU_0), tail(EU_1))
                        .build());
    }

    @Test
    void partitionPredicateListsOnlyTheFoldersItSelects()
    {
        // listing pages of one key: telemetry.copies (10 files in 5 region folders) takes more pages than one round of
        // side-by-side listings (8). The first query learns the table's shape from a listing of every file; from then
        // on (metadata.schema-cache-ttl) a query that selects a region lists the table's region folders, that
        // region's files and the key index's folder, and no other region
        String catalog = coldCatalog(Map.of("s3.list-page-size", "1"));
        Session session = Session.builder(getSession()).setCatalog(catalog).setSchema("telemetry").build();
        assertThat(computeActual(session, "SELECT count(*) FROM copies WHERE region = 'r1' AND device_id = '%s'".formatted(ABSENT)).getOnlyValue()).isEqualTo(0L);
        String present = lake.events().subList(0, lake.events().size() / 4).getFirst().deviceId();
        long inFile = lake.events().subList(0, lake.events().size() / 4).stream().filter(row -> row.deviceId().equals(present)).count();
        proxy.reset();
        assertThat(computeActual(session, "SELECT count(*) FROM copies WHERE region = 'r3' AND device_id = '%s'".formatted(present)).getOnlyValue()).isEqualTo(2 * inFile);
        Multiset<FileOperation> lists = ImmutableMultiset.copyOf(listings());
        assertThat(lists.elementSet()).containsExactlyInAnyOrder(
                // the table's folder, found as every query finds it
                new FileOperation(LIST, ""),
                new FileOperation(LIST, "telemetry/"),
                // its region folders (delimited), region r3 whole, and the key index's folder
                new FileOperation(LIST, "telemetry/copies/"),
                new FileOperation(LIST, "telemetry/copies/region=r3/"),
                new FileOperation(LIST, "telemetry/copies/_key_index/"));
        // a page per region folder and per file of the region, one for the empty key index folder
        assertThat(lists.count(new FileOperation(LIST, "telemetry/copies/"))).isEqualTo(COPY_REGIONS);
        assertThat(lists.count(new FileOperation(LIST, "telemetry/copies/region=r3/"))).isEqualTo(2);
        assertThat(lists.count(new FileOperation(LIST, "telemetry/copies/_key_index/"))).isEqualTo(1);
        // without a partition predicate the table is listed whole
        proxy.reset();
        assertThat(computeActual(session, "SELECT count(*) FROM copies WHERE device_id = '%s'".formatted(present)).getOnlyValue()).isEqualTo(2 * COPY_REGIONS * inFile);
        assertThat(listings()).doesNotContain(new FileOperation(LIST, "telemetry/copies/region=r3/"), new FileOperation(LIST, "telemetry/copies/_key_index/"));
    }

    private List<FileOperation> listings()
    {
        return proxy.requests().stream()
                .map(this::classify)
                .filter(operation -> operation.kind() == LIST)
                .toList();
    }

    @Test
    void joinPrunesWithItsDynamicFilter()
    {
        String catalog = coldCatalog();
        // the coordinator waits for the build side's keys and prunes every file with them
        assertFileOperations(catalog, "SELECT count(*) FROM events e JOIN (VALUES '%s', '%s') k(id) ON e.device_id = k.id".formatted(ABSENT, ABSENT_TOO),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        .build());
    }

    @Test
    void smallFilesReadInGroupsMakeTheSameRequestsAsOnePerSplit()
    {
        // telemetry.copies: 10 small files on one worker, read in groups whose reader opens the next file while it
        // reads one; the requests are exactly those of one split per file, made sooner
        String sql = "SELECT count(*), count(DISTINCT device_id), min(seq), max(seq) FROM copies";
        String aloneCatalog = coldCatalog();
        Session alone = Session.builder(ParquetBloomQueryRunner.allPruningOff(getSession(), aloneCatalog))
                .setCatalogSessionProperty(aloneCatalog, "split_read_ahead_files", "0")
                .build();
        Multiset<FileOperation> oneByOne = fileOperations(alone, aloneCatalog, sql);
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("splitsReadInGroups")).isZero();
        List<MaterializedRow> expected = computeActual(Session.builder(alone).setCatalog(aloneCatalog).setSchema("telemetry").build(), sql).getMaterializedRows();

        String groupedCatalog = coldCatalog();
        Session grouped = ParquetBloomQueryRunner.allPruningOff(getSession(), groupedCatalog);
        assertThat(fileOperations(grouped, groupedCatalog, sql)).containsExactlyInAnyOrderElementsOf(oneByOne);
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("splitsReadInGroups")).isEqualTo(2L * COPY_REGIONS);
        assertThat(computeActual(Session.builder(grouped).setCatalog(groupedCatalog).setSchema("telemetry").build(), sql).getMaterializedRows()).isEqualTo(expected);
        // every file's tail and column chunks were read
        assertThat(oneByOne.elementSet()).filteredOn(operation -> operation.kind() == TAIL).hasSize(2 * COPY_REGIONS);
        assertThat(oneByOne.elementSet()).filteredOn(operation -> operation.kind() == COLUMN_CHUNKS).hasSize(2 * COPY_REGIONS);
    }

    @Test
    void everythingOffReadsEveryRowGroup()
    {
        String catalog = coldCatalog();
        Session off = ParquetBloomQueryRunner.allPruningOff(getSession(), catalog);
        assertFileOperations(off, catalog, "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        // the coordinator reads only the schema (the newest file's footer); every file becomes a split
                        .add(tail(US_3))
                        .add(tail(EU_0), tail(EU_1), tail(US_2), tail(US_3))
                        // every row group's key column chunk, a GET each (fetched ahead, in parallel); no row matches,
                        // so no other column is read
                        .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(EU_0, "device_id")))
                        .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(EU_1, "device_id")))
                        .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(US_2, "device_id")))
                        .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(US_3, "device_id")))
                        .build());
    }

    @Test
    void rowGroupWithoutMatchReadsOnlyItsKeyColumn()
    {
        // with pruning off every row group is read, as a false positive of the filters would be: its key column is
        // fetched, and its other projected columns are not, because no row of it matched
        String catalog = coldCatalog();
        Session off = Session.builder(ParquetBloomQueryRunner.allPruningOff(getSession(), catalog)).setCatalog(catalog).setSchema("telemetry").build();
        String sql = "SELECT seq, reading FROM events WHERE device_id = '%s'".formatted(ABSENT);
        proxy.reset();
        var result = getDistributedQueryRunner().executeWithPlan(off, sql);
        assertThat(result.result().getRowCount()).isZero();
        Multiset<FileOperation> chunkReads = proxy.requests().stream()
                .map(this::classify)
                .filter(operation -> operation.kind() == COLUMN_CHUNKS)
                .collect(toImmutableMultiset());
        assertThat(chunkReads).containsExactlyInAnyOrderElementsOf(ImmutableMultiset.<FileOperation>builder()
                .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(EU_0, "device_id")))
                .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(EU_1, "device_id")))
                .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(US_2, "device_id")))
                .addAll(Collections.nCopies(ROW_GROUPS, columnChunks(US_3, "device_id")))
                .build());
        long otherColumnsBytes = layouts.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("telemetry/events/"))
                .map(Map.Entry::getValue)
                .flatMap(layout -> layout.chunks().stream())
                .filter(chunk -> chunk.column().equals("seq") || chunk.column().equals("reading"))
                .mapToLong(chunk -> chunk.end() - chunk.start())
                .sum();
        QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), result.queryId());
        assertThat(metrics.get("columnChunkBytesSkipped")).isEqualTo(otherColumnsBytes);
        assertThat(metrics.get("rowGroupsReadKeyFirst")).isEqualTo(4L * ROW_GROUPS);
        assertThat(metrics.get("rowGroupsReadWhole")).isZero();
    }

    @Test
    void largeInListReadsEachRowGroupWhole()
    {
        // 100 keys pass 1% filters in most row groups: a surviving row group more likely matches than not, so its
        // projected chunks come in one GET with the key column's, not as a second GET after it. Pruning is off, so
        // every row group is read: one GET per file (what nobody reads between two row groups' chunks, a column, is
        // within the reader's merge distance, as trino-parquet merges)
        String catalog = coldCatalog();
        Session off = Session.builder(ParquetBloomQueryRunner.allPruningOff(getSession(), catalog)).setCatalog(catalog).setSchema("telemetry").build();
        String keys = IntStream.range(0, 100).mapToObj(i -> "'" + new UUID(0x8123456789abcdefL, 1000 + i) + "'").collect(joining(", "));
        proxy.reset();
        var result = getDistributedQueryRunner().executeWithPlan(off, "SELECT seq, reading FROM events WHERE device_id IN (%s)".formatted(keys));
        assertThat(result.result().getRowCount()).isZero();
        List<FileOperation> chunkReads = proxy.requests().stream()
                .map(this::classify)
                .filter(operation -> operation.kind() == COLUMN_CHUNKS)
                .toList();
        assertThat(chunkReads).hasSize(4);
        assertThat(chunkReads).allSatisfy(operation -> assertThat(operation.target().split(" ")[1].split(",")).contains("device_id", "reading", "seq"));
        QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), result.queryId());
        assertThat(metrics.get("rowGroupsReadWhole")).isEqualTo(4L * ROW_GROUPS);
        assertThat(metrics.get("rowGroupsReadKeyFirst")).isZero();
    }

    @Test
    void smallFilesAreReadOnceForAnUnselectiveInList()
    {
        // 100 keys pass 1% filters in most row groups: pruning a small file at planning would read it whole there and
        // again on the worker. The coordinator reads only the schema (the newest file's footer, which it then prunes
        // with, as it holds it); every other file becomes a split whose worker reads it whole once, prunes it with
        // the filters in those bytes and takes its chunks from them
        String catalog = coldCatalog();
        String keys = IntStream.range(0, 100).mapToObj(i -> "'" + new UUID(0x8123456789abcdefL, 1000 + i) + "'").collect(joining(", "));
        assertFileOperations(catalog, "SELECT count(*) FROM events WHERE device_id IN (%s)".formatted(keys),
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(TABLE_LOOKUP)
                        .add(tail(US_3))
                        .add(tail(EU_0), tail(EU_1), tail(US_2))
                        .build());
        QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), lastQueryId);
        assertThat(metrics.get("filesTotal")).isEqualTo(4);
    }

    @Test
    void dictionaryColumnWithoutFilters()
    {
        String catalog = coldCatalog();
        // an odd serial is in no dictionary. The files are small: the table's schema read (the newest file's footer)
        // brings all of file 1, and the coordinator reads file 0 whole as well (dictionary-pruning.small-file-threshold),
        // so every dictionary comes with those two GETs; no row group survives, nothing reaches a worker
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE serial = 'SN-001001'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0), serialsTail(1))
                        .build());
        // warm, other absent serials: the cached dictionaries answer, no GET
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE serial IN ('SN-001003', 'SN-999999')", SERIALS_LOOKUP);
        // SN-000042 = 16 * 2 + 2 * 5 is only in row group 5 (file 1's second): one split, a quarter of the file, whose
        // worker reads the footer alone, then the row group's serial chunk, beside it the file's offset indexes, and
        // its reading chunk (one page) because the row matched
        assertFileOperations(catalog, "SELECT reading FROM serials WHERE serial = 'SN-000042'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(1), new FileOperation(OFFSET_INDEXES, "telemetry/serials/part-00001.parquet"))
                        .add(serialsChunks(1, "serial"), serialsChunks(1, "reading"))
                        .build());
        // every dictionary of the whole files was kept: another column costs no dictionary GET either; planning
        // keeps file 0's footer compact, with the serial column's chunks only, so a query on num reads its footer
        // again (file 1's came whole with the schema read)
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE num = 1001",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0))
                        .build());
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE num = 1003 AND serial = 'SN-001005'", SERIALS_LOOKUP);
    }

    @Test
    void dictionaryPagesOfLargerFilesAreRangedGets()
    {
        // files above the small-file threshold: the footer with the learned tail, then one GET per dictionary page
        String catalog = coldCatalog(Map.of("dictionary-pruning.small-file-threshold", "0B"));
        // file 1's footer came with the schema read (the newest file), whose first generous tail held all of it (and
        // so its dictionaries); file 0's tail holds its footer only
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE serial = 'SN-001001'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0), serialsTail(1))
                        .addAll(Collections.nCopies(ROW_GROUPS, dictionary(0, "serial")))
                        .build());
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE serial = 'SN-001003'", SERIALS_LOOKUP);
        // another column's pages are read for the first query that constrains it, and file 0's footer, whose
        // compact form planning keeps has the serial column's chunks only
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE num = 1001",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0))
                        .addAll(Collections.nCopies(ROW_GROUPS, dictionary(0, "num")))
                        .build());
    }

    @Test
    void chunksThatFellBackToPlainAreNotPrunedByDictionary()
    {
        String catalog = coldCatalog();
        // inside every row group's min/max; every chunk of lot has dictionary pages and then PLAIN ones: its dictionary does not hold every value, so
        // it is never read, and every row group is read on the workers: each small file whole with its footer, the lot
        // chunks taken from those bytes
        assertFileOperations(catalog, "SELECT count(*) FROM serials WHERE lot = 'LOT-3-x'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0), serialsTail(1))
                        .add(serialsTail(0), serialsTail(1))
                        .build());
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("rowGroupsReadWhole") + QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("rowGroupsReadKeyFirst"))
                .isEqualTo(2L * ROW_GROUPS);
    }

    @Test
    void dictionaryPruningOffReadsTheKeyColumnOfEveryRowGroup()
    {
        String catalog = coldCatalog();
        Session off = Session.builder(getSession()).setCatalogSessionProperty(catalog, "dictionary_pruning_enabled", "false").build();
        // every row group survives planning and is read on the workers: each small file whole with its footer (its
        // splits hold all its row groups), the serial chunks taken from those bytes
        assertFileOperations(off, catalog, "SELECT count(*) FROM serials WHERE serial = 'SN-001001'",
                ImmutableMultiset.<FileOperation>builder()
                        .addAll(SERIALS_LOOKUP)
                        .add(serialsTail(0), serialsTail(1))
                        .add(serialsTail(0), serialsTail(1))
                        .build());
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("rowGroupsReadWhole") + QueryMetrics.of(getDistributedQueryRunner(), lastQueryId).get("rowGroupsReadKeyFirst"))
                .isEqualTo(2L * ROW_GROUPS);
    }

    private static FileOperation serialsTail(int file)
    {
        return new FileOperation(TAIL, "telemetry/serials/part-%05d.parquet".formatted(file));
    }

    private static FileOperation dictionary(int file, String column)
    {
        return new FileOperation(DICTIONARY, "telemetry/serials/part-%05d.parquet %s".formatted(file, column));
    }

    private static FileOperation serialsChunks(int file, String columns)
    {
        return new FileOperation(COLUMN_CHUNKS, "telemetry/serials/part-%05d.parquet %s".formatted(file, columns));
    }

    private static FileOperation filters(String file)
    {
        return new FileOperation(FILTERS, "telemetry/events/" + file);
    }

    private static FileOperation tail(String file)
    {
        return new FileOperation(TAIL, "telemetry/events/" + file);
    }

    /**
     * One GET of column chunks of a file, covering exactly these columns (sorted, comma-separated).
     */
    private static FileOperation offsetIndexes(String file)
    {
        return new FileOperation(OFFSET_INDEXES, "telemetry/events/" + file);
    }

    private static FileOperation columnChunks(String file, String columns)
    {
        return new FileOperation(COLUMN_CHUNKS, "telemetry/events/" + file + " " + columns);
    }

    private String coldCatalog()
    {
        return coldCatalog(Map.of());
    }

    private String coldCatalog(Map<String, String> properties)
    {
        String catalog = "cold_" + catalogs.incrementAndGet();
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT, properties));
        return catalog;
    }

    private void assertFileOperations(String catalog, String sql, Multiset<FileOperation> expected)
    {
        assertFileOperations(getSession(), catalog, sql, expected);
    }

    private void assertFileOperations(Session session, String catalog, String sql, Multiset<FileOperation> expected)
    {
        assertThat(fileOperations(session, catalog, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }

    private Multiset<FileOperation> fileOperations(Session session, String catalog, String sql)
    {
        Session inCatalog = Session.builder(session).setCatalog(catalog).setSchema("telemetry").build();
        proxy.reset();
        lastQueryId = getDistributedQueryRunner().executeWithPlan(inCatalog, sql).queryId();
        return proxy.requests().stream()
                .map(this::classify)
                .collect(toImmutableMultiset());
    }

    private FileOperation classify(CountingProxy.Request request)
    {
        String target = request.target().replaceFirst("^warehouse/", "");
        if (request.method().equals("LIST")) {
            return new FileOperation(LIST, target);
        }
        Layout layout = layouts.get(target);
        assertThat(layout).as("GET of an object this test wrote: %s", request).isNotNull();
        assertThat(request.range()).as("ranged GET: %s", request).startsWith("bytes=");
        String[] bounds = request.range().substring("bytes=".length()).split("-");
        long start = Long.parseLong(bounds[0]);
        long end = Long.parseLong(bounds[1]);
        if (end == layout.size() - 1) {
            return new FileOperation(TAIL, target);
        }
        if (start >= layout.firstFilter()) {
            return new FileOperation(FILTERS, target);
        }
        if (start >= layout.offsetIndexes().start() && end < layout.offsetIndexes().end()) {
            return new FileOperation(OFFSET_INDEXES, target);
        }
        for (Chunk dictionary : layout.dictionaries()) {
            if (dictionary.start() == start && dictionary.end() == end + 1) {
                return new FileOperation(DICTIONARY, target + " " + dictionary.column());
            }
        }
        return new FileOperation(COLUMN_CHUNKS, target + " " + layout.columnsIn(start, end));
    }

    private static Layout layout(Path file)
    {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            long firstFilter = Long.MAX_VALUE;
            long offsetIndexStart = Long.MAX_VALUE;
            long offsetIndexEnd = -1;
            List<Chunk> chunks = new ArrayList<>();
            List<Chunk> dictionaries = new ArrayList<>();
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    chunks.add(new Chunk(column.getPath().toDotString(), column.getStartingPos(), column.getStartingPos() + column.getTotalSize()));
                    if (column.hasDictionaryPage() && column.getDictionaryPageOffset() > 0 && column.getFirstDataPageOffset() > column.getDictionaryPageOffset()) {
                        dictionaries.add(new Chunk(column.getPath().toDotString(), column.getDictionaryPageOffset(), column.getFirstDataPageOffset()));
                    }
                    if (column.getBloomFilterOffset() >= 0) {
                        firstFilter = Math.min(firstFilter, column.getBloomFilterOffset());
                    }
                    if (column.getOffsetIndexReference() != null) {
                        offsetIndexStart = Math.min(offsetIndexStart, column.getOffsetIndexReference().getOffset());
                        offsetIndexEnd = Math.max(offsetIndexEnd, column.getOffsetIndexReference().getOffset() + column.getOffsetIndexReference().getLength());
                    }
                }
            }
            return new Layout(Files.size(file), firstFilter, new Chunk("", offsetIndexStart, offsetIndexEnd), chunks, dictionaries);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
