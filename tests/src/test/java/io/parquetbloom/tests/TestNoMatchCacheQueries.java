package io.parquetbloom.tests;

import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.trino.Session;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The no-match cache end to end: row groups read without a match are skipped when the same column predicate comes
 * again, for every type, and never hide a matching row.
 */
final class TestNoMatchCacheQueries
        extends AbstractLakeQueryTest
{
    @Test
    void rowGroupsReadWithoutMatchAreSkippedWhenTheSamePredicateComesAgain()
    {
        // no_filters: nothing but reading can tell that a key inside the min/max range is absent
        List<TelemetryRow> rows = lake.events().subList(0, 2 * TestingLake.ROWS_PER_ROW_GROUP);
        String absent = new UUID(0x8123456789abcdefL, 4242).toString();
        String absentSql = "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(absent);

        MeasuredResult cold = run(getSession(), absentSql);
        assertThat(cold.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(cold.metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(cold.metrics().get("rowGroupsRecordedNoMatch")).isEqualTo(2);
        assertThat(cold.metrics().getRequests()).isPositive();

        // the worker that read them skips both row groups: no data GET, nothing read
        MeasuredResult warm = run(getSession(), absentSql);
        assertThat(warm.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(warm.metrics().prunedByNoMatchCache()).isEqualTo(2);
        assertThat(warm.metrics().rowGroupsRead()).isZero();
        assertThat(warm.metrics().getRequests()).isZero();

        // other predicates on the same row groups are not affected: a present key, and a list holding the absent key
        TelemetryRow target = rows.get(3_000);
        long expected = rows.stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
        assertThat(expected).isPositive();
        MeasuredResult present = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(target.deviceId()));
        assertThat(present.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(present.metrics().prunedByNoMatchCache()).isZero();
        MeasuredResult list = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id IN ('%s', '%s')".formatted(absent, target.deviceId()));
        assertThat(list.rows().getOnlyValue()).isEqualTo(expected);
        MeasuredResult again = run(getSession(), "SELECT count(*) FROM no_filters WHERE device_id IN ('%s', '%s')".formatted(absent, target.deviceId()));
        assertThat(again.rows().getOnlyValue()).isEqualTo(expected);
        assertThat(again.metrics().rowGroupsRead()).isEqualTo(rowGroupsOf(rows, row -> row.deviceId().equals(target.deviceId())));

        // the session property turns it off
        Session noCache = Session.builder(getSession()).setCatalogSessionProperty("lake", "no_match_cache_enabled", "false").build();
        MeasuredResult disabled = run(noCache, absentSql);
        assertThat(disabled.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(disabled.metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(disabled.metrics().prunedByNoMatchCache()).isZero();
    }

    @Test
    void flushMetadataCacheReachesTheWorkers()
    {
        // the no-match facts live on the worker that read the row groups; the procedure runs on the coordinator
        String absentSql = "SELECT count(*) FROM no_filters WHERE device_id = '%s'".formatted(new UUID(0x8123456789abcdefL, 4343));
        assertThat(run(getSession(), absentSql).metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(run(getSession(), absentSql).metrics().prunedByNoMatchCache()).isEqualTo(2);

        // the flush travels with the next split to the worker, which drops its cache before reading it (a worker
        // applies any flush to its whole cache: it does not know the table's folder)
        getQueryRunner().execute("CALL lake.system.flush_metadata_cache(schema_name => 'telemetry', table_name => 'no_filters')");
        MeasuredResult afterFlush = run(getSession(), absentSql);
        assertThat(afterFlush.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(afterFlush.metrics().prunedByNoMatchCache()).isZero();
        assertThat(afterFlush.metrics().rowGroupsRead()).isEqualTo(2);
        assertThat(run(getSession(), absentSql).metrics().prunedByNoMatchCache()).isEqualTo(2);

        getQueryRunner().execute("CALL lake.system.flush_metadata_cache()");
        assertThat(run(getSession(), absentSql).metrics().rowGroupsRead()).isEqualTo(2);

        assertQueryFails("CALL lake.system.flush_metadata_cache(table_name => 'no_filters')", ".*table_name needs schema_name.*");
        assertQueryFails("CALL lake.system.flush_metadata_cache(schema_name => 'telemetry', table_name => 'missing')", ".*Table telemetry.missing not found.*");
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
        Map<String, Predicate<TelemetryRow>> lookups = new LinkedHashMap<>();
        lookups.put("device_id = '%s'".formatted(target.deviceId()), row -> row.deviceId().equals(target.deviceId()));
        lookups.put("seq = %d".formatted(target.seq()), row -> row.seq() == target.seq());
        lookups.put("reading = DOUBLE '%s'".formatted(target.reading()), row -> row.reading() == target.reading());
        lookups.put("small = SMALLINT '%d'".formatted(target.small()), row -> row.small() == target.small());
        lookups.put("code IN (%d, 7)".formatted(target.code()), row -> row.code() == target.code() || row.code() == 7);
        lookups.put("price = DECIMAL '%s'".formatted(target.price().toPlainString()), row -> row.price().equals(target.price()));
        lookups.put("amount = DECIMAL '%s'".formatted(target.amount().toPlainString()), row -> row.amount().equals(target.amount()));
        lookups.put("day = DATE '%s'".formatted(target.day()), row -> row.day().equals(target.day()));
        lookups.put("event_ts = TIMESTAMP '%s'".formatted(target.eventTs().format(timestamp)), row -> row.eventTs().equals(target.eventTs()));
        String utc = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(target.eventTsMillisUtc()));
        lookups.put("event_ts_utc = TIMESTAMP '%s UTC'".formatted(utc), row -> row.eventTsMillisUtc() == target.eventTsMillisUtc());
        lookups.put("tag = UUID '%s'".formatted(target.tag()), row -> row.tag().equals(target.tag()));
        lookups.put("ratio = REAL '%s'".formatted(target.ratio()), row -> row.ratio() == target.ratio());
        lookups.put("payload = X'%s'".formatted(HexFormat.of().formatHex(target.payload())), row -> Arrays.equals(row.payload(), target.payload()));
        lookups.put("note IS NULL OR note = 'x'", row -> row.note() == null || row.note().equals("x"));
        for (var lookup : lookups.entrySet()) {
            String sql = "SELECT seq FROM events WHERE " + lookup.getKey();
            Set<Long> expected = oracle(lookup.getValue()).stream().map(TelemetryRow::seq).collect(Collectors.toSet());
            long holding = rowGroupsHolding(lookup.getValue());
            MeasuredResult first = run(memoOnly, sql);
            assertThat(first.seqs(0)).as(lookup.getKey()).isEqualTo(expected).isNotEmpty();
            MeasuredResult second = run(memoOnly, sql);
            assertThat(second.seqs(0)).as(lookup.getKey()).isEqualTo(expected);
            assertThat(second.metrics().rowGroupsRead()).as(lookup.getKey()).isEqualTo(holding);
            assertThat(second.metrics().prunedByNoMatchCache()).as(lookup.getKey()).isEqualTo(ROW_GROUPS - holding);
        }
    }
}
