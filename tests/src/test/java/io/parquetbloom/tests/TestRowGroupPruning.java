package io.parquetbloom.tests;

import io.parquetbloom.testing.FilterOracle;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.trino.Session;
import io.trino.testing.MaterializedRow;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookups end to end: every answer against the generated rows, and exactly the row groups an independent reading of
 * the files' statistics and filters keeps ({@link FilterOracle}), for equality, IN lists, every type, NULLs,
 * partitions, Trino-written files and joins.
 */
final class TestRowGroupPruning
        extends AbstractLakeQueryTest
{
    @Test
    void presentKeyLookup()
    {
        TelemetryRow target = lake.events().get(4321);
        List<TelemetryRow> expected = oracle(row -> row.deviceId().equals(target.deviceId()));
        String sql = "SELECT seq, reading FROM events WHERE device_id = '%s'".formatted(target.deviceId());
        MeasuredResult result = run(getSession(), sql);
        assertThat(result.seqs(0)).isEqualTo(expected.stream().map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(result.rows().getRowCount()).isEqualTo(expected.size());

        // the row groups holding the key, plus those whose filters give a false positive
        long kept = filterOracle.rowGroupsKept("device_id", Binary.fromString(target.deviceId()));
        assertThat(kept).isGreaterThanOrEqualTo(rowGroupsHolding(row -> row.deviceId().equals(target.deviceId())));
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS);
        assertThat(result.metrics().surviving()).isEqualTo(kept);
        assertThat(result.metrics().rowGroupsRead()).isEqualTo(kept);
        // the requests themselves: TestParquetBloomFileOperations

        // the same query without any pruning returns the same rows
        assertThat(run(noPruning(), sql).rows().getMaterializedRows()).containsExactlyInAnyOrderElementsOf(result.rows().getMaterializedRows());
    }

    @Test
    void absentKeyReadsNoColumnChunkOfExcludedRowGroups()
    {
        // inside every row group's min/max range, so only the bloom filters can exclude it
        String absent = new UUID(0x8123456789abcdefL, 42).toString();
        MeasuredResult result = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
        assertThat(result.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS);
        // this key has no false positive in any filter: no file could match, no split was scheduled, no worker read
        assertThat(filterOracle.rowGroupsKept("device_id", Binary.fromString(absent))).isZero();
        assertThat(result.metrics().surviving()).isZero();
        assertThat(result.metrics().prunedByBloomFilter()).isEqualTo(ROW_GROUPS - result.metrics().prunedByStatistics());
        assertThat(result.metrics().get("filesPrunedBeforeSplits")).isEqualTo(FILES);
        assertThat(result.metrics().get("s3GetRequests")).isZero();

        // warm: the coordinator's cache answers, not a single GET
        MeasuredResult warm = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
        assertThat(warm.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(warm.metrics().getRequests()).isZero();
        assertThat(warm.metrics().get("planningMetadataCacheFooterHits")).isEqualTo(FILES);

        MeasuredResult unpruned = run(noPruning(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent));
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
            MeasuredResult result = run(getSession(), sql);
            MaterializedRow row = result.rows().getMaterializedRows().getFirst();
            assertThat(row.getField(0)).as("IN of %d", size).isEqualTo((long) expected.size());
            assertThat(row.getField(1)).as("IN of %d", size).isEqualTo(expected.stream().mapToLong(value -> value.seq() % 1000).sum());
            assertThat(result.metrics().surviving()).as("IN of %d", size).isEqualTo(filterOracle.rowGroupsKept("device_id", keys.stream().map(Binary::fromString).toArray()));
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
        MeasuredResult result = run(getSession(), "SELECT count(*) FROM events WHERE note = '%s' OR note IS NULL".formatted(target.note()));
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
        assertLookup("trace_id = '%s'".formatted(target.traceId()), row -> row.traceId().equals(target.traceId()), "trace_id", Binary.fromString("ffffffffffffffffffffffffffffffff"), "'ffffffffffffffffffffffffffffffff'");
        assertLookup("seq = %d".formatted(target.seq()), row -> row.seq() == target.seq(), "seq", 12345L, "12345");
        assertLookup("reading = DOUBLE '%s'".formatted(target.reading()), row -> row.reading() == target.reading(), "reading", 123.0001, "DOUBLE '123.0001'");
        assertLookup("small = SMALLINT '%d'".formatted(target.small()), row -> row.small() == target.small(), null, null, null);
        assertLookup("code = %d".formatted(target.code()), row -> row.code() == target.code(), "code", 7, "7");
        assertLookup("price = DECIMAL '%s'".formatted(target.price().toPlainString()), row -> row.price().equals(target.price()), "price", 1, "DECIMAL '0.01'");
        assertLookup("amount = DECIMAL '%s'".formatted(target.amount().toPlainString()), row -> row.amount().equals(target.amount()), "amount", Binary.fromConstantByteArray(TestingLake.signExtend(BigInteger.valueOf(10001), 9)), "DECIMAL '1.0001'");
        assertLookup("day = DATE '%s'".formatted(target.day()), row -> row.day().equals(target.day()), null, null, null);
        assertLookup("event_ts = TIMESTAMP '%s'".formatted(target.eventTs().format(timestamp)), row -> row.eventTs().equals(target.eventTs()), "event_ts", LocalDateTime.of(2024, 6, 1, 0, 0).toEpochSecond(ZoneOffset.UTC) * 1_000_000 + 1, "TIMESTAMP '2024-06-01 00:00:00.000001'");
        assertLookup("event_ts_utc = from_unixtime_nanos(%d * 1000000) AT TIME ZONE 'UTC'".formatted(target.eventTsMillisUtc()), row -> row.eventTsMillisUtc() == target.eventTsMillisUtc(), null, null, null);
        assertLookup("tag = UUID '%s'".formatted(target.tag()), row -> row.tag().equals(target.tag()), "tag", Binary.fromConstantByteArray(TestingLake.uuidBytes(new UUID(0, 1))), "UUID '00000000-0000-0000-0000-000000000001'");
        assertLookup("ratio = REAL '%s'".formatted(target.ratio()), row -> row.ratio() == target.ratio(), "ratio", 0.123f, "REAL '0.123'");
        assertLookup("payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload())), row -> Arrays.equals(row.payload(), target.payload()), "payload", Binary.fromConstantByteArray(HexFormat.of().parseHex("00112233445566778899")), "X'00112233445566778899'");
    }

    /**
     * @param absentValue a value no row holds, in the column's physical representation, and {@code absentLiteral} it
     * in SQL: the lookup keeps exactly the row groups the oracle keeps
     */
    private void assertLookup(String predicate, Predicate<TelemetryRow> oraclePredicate, String column, Object absentValue, String absentLiteral)
    {
        MeasuredResult result = run(getSession(), "SELECT seq FROM events WHERE " + predicate);
        assertThat(result.seqs(0)).as(predicate).isEqualTo(oracle(oraclePredicate).stream().map(TelemetryRow::seq).collect(Collectors.toSet()));
        assertThat(result.seqs(0)).as(predicate).isNotEmpty();
        if (absentValue != null) {
            String absentPredicate = "%s = %s".formatted(column, absentLiteral);
            MeasuredResult absent = run(getSession(), "SELECT count(*) FROM events WHERE " + absentPredicate);
            assertThat(absent.rows().getOnlyValue()).as(absentPredicate).isEqualTo(0L);
            assertThat(absent.metrics().surviving()).as(absentPredicate).isEqualTo(filterOracle.rowGroupsKept(column, absentValue));
        }
    }

    @Test
    void partitionPruning()
    {
        TelemetryRow target = lake.events().stream().filter(row -> row.region().equals("us")).findFirst().orElseThrow();
        MeasuredResult result = run(getSession(), "SELECT count(*) FROM events WHERE region = 'us' AND device_id = '%s'".formatted(target.deviceId()));
        assertThat(result.rows().getOnlyValue()).isEqualTo((long) oracle(row -> row.region().equals("us") && row.deviceId().equals(target.deviceId())).size());
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(ROW_GROUPS / 2);
        assertThat(computeScalar("SELECT count(*) FROM events WHERE region = 'eu'")).isEqualTo((long) oracle(row -> row.region().equals("eu")).size());
    }

    @Test
    void filesWrittenByTrino()
    {
        int rows = 2 * TestingLake.ROW_GROUPS_PER_FILE * TestingLake.ROWS_PER_ROW_GROUP;
        FilterOracle trinoFiles;
        try (S3Client client = s3.client()) {
            trinoFiles = FilterOracle.ofTable(client, TestingLake.BUCKET, "warehouse/telemetry/events_trino/", work);
        }
        List<TelemetryRow> written = lake.events().subList(0, rows);
        assertThat(computeScalar("SELECT count(*) FROM events_trino")).isEqualTo((long) rows);
        for (TelemetryRow target : List.of(written.get(5), written.get(rows - 5))) {
            MeasuredResult byTrace = run(getSession(), "SELECT seq, device_id FROM events_trino WHERE trace_id = '%s'".formatted(target.traceId()));
            assertThat(byTrace.seqs(0)).containsExactly(target.seq());
            assertThat(byTrace.metrics().surviving()).isEqualTo(trinoFiles.rowGroupsKept("trace_id", Binary.fromString(target.traceId())));
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE device_id = '%s'".formatted(target.deviceId())))
                    .isEqualTo(written.stream().filter(row -> row.deviceId().equals(target.deviceId())).count());
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE tag = UUID '%s'".formatted(target.tag()))).isEqualTo(1L);
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE seq = %d".formatted(target.seq()))).isEqualTo(1L);
            assertThat(computeScalar("SELECT count(*) FROM events_trino WHERE payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload()))))
                    .isEqualTo(written.stream().filter(row -> Arrays.equals(row.payload(), target.payload())).count());
        }
        MeasuredResult absent = run(getSession(), "SELECT count(*) FROM events_trino WHERE trace_id = '8000000000000000000000000000000a'");
        assertThat(absent.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(absent.metrics().surviving()).isEqualTo(trinoFiles.rowGroupsKept("trace_id", Binary.fromString("8000000000000000000000000000000a")));
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
        MeasuredResult result = run(session, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(result.rows().getOnlyValue()).isEqualTo(expectedJoin);
        assertThat(expected).isPositive();
        // 2 present keys live in a few row groups; the dynamic filter's 10 keys prune the rest
        long holding = rowGroupsHolding(row -> keys.contains(row.deviceId()));
        assertThat(result.metrics().prunedByBloomFilter())
                .as("%s%n%s", result.metrics().counts(), computeScalar(session, "EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id"))
                .isGreaterThan(0);
        // the probe side keeps what the oracle keeps for the build side's keys; plus the keys table's one row group
        assertThat(result.metrics().surviving()).isEqualTo(filterOracle.rowGroupsKept("device_id", joinKeys.stream().map(Binary::fromString).toArray()) + 1);
        assertThat(run(noPruning(), "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id").rows().getOnlyValue()).isEqualTo(expectedJoin);

        // without filters every row group is read once; the same dynamic filter again skips those without a match
        Session memoOnly = Session.builder(session)
                .setCatalogSessionProperty("lake", "bloom_filter_enabled", "false")
                .setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false")
                .build();
        MeasuredResult first = run(memoOnly, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(first.rows().getOnlyValue()).isEqualTo(expectedJoin);
        assertThat(first.metrics().get("rowGroupsRecordedNoMatch")).as("%s", first.metrics().counts()).isEqualTo(ROW_GROUPS - holding);
        MeasuredResult again = run(memoOnly, "SELECT count(*) FROM events e JOIN keys k ON e.device_id = k.device_id");
        assertThat(again.rows().getOnlyValue()).isEqualTo(expectedJoin);
        // plus the one row group of the keys table
        assertThat(again.metrics().rowGroupsRead()).as("%s", again.metrics().counts()).isEqualTo(holding + 1);
    }

    @Test
    void tableWithoutFilters()
    {
        TelemetryRow target = lake.events().get(10);
        MeasuredResult result = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(target.deviceId()));
        long expected = lake.events().subList(0, 2 * TestingLake.ROWS_PER_ROW_GROUP).stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
        assertThat(result.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(result.metrics().prunedByBloomFilter()).isZero();
        assertThat(result.metrics().filtersUnusable()).isZero();
    }
}
