package io.parquetbloom.tests;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.keyindex.KeyIndexPointer;
import io.parquetbloom.keyindex.KeyIndexUnusableException;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.RunningQueries;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static com.google.common.collect.ImmutableMultiset.toImmutableMultiset;
import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The table-level key index end to end: built and refreshed by {@code create_key_index}, dropped by
 * {@code drop_key_index}, used by planning for {@code =}, {@code IN} and joins, and never a reason for a wrong row:
 * results with the index equal those without it and the generated rows, whether the index is fresh, stale, damaged
 * or compacted; requests are asserted exactly.
 */
final class TestKeyIndex
        extends AbstractTestQueryFramework
{
    private static final String ABSENT = new UUID(0x8123456789abcdefL, 42).toString();
    private static final int EVENTS_FILES = 4;
    private static final int EVENTS_ROW_GROUPS = EVENTS_FILES * TestingLake.ROW_GROUPS_PER_FILE;

    private final TestingLake lake = new TestingLake();
    private final AtomicInteger catalogs = new AtomicInteger();
    private TestingS3 s3;
    private S3Client client;
    private CountingProxy proxy;
    private Path work;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = closeAfterClass(TestingS3.start("key-index"));
        work = s3.work();
        client = closeAfterClass(s3.client());
        lake.writeEvents(client, work);
        TestingLake.writeSerials(client, work);
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                .withCatalogProperty("key-index.orphan-retention", "0s")
                .build();
    }

    /**
     * The build statistics keep the JMX name the README gives, wherever their class lives.
     */
    @Test
    void buildStatisticsKeepTheirJmxName()
            throws Exception
    {
        String table = copyEvents("jmx_named", 1);
        createIndex(table, "device_id");
        ObjectName name = new ObjectName("trino.plugin.parquetbloom.keyindex:type=KeyIndexBuildStats,name=lake");
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        assertThat(server.isRegistered(name)).as("%s among %s", name, server.queryNames(new ObjectName("*:type=KeyIndexBuildStats,*"), null)).isTrue();
        assertThat((Long) server.getAttribute(name, "Builds")).isPositive();
        dropIndex(table, "device_id");
    }

    @Test
    void lookupsOnEveryIndexedTypeEqualTheOracle()
    {
        TelemetryRow target = lake.events().get(31_415);
        DateTimeFormatter timestamp = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
        String utc = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(target.eventTsMillisUtc()));
        Map<String, Lookup> lookups = new LinkedHashMap<>();
        lookups.put("device_id", new Lookup("device_id = '%s'".formatted(target.deviceId()), row -> row.deviceId().equals(target.deviceId())));
        lookups.put("seq", new Lookup("seq = %d".formatted(target.seq()), row -> row.seq() == target.seq()));
        lookups.put("reading", new Lookup("reading = DOUBLE '%s'".formatted(target.reading()), row -> row.reading() == target.reading()));
        lookups.put("small", new Lookup("small IN (SMALLINT '%d', SMALLINT '7')".formatted(target.small()), row -> row.small() == target.small() || row.small() == 7));
        lookups.put("price", new Lookup("price = DECIMAL '%s'".formatted(target.price().toPlainString()), row -> row.price().equals(target.price())));
        lookups.put("amount", new Lookup("amount = DECIMAL '%s'".formatted(target.amount().toPlainString()), row -> row.amount().equals(target.amount())));
        lookups.put("day", new Lookup("day = DATE '%s'".formatted(target.day()), row -> row.day().equals(target.day())));
        lookups.put("event_ts", new Lookup("event_ts = TIMESTAMP '%s'".formatted(target.eventTs().format(timestamp)), row -> row.eventTs().equals(target.eventTs())));
        lookups.put("event_ts_utc", new Lookup("event_ts_utc = TIMESTAMP '%s UTC'".formatted(utc), row -> row.eventTsMillisUtc() == target.eventTsMillisUtc()));
        lookups.put("tag", new Lookup("tag = UUID '%s'".formatted(target.tag()), row -> row.tag().equals(target.tag())));
        lookups.put("ratio", new Lookup("ratio = REAL '%s'".formatted(target.ratio()), row -> row.ratio() == target.ratio()));
        lookups.put("payload", new Lookup("payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload())), row -> Arrays.equals(row.payload(), target.payload())));
        for (Map.Entry<String, Lookup> entry : lookups.entrySet()) {
            String column = entry.getKey();
            Lookup lookup = entry.getValue();
            createIndex("events", column);
            String sql = "SELECT seq FROM events WHERE " + lookup.sql();
            Set<Long> expected = lake.events().stream().filter(lookup.matches()).map(TelemetryRow::seq).collect(Collectors.toSet());
            MeasuredResult indexed = run(getSession(), sql);
            MeasuredResult plain = run(withoutIndex(getSession()), sql);
            assertThat(indexed.seqs()).as(column).isEqualTo(expected);
            assertThat(plain.seqs()).as(column).isEqualTo(expected);
            assertThat(indexed.metrics().get("keyIndexUnusable")).as(column).isZero();
            assertThat(indexed.metrics().get("filesCoveredByKeyIndex")).as(column).isEqualTo(EVENTS_FILES);
            // the index names exactly the row groups holding the value (its hash keeps log2(entries) + 12 bits)
            long holding = rowGroupsHolding(lookup.matches());
            assertThat(indexed.metrics().get("rowGroupsPrunedByKeyIndex")).as(column).isEqualTo(EVENTS_ROW_GROUPS - holding);
            assertThat(plain.metrics().get("filesCoveredByKeyIndex")).as(column).isZero();
            dropIndex("events", column);
        }
    }

    @Test
    void absentKeysInListsAndJoinsReadNoRowGroup()
    {
        createIndex("events", "device_id");
        MeasuredResult absent = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(ABSENT));
        assertThat(absent.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(absent.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(EVENTS_ROW_GROUPS);
        assertThat(absent.metrics().get("filesPrunedBeforeSplits")).isEqualTo(EVENTS_FILES);
        assertThat(absent.metrics().get("keyIndexPagesRead")).isEqualTo(1);

        // an IN list of 2,000 absent keys and one present key
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            keys.add(new UUID(0x7000000000000000L + i, i).toString());
        }
        TelemetryRow target = lake.events().get(12_345);
        keys.add(target.deviceId());
        String in = keys.stream().map(key -> "'" + key + "'").collect(Collectors.joining(","));
        MeasuredResult list = run(getSession(), "SELECT seq FROM events WHERE device_id IN (%s)".formatted(in));
        Predicate<TelemetryRow> matches = row -> row.deviceId().equals(target.deviceId());
        assertThat(list.seqs()).isEqualTo(lake.events().stream().filter(matches).map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(list.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(EVENTS_ROW_GROUPS - rowGroupsHolding(matches));

        // a join: the dynamic filter of the build side's keys is a discrete set the index answers
        TelemetryRow other = lake.events().get(33_333);
        String join = "SELECT e.seq FROM events e JOIN (VALUES '%s', '%s', '%s') k(id) ON e.device_id = k.id".formatted(target.deviceId(), other.deviceId(), ABSENT);
        Predicate<TelemetryRow> joined = row -> row.deviceId().equals(target.deviceId()) || row.deviceId().equals(other.deviceId());
        MeasuredResult joinResult = run(getSession(), join);
        assertThat(joinResult.seqs()).isEqualTo(lake.events().stream().filter(joined).map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(joinResult.metrics().get("filesCoveredByKeyIndex")).isEqualTo(EVENTS_FILES);
        assertThat(joinResult.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(EVENTS_ROW_GROUPS - rowGroupsHolding(joined));

        // IS NULL and ranges are not point lookups: the index is not consulted
        MeasuredResult range = run(getSession(), "SELECT count(*) FROM events WHERE device_id > 'f'");
        assertThat(range.metrics().get("filesCoveredByKeyIndex")).isZero();
        MeasuredResult orNull = run(getSession(), "SELECT count(*) FROM events WHERE device_id IS NULL OR device_id = '%s'".formatted(target.deviceId()));
        assertThat(orNull.rows().getOnlyValue()).isEqualTo(lake.events().stream().filter(matches).count());
        assertThat(orNull.metrics().get("filesCoveredByKeyIndex")).isZero();
        dropIndex("events", "device_id");
    }

    @Test
    void filesWithoutFiltersBecomePrunable()
    {
        // serials: dictionary-encoded, no bloom filter; an odd serial is in no row group, an even one in exactly one.
        // Building reads footers and the dictionary pages of serial, never a data page: the newest file (the second) is
        // small enough that its footer read (for the table's schema) brought it whole, the first's four pages are read
        // alone
        proxy.reset();
        createIndex("serials", "serial");
        List<CountingProxy.Request> dataReads = proxy.requests().stream()
                .filter(request -> request.method().equals("GET") && request.target().endsWith(".parquet"))
                .toList();
        List<long[]> dictionaries = dictionaryPages("serial");
        assertThat(dictionaries).hasSize(8);
        for (CountingProxy.Request read : dataReads) {
            String[] bounds = read.range().substring("bytes=".length()).split("-");
            long start = Long.parseLong(bounds[0]);
            long end = Long.parseLong(bounds[1]);
            long size = client.headObject(request -> request.bucket(TestingLake.BUCKET).key(read.target())).contentLength();
            int file = read.target().endsWith("part-00000.parquet") ? 0 : 1;
            boolean tail = end == size - 1;
            boolean dictionary = dictionaries.stream().anyMatch(page -> page[0] == file && page[1] == start && page[2] == end + 1);
            assertThat(tail || dictionary).as("a footer or a dictionary page: %s", read).isTrue();
        }
        assertThat(dataReads.stream().filter(read -> read.target().endsWith("part-00000.parquet") && dictionaries.stream().anyMatch(page -> page[0] == 0 && read.range().equals("bytes=%d-%d".formatted(page[1], page[2] - 1))))).hasSize(4);
        Session noDictionaries = Session.builder(getSession()).setCatalogSessionProperty("lake", "dictionary_pruning_enabled", "false").build();
        MeasuredResult absent = run(noDictionaries, "SELECT count(*) FROM serials WHERE serial = 'SN-000041'");
        assertThat(absent.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(absent.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(8);
        assertThat(absent.metrics().rowGroupsRead()).isZero();
        MeasuredResult present = run(noDictionaries, "SELECT num FROM serials WHERE serial = 'SN-000042'");
        assertThat(present.rows().getOnlyColumnAsSet()).containsExactly(42L);
        assertThat(present.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(7);
        assertThat(present.metrics().rowGroupsRead()).isEqualTo(1);
        dropIndex("serials", "serial");
        assertThat(listIndex("serials")).isEmpty();
    }

    @Test
    void coldLookupReadsPointerTrailerAndOnePage()
    {
        createIndex("serials", "num");
        String catalog = newCatalog(Map.of());
        // the table's listing finds the pointer beside the files; the newest file's footer gives the schema; then the
        // pointer, the segment's trailer and the page holding the key: no other file is touched
        assertRequests(catalog, "SELECT count(*) FROM serials WHERE num = 41", ImmutableMultiset.of(
                "LIST ", "LIST telemetry/", "LIST telemetry/serials/",
                "GET part-00001.parquet tail",
                "GET _key_index/num/_pointer whole",
                "GET _key_index/num/<segment> tail",
                "GET _key_index/num/<segment> range"));
        // warm, another key: pointer, trailer and the index's only page are cached by version: no GET
        assertRequests(catalog, "SELECT count(*) FROM serials WHERE num = 43", ImmutableMultiset.of(
                "LIST ", "LIST telemetry/", "LIST telemetry/serials/"));
        dropIndex("serials", "num");
    }

    @Test
    void refreshReadsOnlyNewAndRewrittenFiles()
    {
        String table = copyEvents("refreshed", 2);
        createIndex(table, "device_id");
        assertThat(segments(table, "device_id")).hasSize(1);
        // nothing new: the table found and listed, the pointer and the segment's trailer (its file directory), and a
        // listing of the index folder for orphans; no Parquet is read, nothing is written
        assertRequests("lake", "CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(table), ImmutableMultiset.of(
                "LIST ", "LIST telemetry/", "LIST telemetry/%s/".formatted(table),
                "GET _key_index/device_id/_pointer whole",
                "GET _key_index/device_id/<segment> tail",
                "LIST _key_index/device_id/"));
        // one file added: its footer and its device_id chunks, one segment PUT, one conditional pointer PUT
        uploadEventsFile(table, 2, "part-00002.parquet");
        proxy.reset();
        getQueryRunner().execute("CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(table));
        Multiset<String> requests = describe(proxy.requests(), table);
        assertThat(requests.count("PUT _key_index/device_id/<segment> whole")).isEqualTo(1);
        assertThat(requests.count("PUT _key_index/device_id/_pointer whole")).isEqualTo(1);
        assertThat(requests.count("GET part-00002.parquet tail")).isEqualTo(1);
        assertThat(requests.elementSet().stream().filter(request -> request.contains("part-00000") || request.contains("part-00001"))).isEmpty();
        assertThat(segments(table, "device_id")).hasSize(2);
        assertCorrectLookups(table, 3, 3);
        dropIndex(table, "device_id");
    }

    @Test
    void staleIndexIsSlowerNeverWrong()
    {
        String table = copyEvents("stale", 3);
        createIndex(table, "device_id");
        assertCorrectLookups(table, 3, 3);
        // a file added, one rewritten with other rows, one deleted: covered only where path, size and ETag agree
        uploadEventsFile(table, 3, "part-00003.parquet");
        uploadEventsFile(table, 0, "part-00001.parquet");
        client.deleteObject(request -> request.bucket(TestingLake.BUCKET).key(TestingLake.tableKey("telemetry", table, "part-00002.parquet")));
        MaterializedRow coverage = getQueryRunner().execute("SELECT files_covered, files_stale, files_uncovered, files_deleted FROM \"%s$key_index\"".formatted(table)).getMaterializedRows().getFirst();
        assertThat(coverage.getFields()).containsExactly(1L, 1L, 1L, 1L);
        List<TelemetryRow> rows = new ArrayList<>(eventsOfFile(0));
        rows.addAll(eventsOfFile(0));
        rows.addAll(eventsOfFile(3));
        assertCorrectLookups(table, rows, 1, 3);
        createIndex(table, "device_id");
        assertCorrectLookups(table, rows, 3, 3);
        dropIndex(table, "device_id");
    }

    @Test
    void damagedIndexIsIgnoredAndRebuilt()
    {
        String table = copyEvents("damaged", 2);
        createIndex(table, "device_id");
        List<String> names = segments(table, "device_id");
        String segmentKey = indexKey(table, "device_id", names.getFirst());
        byte[] original = client.getObjectAsBytes(request -> request.bucket(TestingLake.BUCKET).key(segmentKey)).asByteArray();

        // a byte flipped in a page, under a pointer that names the damaged object's new ETag and size
        byte[] flipped = withEveryPageDamaged(original);
        replaceSegment(table, original, flipped, segmentKey);
        assertUnusable(table);
        // truncated
        replaceSegment(table, flipped, Arrays.copyOf(original, original.length - 100), segmentKey);
        assertUnusable(table);
        // a pointer naming a missing segment
        client.deleteObject(request -> request.bucket(TestingLake.BUCKET).key(segmentKey));
        assertUnusable(table);
        // a pointer that is not one
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(indexKey(table, "device_id", "_pointer")), RequestBody.fromString("garbage"));
        assertUnusable(table);

        // the next build replaces what it cannot read
        createIndex(table, "device_id");
        assertCorrectLookups(table, 2, 2);
        dropIndex(table, "device_id");
    }

    /**
     * A pointer in the line format of earlier versions (before JSON) is still used as it is, and the next build that
     * changes the index writes it as JSON.
     */
    @Test
    void pointerOfTheEarlierLineFormatIsStillUsed()
    {
        String table = copyEvents("legacy_pointer", 2);
        createIndex(table, "device_id");
        KeyIndexPointer current = pointer(table, "device_id");
        StringBuilder legacy = new StringBuilder("parquet-bloom-key-index 1\ncolumn device_id\n");
        for (KeyIndexPointer.Segment segment : current.segments()) {
            legacy.append("segment %s %d %s %d %d %d %d %d\n".formatted(segment.name(), segment.size(), segment.etag(), segment.trailerBytes(), segment.files(), segment.entries(), segment.builtAtMillis(), segment.buildMillis()));
        }
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(indexKey(table, "device_id", "_pointer")), RequestBody.fromString(legacy.toString()));
        assertThat(pointer(table, "device_id")).isEqualTo(current);
        assertCorrectLookups(table, 2, 2);

        uploadEventsFile(table, 2, "part-00002.parquet");
        createIndex(table, "device_id");
        String rewritten = client.getObjectAsBytes(request -> request.bucket(TestingLake.BUCKET).key(indexKey(table, "device_id", "_pointer"))).asUtf8String();
        assertThat(rewritten).startsWith("{");
        assertThat(pointer(table, "device_id").segments()).hasSize(2).startsWith(current.segments().getFirst());
        dropIndex(table, "device_id");
    }

    @Test
    void racingBuildsKeepEachOthersSegments()
    {
        String table = copyEvents("raced", 1);
        createIndex(table, "device_id");
        uploadEventsFile(table, 1, "part-00001.parquet");
        uploadEventsFile(table, 2, "part-00002.parquet");
        // another coordinator's build lands between this build's reading of the pointer and its conditional PUT: the
        // PUT answers 412, this build reads the new pointer and adds its segment to it
        String racer = newCatalog(Map.of());
        String pointerKey = indexKey(table, "device_id", "_pointer");
        AtomicInteger racerRuns = new AtomicInteger();
        proxy.onceBefore(request -> request.method().equals("PUT") && request.target().equals(pointerKey), () -> {
            getQueryRunner().execute("CALL %s.system.create_key_index('telemetry', '%s', 'device_id')".formatted(racer, table));
            racerRuns.incrementAndGet();
        });
        createIndex(table, "device_id");
        assertThat(racerRuns.get()).isEqualTo(1);
        // the first build's segment, the racer's and this build's: nobody's work is lost
        List<String> named = segments(table, "device_id");
        assertThat(named).hasSize(3);
        assertThat(listIndex(table)).containsExactlyInAnyOrderElementsOf(ImmutableList.<String>builder()
                .add(pointerKey)
                .addAll(named.stream().map(name -> indexKey(table, "device_id", name)).toList())
                .build());
        assertCorrectLookups(table, 3, 3);
        dropIndex(table, "device_id");
    }

    @Test
    void compactionMergesSegmentsWithoutReadingParquet()
    {
        String table = copyEvents("compacted", 1);
        String catalog = newCatalog(Map.of("key-index.max-segments", "2", "key-index.orphan-retention", "0s"));
        Session session = Session.builder(getSession()).setCatalog(catalog).build();
        String call = "CALL %s.system.create_key_index('telemetry', '%s', 'device_id')".formatted(catalog, table);
        getQueryRunner().execute(session, call);
        uploadEventsFile(table, 1, "part-00001.parquet");
        getQueryRunner().execute(session, call);
        assertThat(segments(table, "device_id")).hasSize(2);
        uploadEventsFile(table, 2, "part-00002.parquet");
        // a third segment would exceed 2: the three are merged into one, and the replaced ones deleted
        proxy.reset();
        getQueryRunner().execute(session, call);
        // no byte of the files already indexed is read, only the new file and the index
        assertThat(proxy.requests().stream().filter(request -> request.target().endsWith("part-00000.parquet") || request.target().endsWith("part-00001.parquet"))).isEmpty();
        assertThat(segments(table, "device_id")).hasSize(1);
        assertThat(listIndex(table)).hasSize(2);
        assertCorrectLookups(table, 3, 3);
        MaterializedRow row = getQueryRunner().execute(session, "SELECT segments, files_covered, entries > 0 FROM \"%s$key_index\"".formatted(table)).getMaterializedRows().getFirst();
        assertThat(row.getFields()).containsExactly(1, 3L, true);
        dropIndex(table, "device_id");
    }

    @Test
    void largeSegmentsGoUpInParts()
            throws IOException
    {
        // what a segment above key-index.upload-part-size takes: S3 refuses parts below 5 MB but the last
        S3ObjectStore store = new S3ObjectStore(client);
        byte[] bytes = new byte[11 * 1024 * 1024 + 17];
        new Random(26).nextBytes(bytes);
        Path file = work.resolve("large-segment.kidx");
        Files.write(file, bytes);
        S3Location location = new S3Location(TestingLake.BUCKET, TestingLake.tableKey("telemetry", "uploads", "_key_index/x/large.kidx"));
        proxy.reset();
        String etag = store.write(location, file, new S3ObjectStore.PutCondition.None(), 5L * 1024 * 1024, new S3RequestStats()).orElseThrow();
        // a multipart object's ETag ends with its number of parts
        assertThat(etag).endsWith("-3");
        assertThat(client.getObjectAsBytes(request -> request.bucket(TestingLake.BUCKET).key(location.key())).asByteArray()).isEqualTo(bytes);
        // at or below the part size: one PUT
        Files.write(file, Arrays.copyOf(bytes, 1024));
        assertThat(store.write(location, file, new S3ObjectStore.PutCondition.None(), 5L * 1024 * 1024, new S3RequestStats()).orElseThrow()).doesNotContain("-");
        client.deleteObject(request -> request.bucket(TestingLake.BUCKET).key(location.key()));
    }

    @Test
    void buildingWithoutWritePermissionNamesTheAction()
    {
        String table = copyEvents("denied", 1);
        proxy.denyMethods(Set.of("PUT", "DELETE"));
        try {
            assertQueryFails("CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(table), ".*s3:PutObject on s3://lake/warehouse/telemetry/denied/_key_index/device_id/.* was denied.*");
        }
        finally {
            proxy.denyMethods(Set.of());
        }
        assertThat(listIndex(table)).isEmpty();
        assertQueryFails("CALL lake.system.create_key_index('telemetry', 'events', 'region')", ".*is a partition column.*");
        assertQueryFails("CALL lake.system.create_key_index('telemetry', 'events', 'missing')", ".*missing.*");
        assertQueryFails("CALL lake.system.create_key_index('telemetry', 'absent_table', 'device_id')", ".*absent_table.*not found.*");
    }

    /**
     * Trino cancels a CALL by its query's state and never interrupts it: the build learns of it from the rollback of
     * the query's transaction and stops within a row group's read, uploading and committing nothing. A query that
     * runs out of time (query_max_run_time) ends the same way. Before, both builds ran to the end.
     */
    @Test
    void cancelledOrTimedOutBuildsStopAndChangeNothing()
    {
        String cancelled = copyEvents("cancelled", 4);
        proxy.reset();
        proxy.onceBefore(request -> isDataRead(request, cancelled), () -> {
            cancelRunning("create_key_index('telemetry', '%s'".formatted(cancelled));
            sleepUninterruptibly(1_000, MILLISECONDS);
        });
        assertThatThrownBy(() -> getQueryRunner().execute("CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(cancelled)))
                .hasMessageContaining("canceled");
        assertBuildLeftNothing(cancelled);

        String timedOut = copyEvents("timed_out", 4);
        Session limited = Session.builder(getSession()).setSystemProperty("query_max_run_time", "2s").build();
        proxy.reset();
        proxy.onceBefore(request -> isDataRead(request, timedOut), () -> sleepUninterruptibly(5_000, MILLISECONDS));
        assertThatThrownBy(() -> getQueryRunner().execute(limited, "CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(timedOut)))
                .hasMessageContaining("maximum");
        assertBuildLeftNothing(timedOut);
    }

    /**
     * drop_key_index lands between a build's reading of the pointer and its conditional PUT (AWS answers such an
     * If-Match with 404, S3-compatible stores with 412): the drop, the later request, wins; the build fails naming
     * it and deletes the segment it uploaded.
     */
    @Test
    void dropRacingABuildWins()
    {
        String table = copyEvents("drop_raced", 1);
        createIndex(table, "device_id");
        uploadEventsFile(table, 1, "part-00001.parquet");
        String pointerKey = indexKey(table, "device_id", "_pointer");
        proxy.onceBefore(request -> request.method().equals("PUT") && request.target().equals(pointerKey),
                () -> getQueryRunner().execute("CALL lake.system.drop_key_index('telemetry', '%s', 'device_id')".formatted(table)));
        assertQueryFails("CALL lake.system.create_key_index('telemetry', '%s', 'device_id')".formatted(table), ".*was dropped while this build ran; nothing was recorded.*");
        assertThat(listIndex(table)).isEmpty();
        // the next build starts afresh
        createIndex(table, "device_id");
        assertCorrectLookups(table, 2, 2);
        dropIndex(table, "device_id");
    }

    /**
     * Spilling sorted runs fails (the spill directory vanished mid-build): the error names the table, the column
     * and the directory, not an internal error.
     */
    @Test
    void spillFailureNamesTableColumnAndDirectory()
            throws IOException
    {
        String table = "spilled";
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            rows.add(new Object[] {"key-%06d".formatted(i), (long) i});
        }
        byte[] file = LakeFiles.parquet(work, "spilled.parquet", "message m { required binary k (STRING); required int64 v; }", rows, 100_000, Set.of());
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(TestingLake.tableKey("telemetry", table, "part-0.parquet")), RequestBody.fromBytes(file));
        Path spill = work.resolve("spill-vanishing");
        String catalog = newCatalog(Map.of("key-index.build-memory", "1MB", "key-index.spill-directory", spill.toString()));
        // the first column's first page starts at byte 4: the build's read of the key column, after its footer
        proxy.onceBefore(request -> request.method().equals("GET") && request.target().endsWith(table + "/part-0.parquet") && request.range().startsWith("bytes=4-"),
                () -> deleteRecursively(spill));
        assertQueryFails("CALL %s.system.create_key_index('telemetry', '%s', 'k')".formatted(catalog, table),
                ".*Cannot spill the key index build of telemetry.spilled.k to key-index.spill-directory %s.*".formatted(spill));
        assertThat(listIndex(table)).isEmpty();
    }

    /**
     * A DECIMAL in BINARY may be stored with any sign extension; the index holds one entry per value (its minimal
     * encoding, as read), not one per possible padding (about 16 before), and finds every stored form.
     */
    @Test
    void binaryDecimalsTakeOneEntryPerValue()
    {
        String table = "binary_decimals";
        List<Object[]> rows = new ArrayList<>();
        Random random = new Random(37);
        List<BigDecimal> values = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            BigDecimal value = BigDecimal.valueOf(random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L), 2);
            values.add(value);
            byte[] minimal = value.unscaledValue().toByteArray();
            // every third row stored padded to 16 bytes, as some writers do
            rows.add(new Object[] {i % 3 == 0 ? signExtended(minimal, 16) : minimal, (long) i});
        }
        byte[] file = LakeFiles.parquet(work, "binary-decimals.parquet", "message m { required binary amount (DECIMAL(24,2)); required int64 seq; }", rows, 500, Set.of());
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(TestingLake.tableKey("telemetry", table, "part-0.parquet")), RequestBody.fromBytes(file));
        getQueryRunner().execute("CALL lake.system.create_key_index('telemetry', '%s', 'amount')".formatted(table));
        long distinct = values.stream().distinct().count();
        // (two values may share a truncated hash within a row group: one entry)
        assertThat((long) computeScalar("SELECT entries FROM \"%s$key_index\"".formatted(table))).isBetween(distinct - 3, distinct);
        for (int i : new int[] {0, 1, 2, 3, 999}) {
            BigDecimal value = values.get(i);
            MeasuredResult result = run(getSession(), "SELECT seq FROM %s WHERE amount = DECIMAL '%s'".formatted(table, value.toPlainString()));
            Set<Long> expected = new HashSet<>();
            for (int row = 0; row < values.size(); row++) {
                if (values.get(row).compareTo(value) == 0) {
                    expected.add((long) row);
                }
            }
            assertThat(result.seqs()).as(value.toPlainString()).isEqualTo(expected);
            assertThat(result.metrics().get("filesCoveredByKeyIndex")).isEqualTo(1);
            assertThat(result.metrics().get("rowGroupsPrunedByKeyIndex")).isEqualTo(3);
        }
        getQueryRunner().execute("CALL lake.system.drop_key_index('telemetry', '%s', 'amount')".formatted(table));
    }

    /**
     * A file the index cannot hold (its key column stored as another type) is recorded as such, and compaction keeps
     * that record: the refreshes after it do not read the file again. Before, compaction forgot it.
     */
    @Test
    void unindexableFilesAreRememberedAcrossCompaction()
    {
        String table = "unindexable";
        String mismatched = TestingLake.tableKey("telemetry", table, "a-int.parquet");
        List<Object[]> numbers = List.<Object[]>of(new Object[] {1L, 1L}, new Object[] {2L, 2L});
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(mismatched), RequestBody.fromBytes(LakeFiles.parquet(work, "a-int.parquet", "message m { required int64 k; required int64 v; }", numbers, 10, Set.of())));
        String catalog = newCatalog(Map.of("key-index.max-segments", "2", "key-index.orphan-retention", "0s"));
        for (int file = 0; file < 3; file++) {
            // newer files, whose schema (k a string) the table follows
            sleepUninterruptibly(1_100, MILLISECONDS);
            List<Object[]> rows = List.<Object[]>of(new Object[] {"key-%d".formatted(file), (long) file});
            String name = "b-%d.parquet".formatted(file);
            client.putObject(request -> request.bucket(TestingLake.BUCKET).key(TestingLake.tableKey("telemetry", table, name)), RequestBody.fromBytes(LakeFiles.parquet(work, name, "message m { required binary k (STRING); required int64 v; }", rows, 10, Set.of())));
            getQueryRunner().execute("CALL %s.system.create_key_index('telemetry', '%s', 'k')".formatted(catalog, table));
        }
        // the third build compacted three segments into one
        assertThat(segments(table, "k")).hasSize(1);
        proxy.reset();
        getQueryRunner().execute("CALL %s.system.create_key_index('telemetry', '%s', 'k')".formatted(catalog, table));
        assertThat(proxy.requests().stream().filter(request -> request.target().equals(mismatched))).isEmpty();
        getQueryRunner().execute("CALL %s.system.drop_key_index('telemetry', '%s', 'k')".formatted(catalog, table));
    }

    /**
     * A segment whose trailer reads fine but a page of which fails its checksum: a lookup that meets it plans without
     * the index and "$key_index" says so; the compaction that meets it has the build read the segment's files again
     * and drop it. Before, compaction failed on it at every refresh, segments piled up, and lookups stayed without
     * the index until it was dropped.
     */
    @Test
    void damagedPagesAreFoundAndTheirFilesRebuilt()
    {
        String table = copyEvents("page_damaged", 1);
        String builder = newCatalog(Map.of("key-index.max-segments", "2", "key-index.orphan-retention", "0s"));
        Session building = Session.builder(getSession()).setCatalog(builder).setSchema("telemetry").build();
        String call = "CALL %s.system.create_key_index('telemetry', '%s', 'device_id')".formatted(builder, table);
        getQueryRunner().execute(building, call);
        String segmentKey = indexKey(table, "device_id", segments(table, "device_id").getFirst());
        byte[] original = client.getObjectAsBytes(request -> request.bucket(TestingLake.BUCKET).key(segmentKey)).asByteArray();
        byte[] flipped = withEveryPageDamaged(original);
        replaceSegment(table, original, flipped, segmentKey);
        // a lookup through another catalog meets the damage
        assertUnusable(table);
        assertThat((String) computeScalar("SELECT problems FROM \"%s$key_index\"".formatted(table))).contains("fails its checksum");

        uploadEventsFile(table, 1, "part-00001.parquet");
        getQueryRunner().execute(building, call);
        uploadEventsFile(table, 2, "part-00002.parquet");
        // three segments: compaction meets the damaged page, the build reads part-00000 again and drops the segment
        getQueryRunner().execute(building, call);
        assertThat(segments(table, "device_id")).hasSize(1).doesNotContain(segmentKey.substring(segmentKey.lastIndexOf('/') + 1));
        assertCorrectLookups(table, 3, 3);
        assertThat((Object) computeScalar("SELECT problems FROM \"%s$key_index\"".formatted(table))).isNull();
        dropIndex(table, "device_id");
    }

    /**
     * A byte of every postings page flipped (pages start after the 4-byte magic, about 64 KiB apart), the trailer
     * whole.
     */
    private static byte[] withEveryPageDamaged(byte[] segment)
    {
        byte[] damaged = segment.clone();
        for (int position = 10; position < segment.length - 2_000; position += 16_384) {
            damaged[position] ^= 0x40;
        }
        return damaged;
    }

    private static boolean isDataRead(CountingProxy.Request request, String table)
    {
        return request.method().equals("GET") && request.target().startsWith(TestingLake.tableKey("telemetry", table, "part-"));
    }

    private void cancelRunning(String sqlPart)
    {
        RunningQueries.cancelTheOne(getDistributedQueryRunner(), sqlPart);
    }

    /**
     * Waits until the proxy has seen no request for two seconds (the build's thread stopped), then checks that the
     * build wrote nothing and stopped long before reading every row group.
     */
    private void assertBuildLeftNothing(String table)
    {
        assertThat(proxy.awaitQuiet(60_000)).as("the build kept reading").isTrue();
        assertThat(listIndex(table)).isEmpty();
        assertThat(proxy.requests().stream().filter(request -> request.method().equals("PUT") || request.method().equals("POST"))).isEmpty();
        long dataReads = proxy.requests().stream().filter(request -> isDataRead(request, table)).count();
        // four files of four row groups each, read in full: at least 4 footers and 16 chunks
        assertThat(dataReads).isLessThan(4 + 16);
        proxy.reset();
    }

    private static void deleteRecursively(Path directory)
    {
        try {
            MoreFiles.deleteRecursively(directory, RecursiveDeleteOption.ALLOW_INSECURE);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] signExtended(byte[] minimal, int length)
    {
        byte[] result = new byte[length];
        Arrays.fill(result, 0, length - minimal.length, minimal[0] < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, result, length - minimal.length, minimal.length);
        return result;
    }

    /**
     * Where each dictionary page of the column lies in the serials files: (file, start, end exclusive).
     */
    private List<long[]> dictionaryPages(String column)
    {
        List<long[]> pages = new ArrayList<>();
        for (int file = 0; file < 2; file++) {
            try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(work.resolve("serials-%d.parquet".formatted(file))))) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    for (ColumnChunkMetaData chunk : block.getColumns()) {
                        if (chunk.getPath().toDotString().equals(column)) {
                            pages.add(new long[] {file, chunk.getDictionaryPageOffset(), chunk.getFirstDataPageOffset()});
                        }
                    }
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return pages;
    }

    private record Lookup(String sql, Predicate<TelemetryRow> matches) {}

    private MeasuredResult run(Session session, String sql)
    {
        return MeasuredResult.run(getDistributedQueryRunner(), session, sql);
    }

    private static Session withoutIndex(Session session)
    {
        return Session.builder(session).setCatalogSessionProperty("lake", "key_index_enabled", "false").build();
    }

    private void createIndex(String table, String column)
    {
        getQueryRunner().execute("CALL lake.system.create_key_index(schema_name => 'telemetry', table_name => '%s', column_name => '%s')".formatted(table, column));
    }

    private void dropIndex(String table, String column)
    {
        getQueryRunner().execute("CALL lake.system.drop_key_index('telemetry', '%s', '%s')".formatted(table, column));
        assertThat(listIndex(table)).isEmpty();
    }

    private long rowGroupsHolding(Predicate<TelemetryRow> predicate)
    {
        return rowGroupsHolding(lake.events(), predicate);
    }

    private static long rowGroupsHolding(List<TelemetryRow> rows, Predicate<TelemetryRow> predicate)
    {
        long count = 0;
        for (int start = 0; start < rows.size(); start += TestingLake.ROWS_PER_ROW_GROUP) {
            if (rows.subList(start, start + TestingLake.ROWS_PER_ROW_GROUP).stream().anyMatch(predicate)) {
                count++;
            }
        }
        return count;
    }

    private List<TelemetryRow> eventsOfFile(int file)
    {
        int rows = TestingLake.ROW_GROUPS_PER_FILE * TestingLake.ROWS_PER_ROW_GROUP;
        return lake.events().subList(file * rows, (file + 1) * rows);
    }

    /**
     * A table of the first {@code files} events files, each as {@code part-0000<i>.parquet}.
     */
    private String copyEvents(String table, int files)
    {
        for (int file = 0; file < files; file++) {
            uploadEventsFile(table, file, "part-%05d.parquet".formatted(file));
        }
        return table;
    }

    private void uploadEventsFile(String table, int eventsFile, String name)
    {
        TestingLake.upload(client, work.resolve("events-%d.parquet".formatted(eventsFile)), TestingLake.tableKey("telemetry", table, name));
    }

    private void assertCorrectLookups(String table, int expectedCovered, int files)
    {
        List<TelemetryRow> rows = new ArrayList<>();
        for (int file = 0; file < files; file++) {
            rows.addAll(eventsOfFile(file));
        }
        assertCorrectLookups(table, rows, expectedCovered, files);
    }

    /**
     * Present and absent keys with the index equal the rows; {@code covered} of the table's {@code files} files are
     * answered by the index.
     */
    private void assertCorrectLookups(String table, List<TelemetryRow> rows, int covered, int files)
    {
        for (int i = 0; i < 3; i++) {
            TelemetryRow target = rows.get(i * 7_919 % rows.size());
            String sql = "SELECT count(*) FROM %s WHERE device_id IN ('%s', '%s')".formatted(table, target.deviceId(), ABSENT);
            long expected = rows.stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
            MeasuredResult result = run(getSession(), sql);
            assertThat(result.rows().getOnlyValue()).as(sql).isEqualTo(expected);
            assertThat(result.metrics().get("filesCoveredByKeyIndex")).as(sql).isEqualTo(covered);
            assertThat(result.metrics().get("filesUncovered")).as(sql).isEqualTo(files - covered);
            assertThat(result.metrics().get("keyIndexUnusable")).as(sql).isZero();
        }
    }

    private void assertUnusable(String table)
    {
        List<TelemetryRow> rows = new ArrayList<>(eventsOfFile(0));
        rows.addAll(eventsOfFile(1));
        TelemetryRow target = rows.get(4_321);
        MeasuredResult result = run(getSession(), "SELECT count(*) FROM %s WHERE device_id = '%s'".formatted(table, target.deviceId()));
        assertThat(result.rows().getOnlyValue()).isEqualTo(rows.stream().filter(row -> row.deviceId().equals(target.deviceId())).count());
        assertThat(result.metrics().get("keyIndexUnusable")).isEqualTo(1);
        assertThat(result.metrics().get("filesCoveredByKeyIndex")).isZero();
    }

    /**
     * Replaces a segment's bytes and rewrites the pointer to name the new object's ETag and size, as a faulty
     * writer would: only the segment's own checksums can tell.
     */
    private void replaceSegment(String table, byte[] before, byte[] after, String segmentKey)
    {
        String etagBefore = client.headObject(request -> request.bucket(TestingLake.BUCKET).key(segmentKey)).eTag().replace("\"", "");
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(segmentKey), RequestBody.fromBytes(after));
        String etagAfter = client.headObject(request -> request.bucket(TestingLake.BUCKET).key(segmentKey)).eTag().replace("\"", "");
        KeyIndexPointer pointer = pointer(table, "device_id");
        KeyIndexPointer replaced = new KeyIndexPointer(pointer.column(), pointer.segments().stream()
                .map(segment -> segment.size() == before.length && segment.etag().equals(etagBefore)
                        ? new KeyIndexPointer.Segment(segment.name(), after.length, etagAfter, segment.trailerBytes(), segment.files(), segment.entries(), segment.builtAtMillis(), segment.buildMillis())
                        : segment)
                .toList());
        assertThat(replaced).isNotEqualTo(pointer);
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key(indexKey(table, "device_id", "_pointer")), RequestBody.fromBytes(replaced.serialize()));
    }

    private List<String> segments(String table, String column)
    {
        return pointer(table, column).segments().stream().map(KeyIndexPointer.Segment::name).toList();
    }

    private KeyIndexPointer pointer(String table, String column)
    {
        byte[] pointer = client.getObjectAsBytes(request -> request.bucket(TestingLake.BUCKET).key(indexKey(table, column, "_pointer"))).asByteArray();
        try {
            return KeyIndexPointer.parse(pointer, table);
        }
        catch (KeyIndexUnusableException e) {
            throw new AssertionError(e);
        }
    }

    private List<String> listIndex(String table)
    {
        return client.listObjectsV2(request -> request.bucket(TestingLake.BUCKET).prefix(TestingLake.tableKey("telemetry", table, "_key_index/")))
                .contents().stream().map(S3Object::key).toList();
    }

    private static String indexKey(String table, String column, String name)
    {
        return TestingLake.tableKey("telemetry", table, "_key_index/%s/%s".formatted(column, name));
    }

    private String newCatalog(Map<String, String> properties)
    {
        String catalog = "key_index_" + catalogs.incrementAndGet();
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT, properties));
        return catalog;
    }

    private void assertRequests(String catalog, String sql, Multiset<String> expected)
    {
        Session session = Session.builder(getSession()).setCatalog(catalog).setSchema("telemetry").build();
        proxy.reset();
        getQueryRunner().execute(session, sql);
        String table = sql.contains("serials") ? "serials" : sql.replaceFirst(".*'telemetry', '([a-z_]+)'.*", "$1");
        assertThat(describe(proxy.requests(), table)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * Requests as "METHOD target kind": targets relative to the table's folder (LIST prefixes relative to the
     * warehouse), segment names as {@code <segment>}, GETs as the whole object, its tail or a range inside.
     */
    private Multiset<String> describe(Multiset<CountingProxy.Request> requests, String table)
    {
        String tablePrefix = "warehouse/telemetry/%s/".formatted(table);
        return requests.stream().map(request -> {
            String target = request.target();
            if (request.method().equals("LIST")) {
                String relative = target.startsWith(tablePrefix) && !target.equals(tablePrefix) ? target.substring(tablePrefix.length()) : target.replaceFirst("^warehouse/", "");
                return "LIST " + relative;
            }
            String relative = target.startsWith(tablePrefix) ? target.substring(tablePrefix.length()) : target;
            relative = relative.replaceFirst("[0-9a-f-]{36}\\.kidx$", "<segment>");
            if (!request.method().equals("GET")) {
                return request.method() + " " + relative + " whole";
            }
            return "GET " + relative + " " + rangeKind(target, request.range());
        }).collect(toImmutableMultiset());
    }

    private String rangeKind(String key, String range)
    {
        if (range.isEmpty()) {
            return "whole";
        }
        long size;
        try {
            size = client.headObject(request -> request.bucket(TestingLake.BUCKET).key(key)).contentLength();
        }
        catch (NoSuchKeyException e) {
            // a segment deleted since (replaced by compaction)
            return "range of a deleted object";
        }
        String[] bounds = range.substring("bytes=".length()).split("-");
        if (Long.parseLong(bounds[1]) == size - 1) {
            return Long.parseLong(bounds[0]) == 0 && key.endsWith("_pointer") ? "whole" : "tail";
        }
        return "range";
    }
}
