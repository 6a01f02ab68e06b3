package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;

import static io.parquetbloom.testing.TestingLake.tableKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What catalog metadata costs in S3 requests: a table handle needs the table's folder, never a listing of its files;
 * {@code information_schema.columns} reads each table's newest footer once.
 */
final class TestMetadataRequests
        extends AbstractTestQueryFramework
{
    private static final int TABLES = 12;
    private static final int DATA_COLUMNS = 15;

    private CountingProxy proxy;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("metadata"));
        Path work = s3.work();
        TestingLake lake = new TestingLake();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, work);
            byte[] file = TestingLake.eventsFileBytes(work, "small.parquet", lake.events().subList(0, 100));
            for (int i = 0; i < TABLES; i++) {
                // two files per table: only the first one's footer gives the schema
                TestingLake.upload(client, file, tableKey("many", "t" + i, "part-00000.parquet"));
                TestingLake.upload(client, file, tableKey("many", "t" + i, "part-00001.parquet"));
            }
        }
        String endpoint = s3.endpoint();
        proxy = closeAfterClass(CountingProxy.inFrontOf(endpoint, 0));
        return ParquetBloomQueryRunner.builder().withEndpoint(proxy.endpoint()).build();
    }

    @Test
    void tableHandleListsFoldersNotFiles()
    {
        proxy.reset();
        assertQueryFails("DROP TABLE many.t0", ".*does not support dropping tables.*");
        // the root (to find the schema folder) and the schema (to find the table folder)
        assertThat(proxy.counts()).isEqualTo(new CountingProxy.Counts(0, 0, 2, 0));
    }

    @Test
    void informationSchemaReadsOneFooterPerTable()
    {
        proxy.reset();
        assertThat(computeScalar("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'many'")).isEqualTo((long) TABLES * DATA_COLUMNS);
        CountingProxy.Counts counts = proxy.counts();
        // one tail read per table, whatever its number of files
        assertThat(counts.gets()).isEqualTo(TABLES);
        // root, schema, then per table its folder lookup (root, schema) and its listing
        assertThat(counts.lists()).isEqualTo(2 + TABLES * 3L);
    }
}
