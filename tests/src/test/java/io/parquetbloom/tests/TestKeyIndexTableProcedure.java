package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
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
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code ALTER TABLE ... EXECUTE create_key_index} and {@code drop_key_index} on a cluster of a coordinator, which runs
 * no splits, and two workers: the build is planned and published by the coordinator, its files read by the workers,
 * one segment each, and the index answers as the one {@code CALL create_key_index} builds.
 */
final class TestKeyIndexTableProcedure
        extends AbstractTestQueryFramework
{
    private static final int FILES = 4;
    private static final int WORKERS = 2;

    private final TestingLake lake = new TestingLake();
    private S3Client client;
    private CountingProxy proxy;
    private Path work;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("key-index-procedure"));
        work = s3.work();
        client = closeAfterClass(s3.client());
        lake.writeEvents(client, work);
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                .withWorkers(WORKERS)
                .withCatalogProperty("key-index.orphan-retention", "0s")
                .build();
    }

    @Test
    void theClusterBuildsWhatTheProcedureBuilds()
    {
        copyEvents("by_cluster", FILES);
        copyEvents("by_call", FILES);
        Map<String, Long> built = execute("ALTER TABLE by_cluster EXECUTE create_key_index(column => 'device_id')");
        assertThat(built).containsEntry("files_read", (long) FILES).containsEntry("files_not_indexed", 0L).containsEntry("segments", (long) WORKERS);
        assertThat(built.get("entries")).isPositive();
        assertThat(segments("by_cluster", "device_id")).hasSize(WORKERS);
        getQueryRunner().execute("CALL lake.system.create_key_index('telemetry', 'by_call', 'device_id')");

        for (int row : List.of(0, 31_415, lake.events().size() - 1)) {
            TelemetryRow target = lake.events().get(row);
            assertSameAnswers("device_id = '%s'".formatted(target.deviceId()), lake.events().stream().filter(event -> event.deviceId().equals(target.deviceId())).map(TelemetryRow::seq).collect(Collectors.toSet()));
        }
        assertSameAnswers("device_id = '%s'".formatted(new UUID(0x8123456789abcdefL, 7)), Set.of());
    }

    @Test
    void aRefreshReadsNewFilesOnlyAndDropRemovesTheIndex()
    {
        copyEvents("refreshed", 2);
        assertThat(execute("ALTER TABLE refreshed EXECUTE create_key_index(column => 'seq')")).containsEntry("files_read", 2L).containsEntry("segments", 2L);
        assertThat(execute("ALTER TABLE refreshed EXECUTE create_key_index(column => 'seq')")).containsEntry("files_read", 0L).containsEntry("segments", 2L);
        TestingLake.upload(client, work.resolve("events-2.parquet"), TestingLake.tableKey("telemetry", "refreshed", "part-00002.parquet"));
        assertThat(execute("ALTER TABLE refreshed EXECUTE create_key_index(column => 'seq')")).containsEntry("files_read", 1L).containsEntry("segments", 3L);
        TelemetryRow target = lake.events().get(TestingLake.ROWS_PER_ROW_GROUP * TestingLake.ROW_GROUPS_PER_FILE * 2 + 5);
        MeasuredResult indexed = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT seq FROM refreshed WHERE seq = %d".formatted(target.seq()));
        assertThat(indexed.seqs()).containsExactly(target.seq());
        assertThat(indexed.metrics().get("filesCoveredByKeyIndex")).isEqualTo(3);

        assertThat(execute("ALTER TABLE refreshed EXECUTE drop_key_index(column => 'seq')")).isEmpty();
        assertThat(keys("refreshed")).isEmpty();
        assertThat(MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT seq FROM refreshed WHERE seq = %d".formatted(target.seq())).metrics().get("filesCoveredByKeyIndex")).isZero();
    }

    @Test
    void badStatementsNameWhatIsWrong()
    {
        copyEvents("refused", 1);
        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE refused EXECUTE create_key_index"))
                .hasMessageContaining("create_key_index needs the column to index");
        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE refused EXECUTE create_key_index(column => 'no_such_column')"))
                .hasMessageContaining("no_such_column");
        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE refused EXECUTE create_key_index(column => 'device_id') WHERE seq = 1"))
                .hasMessageContaining("takes no WHERE clause");
        assertThatThrownBy(() -> getQueryRunner().execute("ALTER TABLE refused EXECUTE rebuild_everything(column => 'device_id')"))
                .hasMessageContaining("REBUILD_EVERYTHING");
        Session retried = Session.builder(getSession()).setSystemProperty("retry_policy", "QUERY").build();
        assertThatThrownBy(() -> getQueryRunner().execute(retried, "ALTER TABLE refused EXECUTE create_key_index(column => 'device_id')"))
                .hasMessageContaining("does not run with a retry policy");
        assertThat(keys("refused")).isEmpty();
    }

    /**
     * A refresh cancelled, or past {@code query_max_run_time}, while a worker reads: the engine closes the workers'
     * page sources, their builds stop (a build that ended first deletes its segment), and the coordinator publishes
     * nothing.
     */
    @Test
    void cancelledOrTimedOutBuildsPublishNothing()
    {
        copyEvents("cancelled", 1);
        execute("ALTER TABLE cancelled EXECUTE create_key_index(column => 'device_id')");
        List<String> before = keys("cancelled");
        copyEvents("cancelled", FILES);
        // the coordinator knows the table's schema, and the index's type is known: the first read of a new file's key
        // column is a worker's
        assertThat(computeScalar("SELECT count(*) FROM cancelled")).isEqualTo((long) lake.events().size());
        proxy.reset();
        proxy.onceBefore(request -> isNewFileRead(request, "cancelled"), () -> {
            cancelRunning("cancelled EXECUTE create_key_index");
            sleepUninterruptibly(1_000, MILLISECONDS);
        });
        assertThatThrownBy(() -> execute("ALTER TABLE cancelled EXECUTE create_key_index(column => 'device_id')"))
                .hasMessageContaining("canceled");
        assertPublishedNothing("cancelled", before);

        Session limited = Session.builder(getSession()).setSystemProperty("query_max_run_time", "2s").build();
        proxy.reset();
        proxy.onceBefore(request -> isNewFileRead(request, "cancelled"), () -> sleepUninterruptibly(5_000, MILLISECONDS));
        assertThatThrownBy(() -> getQueryRunner().execute(limited, "ALTER TABLE cancelled EXECUTE create_key_index(column => 'device_id')"))
                .hasMessageContaining("maximum");
        assertPublishedNothing("cancelled", before);
        // what the cancelled builds did not do, the next one does
        assertThat(execute("ALTER TABLE cancelled EXECUTE create_key_index(column => 'device_id')")).containsEntry("files_read", (long) FILES - 1);
    }

    private static boolean isNewFileRead(CountingProxy.Request request, String table)
    {
        return request.method().equals("GET") && request.target().startsWith(TestingLake.tableKey("telemetry", table, "part-")) && !request.target().contains("part-00000");
    }

    private void cancelRunning(String sqlPart)
    {
        RunningQueries.cancelTheOne(getDistributedQueryRunner(), sqlPart);
    }

    /**
     * Once the stopped build's requests have settled: the pointer not written, the index's objects as they were.
     */
    private void assertPublishedNothing(String table, List<String> before)
    {
        assertThat(proxy.awaitQuiet(60_000)).as("the build kept reading").isTrue();
        // a split that uploaded its segment before the engine closed it deletes it then
        assertThat(proxy.requests().stream().filter(request -> request.method().equals("PUT") && request.target().endsWith("/_pointer"))).isEmpty();
        assertThat(keys(table)).containsExactlyInAnyOrderElementsOf(before);
    }

    private void assertSameAnswers(String predicate, Set<Long> expected)
    {
        String sql = "SELECT seq FROM %s WHERE " + predicate;
        MeasuredResult byCluster = MeasuredResult.run(getDistributedQueryRunner(), getSession(), sql.formatted("by_cluster"));
        MeasuredResult byCall = MeasuredResult.run(getDistributedQueryRunner(), getSession(), sql.formatted("by_call"));
        assertThat(byCluster.seqs()).as(predicate).isEqualTo(expected);
        assertThat(byCall.seqs()).as(predicate).isEqualTo(expected);
        assertThat(byCluster.metrics().get("filesCoveredByKeyIndex")).as(predicate).isEqualTo(FILES);
        assertThat(byCluster.metrics().get("keyIndexUnusable")).as(predicate).isZero();
        // both indexes name the same row groups
        assertThat(byCluster.metrics().get("rowGroupsPrunedByKeyIndex")).as(predicate).isEqualTo(byCall.metrics().get("rowGroupsPrunedByKeyIndex"));
    }

    private Map<String, Long> execute(String sql)
    {
        Map<String, Long> metrics = new HashMap<>();
        for (MaterializedRow row : getQueryRunner().execute(getSession(), sql).getMaterializedRows()) {
            metrics.put((String) row.getField(0), (Long) row.getField(1));
        }
        return metrics;
    }

    private void copyEvents(String table, int files)
    {
        for (int file = 0; file < files; file++) {
            TestingLake.upload(client, work.resolve("events-%d.parquet".formatted(file)), TestingLake.tableKey("telemetry", table, "part-%05d.parquet".formatted(file)));
        }
    }

    private List<String> segments(String table, String column)
    {
        return keys(table).stream().filter(key -> key.contains("/_key_index/" + column + "/") && key.endsWith(".kidx")).toList();
    }

    private List<String> keys(String table)
    {
        return client.listObjectsV2(request -> request.bucket(TestingLake.BUCKET).prefix(TestingLake.tableKey("telemetry", table, "_key_index/")))
                .contents().stream().map(S3Object::key).toList();
    }
}
