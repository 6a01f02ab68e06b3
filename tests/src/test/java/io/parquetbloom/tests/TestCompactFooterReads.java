package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * On one node that plans and reads (a single-node server), a reader whose columns the compact footer planning kept
 * holds reads with it, with no footer GET, and returns the right rows; one that reads other columns reads the whole
 * footer.
 */
@TestInstance(PER_CLASS)
final class TestCompactFooterReads
{
    private TestingS3 s3;
    private TestingLake lake;
    private CountingProxy proxy;

    @BeforeAll
    void setUp()
            throws Exception
    {
        s3 = TestingS3.start("compact-footers");
        lake = new TestingLake();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, s3.work());
        }
        proxy = CountingProxy.inFrontOf(s3.endpoint(), 0);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        proxy.close();
        s3.close();
    }

    @Test
    void readersUseTheCompactFooterWhereItHoldsTheirColumns()
            throws Exception
    {
        try (DistributedQueryRunner runner = ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                .withWorkers(0)
                .withCoordinatorRunningSplits()
                .withCatalogProperty("no-match-cache.enabled", "false")
                .build()) {
            // planning keeps every file's footer compact, and no whole one: no row group survives
            String absent = new UUID(0x7777_0000_0000_0000L, 1).toString();
            assertThat(runner.execute("SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent)).getOnlyValue()).isEqualTo(0L);

            TelemetryRow target = lake.events().get(5_000);
            List<TelemetryRow> expected = lake.events().stream().filter(row -> row.deviceId().equals(target.deviceId())).toList();
            MaterializedResultWithPlan counted = runner.executeWithPlan(runner.getDefaultSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(target.deviceId()));
            assertThat(counted.result().getOnlyValue()).isEqualTo((long) expected.size());
            QueryMetrics countMetrics = QueryMetrics.of(runner, counted.queryId());
            // every split read with the compact footer: the key column's chunks are all it reads
            assertThat(countMetrics.get("metadataCacheCompactFooterHits")).isPositive();
            assertThat(countMetrics.get("metadataCacheFooterMisses")).isZero();
            assertThat(countMetrics.get("s3PlanningGetRequests")).isZero();

            MaterializedResultWithPlan read = runner.executeWithPlan(runner.getDefaultSession(), "SELECT trace_id, seq FROM events WHERE device_id = '%s'".formatted(target.deviceId()));
            assertThat(read.result().getMaterializedRows().stream().map(MaterializedRow::getFields).toList())
                    .containsExactlyInAnyOrderElementsOf(expected.stream().map(row -> List.<Object>of(row.traceId(), row.seq())).toList());
            QueryMetrics readMetrics = QueryMetrics.of(runner, read.queryId());
            // other columns: the whole footer, read once per file
            assertThat(readMetrics.get("metadataCacheCompactFooterHits")).isZero();
            assertThat(readMetrics.get("metadataCacheFooterMisses")).isEqualTo(countMetrics.get("metadataCacheCompactFooterHits"));
        }
    }
}
