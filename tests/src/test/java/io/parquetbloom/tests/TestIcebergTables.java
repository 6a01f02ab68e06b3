package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Iceberg tables written by Trino's own Iceberg connector, in the same query runner, read by this connector through
 * their metadata: every answer equals the Iceberg connector's on the same table (its live rows only, after rewrites
 * that leave dead files in the data folder, and after schema evolution), and what is not read yet fails naming it.
 */
final class TestIcebergTables
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA_LOCATION = TestingLake.ROOT + "ice";

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("iceberg"));
        QueryRunner runner = ParquetBloomQueryRunner.builder().withLake(s3).build();
        runner.installPlugin(new IcebergPlugin());
        runner.createCatalog("iceberg", "iceberg", icebergProperties(s3.endpoint()));
        runner.execute("CREATE SCHEMA iceberg.ice WITH (location = '%s')".formatted(SCHEMA_LOCATION));
        return runner;
    }

    private static Map<String, String> icebergProperties(String endpoint)
    {
        return ImmutableMap.<String, String>builder()
                .put("iceberg.catalog.type", "TESTING_FILE_METASTORE")
                .put("hive.metastore.catalog.dir", "s3://" + TestingLake.BUCKET + "/iceberg-metastore")
                // the table's folder is <schema>/<table>, where this connector's layout finds it
                .put("iceberg.unique-table-location", "false")
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", endpoint)
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", S3ProxyProcess.ACCESS_KEY)
                .put("s3.aws-secret-key", S3ProxyProcess.SECRET_KEY)
                .buildOrThrow();
    }

    @Test
    void readsTheLiveRowsOfATableWithManySnapshots()
    {
        execute("CREATE TABLE iceberg.ice.events (id bigint, device_id varchar, reading double, day date) WITH (format_version = 2, parquet_bloom_filter_columns = ARRAY['device_id'])");
        for (int batch = 0; batch < 4; batch++) {
            execute("INSERT INTO iceberg.ice.events SELECT n, 'dev-' || CAST(n AS varchar), n / 10.0, DATE '2026-01-01' + INTERVAL '1' DAY * (n %% 5) FROM UNNEST(sequence(%d, %d)) AS t(n)".formatted(batch * 100, batch * 100 + 99));
        }
        assertSameAnswers("events");
        // OPTIMIZE rewrites the four files into one: the old files stay in the data folder, dead
        execute("ALTER TABLE iceberg.ice.events EXECUTE optimize");
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.events")).isEqualTo(400L);
        assertSameAnswers("events");
        // the snapshot read is the current one
        assertThat(computeScalar("SELECT value FROM lake.ice.\"events$properties\" WHERE key = 'iceberg.snapshot_id'"))
                .isEqualTo(String.valueOf(computeScalar("SELECT snapshot_id FROM iceberg.ice.\"events$snapshots\" ORDER BY committed_at DESC LIMIT 1")));
    }

    @Test
    void columnsAreMatchedByFieldId()
    {
        execute("CREATE TABLE iceberg.ice.evolving (id bigint, name varchar, small integer, gone varchar) WITH (format_version = 2)");
        execute("INSERT INTO iceberg.ice.evolving VALUES (1, 'one', 10, 'a'), (2, 'two', 20, 'b')");
        execute("ALTER TABLE iceberg.ice.evolving RENAME COLUMN name TO label");
        execute("ALTER TABLE iceberg.ice.evolving ALTER COLUMN small SET DATA TYPE bigint");
        execute("ALTER TABLE iceberg.ice.evolving DROP COLUMN gone");
        execute("ALTER TABLE iceberg.ice.evolving ADD COLUMN gone varchar");
        execute("ALTER TABLE iceberg.ice.evolving ADD COLUMN extra double");
        execute("INSERT INTO iceberg.ice.evolving VALUES (3, 'three', 30000000000, 'c', 1.5)");
        // the renamed column reads its old files, the re-added one reads NULL from them
        assertThat(computeActual("SELECT id, label, small, gone, extra FROM lake.ice.evolving ORDER BY id").getMaterializedRows())
                .isEqualTo(computeActual("SELECT id, label, small, gone, extra FROM iceberg.ice.evolving ORDER BY id").getMaterializedRows());
        assertThat(computeActual("SELECT id FROM lake.ice.evolving WHERE gone IS NULL ORDER BY id").getOnlyColumnAsSet()).containsExactly(1L, 2L);
        assertThat(computeScalar("SELECT label FROM lake.ice.evolving WHERE id = 1")).isEqualTo("one");
        assertThat(computeScalar("SELECT small FROM lake.ice.evolving WHERE small > 20000000000")).isEqualTo(30000000000L);
    }

    @Test
    void partitionedTablesAndPartitionEvolution()
    {
        execute("CREATE TABLE iceberg.ice.parted (id bigint, region varchar, ts timestamp(6)) WITH (partitioning = ARRAY['region'])");
        execute("INSERT INTO iceberg.ice.parted VALUES (1, 'eu', TIMESTAMP '2026-01-01 10:00:00'), (2, 'us', TIMESTAMP '2026-01-02 11:00:00')");
        execute("ALTER TABLE iceberg.ice.parted SET PROPERTIES partitioning = ARRAY['region', 'day(ts)']");
        execute("INSERT INTO iceberg.ice.parted VALUES (3, 'eu', TIMESTAMP '2026-01-03 12:00:00'), (4, 'ap', TIMESTAMP '2026-01-04 13:00:00')");
        assertSameAnswers("parted");
        assertThat(computeActual("SELECT id FROM lake.ice.parted WHERE region = 'eu'").getOnlyColumnAsSet()).containsExactlyInAnyOrder(1L, 3L);
    }

    @Test
    void deletesAreRefusedNamingThem()
    {
        execute("CREATE TABLE iceberg.ice.deleted_v2 (id bigint, v varchar) WITH (format_version = 2)");
        execute("INSERT INTO iceberg.ice.deleted_v2 VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        execute("DELETE FROM iceberg.ice.deleted_v2 WHERE id = 2");
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ice.deleted_v2"))
                .hasMessageContaining("Iceberg table ice.deleted_v2 uses position deletes");
        execute("CREATE TABLE iceberg.ice.deleted_v3 (id bigint, v varchar) WITH (format_version = 3)");
        execute("INSERT INTO iceberg.ice.deleted_v3 VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        execute("DELETE FROM iceberg.ice.deleted_v3 WHERE id = 2");
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ice.deleted_v3"))
                .hasMessageContaining("Iceberg table ice.deleted_v3 uses deletion vectors");
    }

    @Test
    void anEmptyTableHasItsColumnsAndNoRows()
    {
        execute("CREATE TABLE iceberg.ice.empty (id bigint, v varchar)");
        assertThat(computeActual("SELECT column_name FROM lake.information_schema.columns WHERE table_schema = 'ice' AND table_name = 'empty'").getOnlyColumnAsSet()).containsExactlyInAnyOrder("id", "v");
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.empty")).isEqualTo(0L);
    }

    private void assertSameAnswers(String table)
    {
        List<String> queries = List.of(
                "SELECT * FROM %s",
                "SELECT count(*), count(DISTINCT id) FROM %s",
                "SELECT * FROM %s WHERE id = 17",
                "SELECT * FROM %s WHERE id IN (1, 3, 150, 399, 1000)",
                "SELECT * FROM %s WHERE id > 250");
        for (String query : queries) {
            MaterializedResult expected = computeActual(query.formatted("iceberg.ice." + table));
            MaterializedResult actual = computeActual(query.formatted("lake.ice." + table));
            assertThat(actual.getMaterializedRows()).as(query.formatted(table)).containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
        }
    }

    private void execute(String sql)
    {
        getQueryRunner().execute(sql);
    }
}
