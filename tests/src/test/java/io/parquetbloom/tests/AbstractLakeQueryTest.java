package io.parquetbloom.tests;

import io.parquetbloom.testing.FilterOracle;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * A real Trino (coordinator + worker) over a real S3 server holding the testing lake: {@code telemetry.events}
 * (parquet-java, filters on every column, two region partitions), {@code events_trino} (Trino's writer),
 * {@code no_filters}, {@code keys} and {@code by_date}; results are checked against the generated rows, pruning
 * against {@link FilterOracle} and the page sources' metrics.
 */
abstract class AbstractLakeQueryTest
        extends AbstractTestQueryFramework
{
    protected static final int FILES = 2 * TestingLake.FILES_PER_REGION;
    protected static final int ROW_GROUPS = FILES * TestingLake.ROW_GROUPS_PER_FILE;

    protected final TestingLake lake = new TestingLake();
    protected List<String> joinKeys;
    protected TestingS3 s3;
    protected Path work;
    protected FilterOracle filterOracle;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = closeAfterClass(TestingS3.start("it"));
        work = s3.work();
        try (S3Client client = s3.client()) {
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
            TestingLake.upload(client, "not parquet".getBytes(StandardCharsets.UTF_8), TestingLake.tableKey("telemetry", "by_date", "dt=2024-01-01/h=3/_SUCCESS"));
        }
        filterOracle = FilterOracle.ofTable(s3Client(), TestingLake.BUCKET, "warehouse/telemetry/events/", work);
        return ParquetBloomQueryRunner.builder().withLake(s3).build();
    }

    private S3Client s3Client()
    {
        return closeAfterClass(s3.client());
    }

    protected static long rowGroupsOf(List<TelemetryRow> rows, Predicate<TelemetryRow> predicate)
    {
        long count = 0;
        for (int start = 0; start < rows.size(); start += TestingLake.ROWS_PER_ROW_GROUP) {
            if (rows.subList(start, Math.min(rows.size(), start + TestingLake.ROWS_PER_ROW_GROUP)).stream().anyMatch(predicate)) {
                count++;
            }
        }
        return count;
    }
    protected Session noPruning()
    {
        return ParquetBloomQueryRunner.allPruningOff(getSession(), "lake");
    }
    protected List<TelemetryRow> oracle(Predicate<TelemetryRow> predicate)
    {
        return lake.events().stream().filter(predicate).toList();
    }
    protected long rowGroupsHolding(Predicate<TelemetryRow> predicate)
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
    protected MeasuredResult run(Session session, String sql)
    {
        return MeasuredResult.run(getDistributedQueryRunner(), session, sql);
    }
}
