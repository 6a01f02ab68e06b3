package io.parquetbloom.tests;

import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.trino.sql.planner.optimizations.PlanNodeSearcher;
import io.trino.sql.planner.plan.JoinNode;
import io.trino.sql.planner.plan.TableScanNode;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * The lake as Trino sees it: schemas, tables, columns and partition types, read-only, metrics in plans, and a
 * rewritten object never answered from stale metadata.
 */
final class TestLakeMetadata
        extends AbstractLakeQueryTest
{
    @Test
    void showStatsComesFromFootersAndFilters()
    {
        MaterializedResult stats = computeActual("SHOW STATS FOR events");
        Map<String, MaterializedRow> byColumn = new HashMap<>();
        for (MaterializedRow row : stats.getMaterializedRows()) {
            byColumn.put((String) row.getField(0), row);
        }
        List<TelemetryRow> events = lake.events();
        // the last row, without a column name, holds the row count
        assertThat(byColumn.get(null).getField(4)).isEqualTo((double) events.size());

        long devices = events.stream().map(TelemetryRow::deviceId).distinct().count();
        assertThat((Double) byColumn.get("device_id").getField(2)).isCloseTo(devices, withinPercentage(5));
        assertThat(byColumn.get("device_id").getField(3)).isEqualTo(0.0);
        // unique per row: grows with the rows
        assertThat((Double) byColumn.get("trace_id").getField(2)).isCloseTo(events.size(), withinPercentage(5));
        double nullNotes = events.stream().filter(row -> row.note() == null).count() / (double) events.size();
        assertThat((Double) byColumn.get("note").getField(3)).isCloseTo(nullNotes, within(1e-9));
        // min/max where the footer's bytes mean the table's type
        assertThat(Long.parseLong((String) byColumn.get("code").getField(5))).isEqualTo(events.stream().mapToInt(TelemetryRow::code).min().orElseThrow());
        assertThat(Long.parseLong((String) byColumn.get("code").getField(6))).isEqualTo(events.stream().mapToInt(TelemetryRow::code).max().orElseThrow());
        // a range is a pair of doubles: a bigint near 2^63 comes back rounded
        assertThat(Double.parseDouble((String) byColumn.get("seq").getField(6))).isEqualTo((double) events.stream().mapToLong(TelemetryRow::seq).max().orElseThrow());
        // decimals, timestamps and UUIDs get no range
        assertThat(byColumn.get("price").getField(5)).isNull();
        assertThat(byColumn.get("tag").getField(5)).isNull();
        // partition columns from the listing
        assertThat(byColumn.get("region").getField(2)).isEqualTo(2.0);
    }

    @Test
    void joinBuildsOnTheSmallTableWrittenFirst()
    {
        // written with the small table on the probe side: the statistics make the optimizer flip it
        MaterializedResultWithPlan result = getDistributedQueryRunner().executeWithPlan(getSession(),
                "SELECT count(*) FROM keys k JOIN events e ON k.device_id = e.device_id");
        JoinNode join = (JoinNode) PlanNodeSearcher.searchFrom(result.queryPlan().orElseThrow().getRoot()).whereIsInstanceOfAny(JoinNode.class).findOnlyElement();
        TableScanNode probe = (TableScanNode) PlanNodeSearcher.searchFrom(join.getLeft()).whereIsInstanceOfAny(TableScanNode.class).findOnlyElement();
        TableScanNode build = (TableScanNode) PlanNodeSearcher.searchFrom(join.getRight()).whereIsInstanceOfAny(TableScanNode.class).findOnlyElement();
        assertThat(probe.getTable().connectorHandle().toString()).contains("events");
        assertThat(build.getTable().connectorHandle().toString()).contains("keys");
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
    void partitionColumnTypesAreInferred()
    {
        MaterializedResult describe = computeActual("DESCRIBE by_date");
        List<String> columns = describe.getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList();
        assertThat(columns).endsWith("dt date", "h bigint");
        assertThat(computeScalar("SELECT count(*) FROM by_date")).isEqualTo(300L);
        MeasuredResult result = run(getSession(), "SELECT count(*), min(h) FROM by_date WHERE dt = DATE '2024-01-02'");
        assertThat(result.rows().getMaterializedRows().getFirst().getFields()).containsExactly(200L, 14L);
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(1);
        assertThat(computeScalar("SELECT count(*) FROM by_date WHERE h = 3")).isEqualTo(100L);
    }

    /**
     * Every table has the hidden columns {@code $path}, {@code $file_size}, {@code $file_modified_time} and
     * {@code $partition}, as Trino's Hive connector has them; {@code SELECT *} leaves them out, and a predicate on
     * {@code $path} plans that file alone, before any footer is read.
     */
    @Test
    void hiddenColumnsNameTheFileARowCameFrom()
    {
        MaterializedResult rows = computeActual("SELECT dt, h, \"$path\", \"$partition\", \"$file_size\", \"$file_modified_time\" FROM by_date");
        assertThat(rows.getRowCount()).isEqualTo(300);
        for (MaterializedRow row : rows.getMaterializedRows()) {
            String partition = (String) row.getField(3);
            assertThat(partition).startsWith("dt=" + row.getField(0) + "/h=");
            assertThat((String) row.getField(2)).startsWith(TestingLake.ROOT).contains("/by_date/" + partition + "/");
            assertThat((Long) row.getField(4)).isPositive();
            assertThat(row.getField(5)).isNotNull();
        }
        assertThat(computeActual("SELECT * FROM by_date").getTypes()).hasSize(computeActual("DESCRIBE by_date").getRowCount());
        assertThat(computeActual("SELECT DISTINCT \"$partition\" FROM events").getOnlyColumnAsSet()).containsExactlyInAnyOrder("region=eu", "region=us");
        // an unpartitioned table's files have no partition
        assertThat(computeActual("SELECT DISTINCT \"$partition\" FROM keys").getOnlyColumnAsSet()).containsOnlyNulls();

        String path = (String) computeScalar("SELECT min(\"$path\") FROM by_date");
        long inFile = (Long) computeScalar("SELECT count(*) FROM by_date WHERE \"$path\" = '%s'".formatted(path));
        MeasuredResult byPath = run(getSession(), "SELECT count(*) FROM by_date WHERE \"$path\" = '%s'".formatted(path));
        assertThat(byPath.rows().getOnlyValue()).isEqualTo(inFile);
        assertThat(inFile).isPositive().isLessThan(300L);
        // the file alone, of the table's two
        assertThat(byPath.metrics().rowGroupsTotal()).isEqualTo(1);
        assertThat(computeScalar("SELECT count(*) FROM by_date WHERE \"$path\" = 's3://elsewhere/none.parquet'")).isEqualTo(0L);
    }

    @Test
    void metricsAppearInExplainAnalyze()
    {
        String plan = (String) computeScalar("EXPLAIN ANALYZE VERBOSE SELECT count(*) FROM events WHERE device_id = '%s'".formatted(lake.devices().get(3)));
        assertThat(plan).contains("rowGroupsTotal", "rowGroupsPrunedByStatistics", "rowGroupsPrunedByBloomFilter", "bloomFiltersUnusable", "bloomFilterBytesRead", "s3GetRequests", "s3BytesRead");
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
}
