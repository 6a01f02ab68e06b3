package io.parquetbloom.tests;

import io.trino.testing.MaterializedResult;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lake as Trino sees it: schemas, tables, columns and partition types, read-only, metrics in plans, and a
 * rewritten object never answered from stale metadata.
 */
final class TestLakeMetadata
        extends AbstractLakeQueryTest
{
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
        Result result = run(getSession(), "SELECT count(*), min(h) FROM by_date WHERE dt = DATE '2024-01-02'");
        assertThat(result.rows().getMaterializedRows().getFirst().getFields()).containsExactly(200L, 14L);
        assertThat(result.metrics().rowGroupsTotal()).isEqualTo(1);
        assertThat(computeScalar("SELECT count(*) FROM by_date WHERE h = 3")).isEqualTo(100L);
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
