package io.parquetbloom.tests;

import io.parquetbloom.demo.S3ProxyProcess;

import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end through a real Trino (coordinator + worker) and a real S3 server: results against an in-memory oracle
 * of the generated rows, and pruning counters and S3 GETs from the page sources' metrics.
 */
final class TestParquetBloomConnector
        extends AbstractTestQueryFramework
{
    private static final int FILES = 2 * TestingLake.FILES_PER_REGION;
    private static final int ROW_GROUPS = FILES * TestingLake.ROW_GROUPS_PER_FILE;

    private final TestingLake lake = new TestingLake();
    private List<String> joinKeys;
    private S3ProxyProcess s3;
    private Path work;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        work = Files.createTempDirectory("parquet-bloom-it");
        s3 = closeAfterClass(S3ProxyProcess.start(work.resolve("s3proxy")));
        try (S3Client client = s3.client()) {
            client.createBucket(request -> request.bucket(TestingLake.BUCKET));
            lake.writeEvents(client, work);
            lake.writeTrinoWriterEvents(client);
            joinKeys = lake.writeKeys(client, work, 10, 2);
            byte[] first = TestingLake.eventsFileBytes(work, "dt1.parquet", lake.events().subList(0, 100));
            byte[] second = TestingLake.eventsFileBytes(work, "dt2.parquet", lake.events().subList(100, 300));
            TestingLake.upload(client, first, TestingLake.tableKey("telemetry", "by_date", "dt=2024-01-01/h=3/part-0.parquet"));
            TestingLake.upload(client, second, TestingLake.tableKey("telemetry", "by_date", "dt=2024-01-02/h=14/part-1.parquet"));
            // ignored: hidden folders and files, non-Parquet objects
            TestingLake.upload(client, first, TestingLake.tableKey("telemetry", "by_date", "_temporary/dt=2024-01-03/h=1/part-2.parquet"));
            TestingLake.upload(client, first, TestingLake.tableKey("telemetry", "by_date", "dt=2024-01-01/h=3/.part-0.parquet.crc.parquet"));
            TestingLake.upload(client, "not parquet".getBytes(java.nio.charset.StandardCharsets.UTF_8), TestingLake.tableKey("telemetry", "by_date", "dt=2024-01-01/h=3/_SUCCESS"));
        }
        return ParquetBloomQueryRunner.create(s3.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT);
    }

    @Test
    void catalogShowsTheLake()
    {
        assertThat(computeActual("SHOW SCHEMAS FROM lake").getOnlyColumnAsSet()).contains("telemetry");
        assertThat(computeActual("SHOW TABLES FROM lake.telemetry").getOnlyColumnAsSet()).contains("events", "no_filters");
        MaterializedResult describe = computeActual("DESCRIBE lake.telemetry.events");
        assertThat(describe.getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList()).containsExactly(
                "device_id varchar",
                "trace_id varchar",
                "seq bigint",
                "reading double",
                "small smallint",
                "code integer",
                "price decimal(9,2)",
                "amount decimal(20,4)",
                "day date",
                "event_ts timestamp(6)",
                "event_ts_utc timestamp(3) with time zone",
                "tag uuid",
                "ratio real",
                "payload varbinary",
                "note varchar",
                "region varchar");
        assertThat((String) computeScalar("SHOW CREATE TABLE lake.telemetry.events")).contains("CREATE TABLE lake.telemetry.events", "device_id varchar", "region varchar");
        assertThat(computeScalar("SELECT count(*) FROM lake.information_schema.columns WHERE table_schema = 'telemetry' AND table_name = 'events'")).isEqualTo(16L);
        assertThat(computeScalar("SELECT count(*) FROM events")).isEqualTo((long) lake.events().size());
    }

    @Test
    void writesAreRejected()
    {
        assertThat(query("INSERT INTO events (seq) VALUES (1)")).failure().hasMessageContaining("does not support");
        assertThat(query("CREATE TABLE lake.telemetry.t (x bigint)")).failure().hasMessageContaining("does not support");
    }

    @Test
    void presentKeyLookup()
    {
        TelemetryRow target = lake.events().get(4321);
        List<TelemetryRow> expected = oracle(row -> row.deviceId().equals(target.deviceId()));
        String sql = "SELECT seq, reading FROM events WHERE device_id = '%s'".formatted(target.deviceId());
        Result result = run(getSession(), sql);
        assertThat(result.seqs(0)).isEqualTo(expected.stream().map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(result.rows().getRowCount()).isEqualTo(expected.size());

        long rowGroupsWithKey = rowGroupsHolding(row -> row.deviceId().equals(target.deviceId()));
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS);
        assertThat(result.metrics().surviving()).isBetween(rowGroupsWithKey, rowGroupsWithKey + 2);
        assertThat(result.metrics().rowGroupsRead()).isEqualTo(result.metrics().surviving());
        // coordinator: per file one tail read and one read of its filters; workers: the footer of each surviving
        // file (their caches are their own) and the 3 read columns of surviving row groups
        assertThat(result.metrics().getRequests()).isLessThanOrEqualTo(3L * FILES + 3 * result.metrics().surviving());

        // the same query without any pruning returns the same rows
        assertThat(run(noPruning(), sql).rows().getMaterializedRows()).containsExactlyInAnyOrderElementsOf(result.rows().getMaterializedRows());
    }

    @Test
    void absentKeyReadsNoColumnChunkOfExcludedRowGroups()
    {
        // inside every row group's min/max range, so only the bloom filters can exclude it
        String absent = new UUID(0x8123456789abcdefL, 42).toString();
        Result result = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
        assertThat(result.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS);
        assertThat(result.metrics().prunedByBloomFilter()).isGreaterThanOrEqualTo(ROW_GROUPS - 2);
        // footer + filters per file, then per false-positive row group its file's footer and one chunk (device_id)
        assertThat(result.metrics().getRequests()).isLessThanOrEqualTo(2L * FILES + 2 * result.metrics().surviving());
        // this key has no false positive in any filter: no file could match, no split was scheduled, no worker read
        assertThat(result.metrics().surviving()).isZero();
        assertThat(result.metrics().get("filesPrunedBeforeSplits")).isEqualTo(FILES);
        assertThat(result.metrics().get("s3GetRequests")).isZero();

        // warm: the coordinator's cache answers, not a single GET
        Result warm = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
        assertThat(warm.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(warm.metrics().getRequests()).isZero();
        assertThat(warm.metrics().get("planningMetadataCacheFooterHits")).isEqualTo(FILES);

        Result unpruned = run(noPruning(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
        assertThat(unpruned.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(unpruned.metrics().prunedByBloomFilter()).isZero();
        // the reader coalesces a file's chunks into one GET, so the saving shows in bytes
        assertThat(unpruned.metrics().bytesRead()).isGreaterThan(3 * result.metrics().bytesRead());
    }

    @Test
    void inLists()
    {
        SplittableRandom random = new SplittableRandom(7);
        for (int size : new int[] {1, 10, 1_000, 10_000}) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                keys.add(i % 2 == 0 ? lake.devices().get(random.nextInt(lake.devices().size())) : new UUID(random.nextLong(), random.nextLong()).toString());
            }
            Set<String> keySet = Set.copyOf(keys);
            List<TelemetryRow> expected = oracle(row -> keySet.contains(row.deviceId()));
            String sql = "SELECT count(*), coalesce(sum(seq %% 1000), 0) FROM events WHERE device_id IN (%s)".formatted(
                    keys.stream().map(key -> "'" + key + "'").collect(Collectors.joining(",")));
            Result result = run(getSession(), sql);
            MaterializedRow row = result.rows().getMaterializedRows().getFirst();
            assertThat(row.getField(0)).as("IN of %d", size).isEqualTo((long) expected.size());
            assertThat(row.getField(1)).as("IN of %d", size).isEqualTo(expected.stream().mapToLong(value -> value.seq() % 1000).sum());
            long holding = rowGroupsHolding(value -> keySet.contains(value.deviceId()));
            assertThat(result.metrics().surviving()).as("IN of %d", size).isGreaterThanOrEqualTo(holding);
            if (size <= 10) {
                assertThat(result.metrics().prunedByBloomFilter()).as("IN of %d", size).isGreaterThan(0);
            }
        }
    }

    @Test
    void nullHandling()
    {
        long nulls = oracle(row -> row.note() == null).size();
        assertThat(computeScalar("SELECT count(*) FROM events WHERE note IS NULL")).isEqualTo(nulls);
        TelemetryRow target = lake.events().stream().filter(row -> row.note() != null).skip(100).findFirst().orElseThrow();
        long expected = oracle(row -> row.note() == null || row.note().equals(target.note())).size();
        Result result = run(getSession(), "SELECT count(*) FROM events WHERE note = '%s' OR note IS NULL".formatted(target.note()));
        assertThat(result.rows().getOnlyValue()).isEqualTo(expected);
        // every row group has NULL notes, so a filter cannot exclude any of them
        assertThat(result.metrics().prunedByBloomFilter()).isZero();
        assertThat(computeScalar("SELECT count(*) FROM events WHERE note = '%s'".formatted(target.note())))
                .isEqualTo((long) oracle(row -> target.note().equals(row.note())).size());
    }

    @Test
    void everyTypeFindsItsRowAndPrunesAbsentValues()
    {
        TelemetryRow target = lake.events().get(27_182);
        DateTimeFormatter timestamp = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
        assertLookup("trace_id = '%s'".formatted(target.traceId()), row -> row.traceId().equals(target.traceId()), "trace_id = 'ffffffffffffffffffffffffffffffff'");
        assertLookup("seq = %d".formatted(target.seq()), row -> row.seq() == target.seq(), "seq = 12345");
        assertLookup("reading = DOUBLE '%s'".formatted(target.reading()), row -> row.reading() == target.reading(), "reading = DOUBLE '123.0001'");
        assertLookup("small = SMALLINT '%d'".formatted(target.small()), row -> row.small() == target.small(), null);
        assertLookup("code = %d".formatted(target.code()), row -> row.code() == target.code(), "code = 7");
        assertLookup("price = DECIMAL '%s'".formatted(target.price().toPlainString()), row -> row.price().equals(target.price()), "price = DECIMAL '0.01'");
        assertLookup("amount = DECIMAL '%s'".formatted(target.amount().toPlainString()), row -> row.amount().equals(target.amount()), "amount = DECIMAL '1.0001'");
        assertLookup("day = DATE '%s'".formatted(target.day()), row -> row.day().equals(target.day()), null);
        assertLookup("event_ts = TIMESTAMP '%s'".formatted(target.eventTs().format(timestamp)), row -> row.eventTs().equals(target.eventTs()), "event_ts = TIMESTAMP '2024-06-01 00:00:00.000001'");
        assertLookup("event_ts_utc = from_unixtime_nanos(%d * 1000000) AT TIME ZONE 'UTC'".formatted(target.eventTsMillisUtc()), row -> row.eventTsMillisUtc() == target.eventTsMillisUtc(), null);
        assertLookup("tag = UUID '%s'".formatted(target.tag()), row -> row.tag().equals(target.tag()), "tag = UUID '00000000-0000-0000-0000-000000000001'");
        assertLookup("ratio = REAL '%s'".formatted(target.ratio()), row -> row.ratio() == target.ratio(), "ratio = REAL '0.123'");
        assertLookup("payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload())), row -> java.util.Arrays.equals(row.payload(), target.payload()), "payload = X'00112233445566778899'");
    }

    private void assertLookup(String predicate, Predicate<TelemetryRow> oraclePredicate, String absentPredicate)
    {
        Result result = run(getSession(), "SELECT seq FROM events WHERE " + predicate);
        assertThat(result.seqs(0)).as(predicate).isEqualTo(oracle(oraclePredicate).stream().map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(result.seqs(0)).as(predicate).isNotEmpty();
        if (absentPredicate != null) {
            Result absent = run(getSession(), "SELECT count(*) FROM events WHERE " + absentPredicate);
            assertThat(absent.rows().getOnlyValue()).as(absentPredicate).isEqualTo(0L);
            assertThat(absent.metrics().prunedByBloomFilter() + absent.metrics().prunedByStatistics()).as(absentPredicate).isGreaterThanOrEqualTo(ROW_GROUPS - 2);
        }
    }

    @Test
    void partitionPruning()
    {
        TelemetryRow target = lake.events().stream().filter(row -> row.region().equals("us")).findFirst().orElseThrow();
        Result result = run(getSession(), "SELECT count(*) FROM events WHERE region = 'us' AND device_id = '%s'".formatted(target.deviceId()));
        assertThat(result.rows().getOnlyValue()).isEqualTo((long) oracle(row -> row.region().equals("us") && row.deviceId().equals(target.deviceId())).size());
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS / 2);
        assertThat(computeScalar("SELECT count(*) FROM events WHERE region = 'eu'")).isEqualTo((long) oracle(row -> row.region().equals("eu")).size());
    }

    @Test
    void filesWrittenByTrino()
    {
        int rows = 2 * TestingLake.ROW_GROUPS_PER_FILE * TestingLake.ROWS_PER_ROW_GROUP;
        List<TelemetryRow> written = lake.events().subList(0, rows);
        assertThat(computeScalar("SELECT count(*) FROM events_trino")).isEqualTo((long) rows);
        for (TelemetryRow target : List.of(written.get(5), written.get(rows - 5))) {
            Result byTrace = run(getSession(), "SELECT seq, device_id FROM events_trino WHERE trace_id = '%s'".formatted(target.traceId()));
            assertThat(byTrace.seqs(0)).containsExactly(target.seq());
            assertThat(byTrace.metrics().prunedByBloomFilter()).isGreaterThanOrEqualTo(2L * TestingLake.ROW_GROUPS_PER_FILE - 2);
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE device_id = '%s'".formatted(target.deviceId())))
                    .isEqualTo(written.stream().filter(row -> row.deviceId().equals(target.deviceId())).count());
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE tag = UUID '%s'".formatted(target.tag()))).isEqualTo(1L);
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE seq = %d".formatted(target.seq()))).isEqualTo(1L);
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload()))))
                    .isEqualTo(written.stream().filter(row -> java.util.Arrays.equals(row.payload(), target.payload())).count());
        }
        Result absent = run(getSession(), "SELECT count(*) FROM events_trino WHERE trace_id = '8000000000000000000000000000000a'");
        assertThat(absent.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(absent.metrics().prunedByBloomFilter()).isGreaterThanOrEqualTo(2L * TestingLake.ROW_GROUPS_PER_FILE - 2);
    }

    @Test
    void joinDynamicFilterReachesTheProbeSide()
    {
        Set<String> keys = Set.copyOf(joinKeys);
        long expected = oracle(row -> keys.contains(row.deviceId())).size();
        // keys has duplicates only by chance; count by join semantics
        long expectedJoin = lake.events().stream().mapToLong(row -> joinKeys.stream().filter(row.deviceId()::equals).count()).sum();
        Session session = Session.builder(getSession())
                .setSystemProperty("join_distribution_type", "BROADCAST")
                .build();
        Result result = run(session, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(result.rows().getOnlyValue()).isEqualTo(expectedJoin);
        assertThat(expected).isPositive();
        // 2 present keys live in a few row groups; the dynamic filter's 10 keys prune the rest
        long holding = rowGroupsHolding(row -> keys.contains(row.deviceId()));
        assertThat(result.metrics().prunedByBloomFilter())
                .as("%s%n%s", result.metrics().counts(), computeScalar(session, "EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id"))
                .isGreaterThan(0);
        assertThat(result.metrics().surviving()).isGreaterThanOrEqualTo(holding);
        assertThat(run(noPruning(), "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id").rows().getOnlyValue()).isEqualTo(expectedJoin);

        // without filters every row group is read once; the same dynamic filter again skips those without a match
        Session memoOnly = Session.builder(session)
                .setCatalogSessionProperty("lake", "bloom_filter_enabled", "false")
                .setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false")
                .build();
        Result first = run(memoOnly, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(first.rows().getOnlyValue()).isEqualTo(expectedJoin);
        assertThat(first.metrics().get("rowGroupsRecordedNoMatch")).as("%s", first.metrics().counts()).isEqualTo(ROW_GROUPS - holding);
        Result again = run(memoOnly, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(again.rows().getOnlyValue()).isEqualTo(expectedJoin);
        // plus the one row group of the keys table
        assertThat(again.metrics().rowGroupsRead()).as("%s", again.metrics().counts()).isEqualTo(holding + 1);
    }

    @Test
    void metricsAppearInExplainAnalyze()
    {
        String plan = (String) computeScalar("EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM events WHERE device_id = '%s'".formatted(lake.devices().get(3)));
        assertThat(plan).contains("rowGroupsTotal", "rowGroupsPrunedByStatistics", "rowGroupsPrunedByBloomFilter", "bloomFiltersUnusable", "bloomFilterBytesRead", "s3GetRequests", "s3BytesRead");
    }

    @Test
    void partitionColumnTypesAreInferred()
    {
        MaterializedResult describe = computeActual("DESCRIBE by_date");
        List<String> columns = describe.getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList();
        assertThat(columns).endsWith("dt date", "h bigint");
        assertThat(computeScalar("SELECT count(*) FROM by_date")).isEqualTo(300L);
        Result result = run(getSession(), "SELECT count(*), min(h) FROM by_date WHERE dt = DATE '2024-01-02'");
        assertThat(result.rows().getMaterializedRows().getFirst().getFields()).containsExactly(200L, 14L);
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(1);
        assertThat(computeScalar("SELECT count(*) FROM by_date WHERE h = 3")).isEqualTo(100L);
    }

    @Test
    void rewrittenObjectIsNeverServedFromStaleMetadata()
    {
        List<TelemetryRow> first = lake.events().subList(0, 1_000);
        List<TelemetryRow> second = lake.events().subList(20_000, 22_500);
        String key = TestingLake.tableKey("telemetry", "mutable", "part-0.parquet");
        try (S3Client client = s3.client()) {
            TestingLake.upload(client, TestingLake.eventsFileBytes(work, "mutable-1.parquet", first), key);
            String device = first.get(10).deviceId();
            String sql = "SELECT count(*) FROM mutable WHERE device_id = '%s'".formatted(device);
            assertThat(computeScalar(sql)).isEqualTo(first.stream().filter(row -> row.deviceId().equals(device)).count());
            assertThat(computeScalar(sql)).isEqualTo(first.stream().filter(row -> row.deviceId().equals(device)).count());

            // same key, other content: new size and ETag, so cached footers and filters of the old object do not apply
            TestingLake.upload(client, TestingLake.eventsFileBytes(work, "mutable-2.parquet", second), key);
            assertThat(computeScalar(sql)).isEqualTo(second.stream().filter(row -> row.deviceId().equals(device)).count());
            String other = second.get(5).deviceId();
            assertThat(computeScalar("SELECT count(*) FROM mutable WHERE device_id = '%s'".formatted(other)))
                    .isEqualTo(second.stream().filter(row -> row.deviceId().equals(other)).count())
                    .isNotEqualTo(0L);
        }
    }

    @Test
    void tableWithoutFilters()
    {
        TelemetryRow target = lake.events().get(10);
        Result result = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(target.deviceId()));
        long expected = lake.events().subList(0, 2 * TestingLake.ROWS_PER_ROW_GROUP).stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
        assertThat(result.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(result.metrics().prunedByBloomFilter()).isZero();
        assertThat(result.metrics().filtersUnusable()).isZero();
    }

    @Test
    void rowGroupsReadWithoutMatchAreSkippedWhenTheSamePredicateComesAgain()
    {
        // no_filters: nothing but reading can tell that a key inside the min/max range is absent
        List<TelemetryRow> rows = lake.events().subList(0, 2 * TestingLake.ROWS_PER_ROW_GROUP);
        String absent = new UUID(0x8123456789abcdefL, 4242).toString();
        String absentSql = "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(absent);

        Result cold = run(getSession(), absentSql);
        assertThat(cold.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(cold.metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(cold.metrics().get("rowGroupsRecordedNoMatch")).isEqualTo(2);
        assertThat(cold.metrics().getRequests()).isPositive();

        // the worker that read them skips both row groups: no data GET, nothing read
        Result warm = run(getSession(), absentSql);
        assertThat(warm.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(warm.metrics().prunedByNoMatchCache()).isEqualTo(2);
        assertThat(warm.metrics().rowGroupsRead()).isZero();
        assertThat(warm.metrics().getRequests()).isZero();

        // other predicates on the same row groups are not affected: a present key, and a list holding the absent key
        TelemetryRow target = rows.get(3_000);
        long expected = rows.stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
        assertThat(expected).isPositive();
        Result present = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(target.deviceId()));
        assertThat(present.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(present.metrics().prunedByNoMatchCache()).isZero();
        Result list = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id IN ('%s', '%s')".formatted(absent, target.deviceId()));
        assertThat(list.rows().getOnlyValue()).isEqualTo(expected);
        Result again = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id IN ('%s', '%s')".formatted(absent, target.deviceId()));
        assertThat(again.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(again.metrics().rowGroupsRead()).isEqualTo(rowGroupsOf(rows, row -> row.deviceId().equals(target.deviceId())));

        // the session property turns it off
        Session noCache = Session.builder(getSession()).setCatalogSessionProperty("lake", "no_match_cache_enabled", "false").build();
        Result disabled = run(noCache, absentSql);
        assertThat(disabled.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(disabled.metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(disabled.metrics().prunedByNoMatchCache()).isZero();
    }

    @Test
    void noMatchCacheNeverHidesAMatchingRowOfAnyType()
    {
        // without filters and statistics every row group is read once, and those without a match are remembered:
        // the second run must read exactly the row groups that hold the value, whatever the column type
        Session memoOnly = Session.builder(getSession())
                .setCatalogSessionProperty("lake", "bloom_filter_enabled", "false")
                .setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false")
                .build();
        TelemetryRow target = lake.events().get(31_415);
        DateTimeFormatter timestamp = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
        java.util.Map<String, Predicate<TelemetryRow>> lookups = new java.util.LinkedHashMap<>();
        lookups.put("device_id = '%s'".formatted(target.deviceId()), row -> row.deviceId().equals(target.deviceId()));
        lookups.put("seq = %d".formatted(target.seq()), row -> row.seq() == target.seq());
        lookups.put("reading = DOUBLE '%s'".formatted(target.reading()), row -> row.reading() == target.reading());
        lookups.put("small = SMALLINT '%d'".formatted(target.small()), row -> row.small() == target.small());
        lookups.put("code IN (%d, 7)".formatted(target.code()), row -> row.code() == target.code() || row.code() == 7);
        lookups.put("price = DECIMAL '%s'".formatted(target.price().toPlainString()), row -> row.price().equals(target.price()));
        lookups.put("amount = DECIMAL '%s'".formatted(target.amount().toPlainString()), row -> row.amount().equals(target.amount()));
        lookups.put("day = DATE '%s'".formatted(target.day()), row -> row.day().equals(target.day()));
        lookups.put("event_ts = TIMESTAMP '%s'".formatted(target.eventTs().format(timestamp)), row -> row.eventTs().equals(target.eventTs()));
        String utc = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli(target.eventTsMillisUtc()));
        lookups.put("event_ts_utc = TIMESTAMP '%s UTC'".formatted(utc), row -> row.eventTsMillisUtc() == target.eventTsMillisUtc());
        lookups.put("tag = UUID '%s'".formatted(target.tag()), row -> row.tag().equals(target.tag()));
        lookups.put("ratio = REAL '%s'".formatted(target.ratio()), row -> row.ratio() == target.ratio());
        lookups.put("payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload())), row -> java.util.Arrays.equals(row.payload(), target.payload()));
        lookups.put("note IS NULL OR note = 'x'", row -> row.note() == null || row.note().equals("x"));
        for (var lookup : lookups.entrySet()) {
            String sql = "SELECT seq FROM events WHERE " + lookup.getKey();
            Set<Long> expected = oracle(lookup.getValue()).stream().map(TelemetryRow::seq).collect(Collectors.toSet());
            long holding = rowGroupsHolding(lookup.getValue());
            Result first = run(memoOnly, sql);
            assertThat(first.seqs(0)).as(lookup.getKey()).isEqualTo(expected).isNotEmpty();
            Result second = run(memoOnly, sql);
            assertThat(second.seqs(0)).as(lookup.getKey()).isEqualTo(expected);
            assertThat(second.metrics().rowGroupsRead()).as(lookup.getKey()).isEqualTo(holding);
            assertThat(second.metrics().prunedByNoMatchCache()).as(lookup.getKey()).isEqualTo(ROW_GROUPS - holding);
        }
    }

    private static long rowGroupsOf(List<TelemetryRow> rows, Predicate<TelemetryRow> predicate)
    {
        long count = 0;
        for (int start = 0; start < rows.size(); start += TestingLake.ROWS_PER_ROW_GROUP) {
            if (rows.subList(start, Math.min(rows.size(), start + TestingLake.ROWS_PER_ROW_GROUP)).stream().anyMatch(predicate)) {
                count++;
            }
        }
        return count;
    }

    private record Result(MaterializedResult rows, QueryMetrics metrics)
    {
        Set<Long> seqs(int column)
        {
            return rows.getMaterializedRows().stream().map(row -> (Long) row.getField(column)).collect(Collectors.toSet());
        }
    }

    private Result run(Session session, String sql)
    {
        DistributedQueryRunner runner = getDistributedQueryRunner();
        var result = runner.executeWithPlan(session, sql);
        return new Result(result.result(), QueryMetrics.of(runner, result.queryId()));
    }

    private Session noPruning()
    {
        return ParquetBloomQueryRunner.allPruningOff(getSession(), "lake");
    }

    private List<TelemetryRow> oracle(Predicate<TelemetryRow> predicate)
    {
        return lake.events().stream().filter(predicate).toList();
    }

    private long rowGroupsHolding(Predicate<TelemetryRow> predicate)
    {
        List<TelemetryRow> events = lake.events();
        long count = 0;
        for (int start = 0; start < events.size(); start += TestingLake.ROWS_PER_ROW_GROUP) {
            if (events.subList(start, start + TestingLake.ROWS_PER_ROW_GROUP).stream().anyMatch(predicate)) {
                count++;
            }
        }
        return count;
    }
}
