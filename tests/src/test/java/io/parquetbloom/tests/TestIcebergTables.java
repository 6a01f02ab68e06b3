package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import com.google.common.collect.Multisets;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.IcebergFixture;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.parquetbloom.testing.TrinoIcebergCatalog;
import io.trino.Session;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static com.google.common.collect.ImmutableMultiset.toImmutableMultiset;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
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

    private CountingProxy proxy;
    private TestingS3 s3;
    private int catalogs;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = closeAfterClass(TestingS3.start("iceberg"));
        QueryRunner runner = ParquetBloomQueryRunner.builder().withLake(s3).build();
        runner.installPlugin(new IcebergPlugin());
        runner.createCatalog("iceberg", "iceberg", icebergProperties(s3.endpoint()));
        runner.execute("CREATE SCHEMA iceberg.ice WITH (location = '%s')".formatted(SCHEMA_LOCATION));
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return runner;
    }

    private static Map<String, String> icebergProperties(String endpoint)
    {
        return TrinoIcebergCatalog.properties(endpoint);
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
        // read once before the schema changes: nothing of the old schema may be used after them
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.evolving WHERE gone = 'a'")).isEqualTo(1L);
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
        // the renamed column constrained again and again: later plans prune and read with the compact footers the first
        // kept, in which the older file names that column "name"; a range the manifests do not judge (varchar), which
        // both files' statistics exclude (the older file's by its chunk of "name")
        for (int query = 0; query < 3; query++) {
            MeasuredResult range = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT id FROM lake.ice.evolving WHERE label > 'u'");
            assertThat(range.rows().getRowCount()).isZero();
            assertThat(range.metrics().prunedByStatistics()).as("query %d", query).isEqualTo(2);
            assertThat(computeActual("SELECT id, label FROM lake.ice.evolving WHERE label IN ('two', 'three')").getMaterializedRows())
                    .containsExactlyInAnyOrderElementsOf(computeActual("SELECT id, label FROM iceberg.ice.evolving WHERE label IN ('two', 'three')").getMaterializedRows());
            assertThat(computeActual("SELECT count(*) FROM lake.ice.evolving WHERE label = 'one'").getOnlyValue()).isEqualTo(1L);
        }
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

    /**
     * DELETE, UPDATE and MERGE as Trino writes them: position delete files in format v2, deletion vectors in v3. No
     * deleted row is returned, by any path: whole row groups, lookups, counts, a LIMIT.
     */
    @Test
    void deletedRowsAreNeverReturned()
    {
        for (int formatVersion : new int[] {2, 3}) {
            String table = "changed_v" + formatVersion;
            execute("CREATE TABLE iceberg.ice.%s (id bigint, device_id varchar, v double) WITH (format_version = %d, parquet_bloom_filter_columns = ARRAY['device_id'])".formatted(table, formatVersion));
            execute("INSERT INTO iceberg.ice.%s SELECT n, 'dev-' || CAST(n AS varchar), n * 1.5 FROM UNNEST(sequence(0, 499)) AS t(n)".formatted(table));
            execute("INSERT INTO iceberg.ice.%s SELECT n, 'dev-' || CAST(n AS varchar), n * 1.5 FROM UNNEST(sequence(500, 999)) AS t(n)".formatted(table));
            execute("DELETE FROM iceberg.ice.%s WHERE id %% 7 = 3".formatted(table));
            execute("UPDATE iceberg.ice.%s SET v = -1 WHERE id BETWEEN 100 AND 120".formatted(table));
            execute(("MERGE INTO iceberg.ice.%s t USING (VALUES (17, 'dev-17'), (2000, 'dev-2000')) AS s(id, device_id) ON t.id = s.id " +
                    "WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.device_id, 0.0)").formatted(table));
            execute("DELETE FROM iceberg.ice.%s WHERE id = 501".formatted(table));
            assertSameAnswers(table);
            for (String sql : List.of(
                    "SELECT * FROM %s WHERE device_id = 'dev-10'",
                    "SELECT * FROM %s WHERE device_id IN ('dev-3', 'dev-17', 'dev-501', 'dev-502', 'dev-2000')",
                    "SELECT count(*) FROM %s",
                    "SELECT count(*) FROM %s WHERE v = -1",
                    "SELECT id FROM %s WHERE id BETWEEN 95 AND 125")) {
                assertThat(computeActual(sql.formatted("lake.ice." + table)).getMaterializedRows()).as(sql)
                        .containsExactlyInAnyOrderElementsOf(computeActual(sql.formatted("iceberg.ice." + table)).getMaterializedRows());
            }
            // a LIMIT is met from live rows only
            assertThat(computeActual("SELECT id FROM lake.ice.%s LIMIT 800".formatted(table)).getRowCount()).isEqualTo(800);
            // of the rows deleted by id, only the one MERGE inserted again (17) is live
            assertThat(computeActual("SELECT id FROM lake.ice.%s WHERE id %% 7 = 3".formatted(table)).getOnlyColumnAsSet()).containsExactly(17L);
        }
    }

    /**
     * The key index of an Iceberg table covers the live files of the snapshot it was built from, by path and size (a
     * format never rewrites a file at its path): a lookup plans from it only the files live in the snapshot it reads,
     * deleted rows are still dropped, files of later snapshots are read as uncovered until a refresh indexes them, and
     * a time-travel read uses it for the files of its own snapshot.
     */
    @Test
    void theKeyIndexCoversTheLiveFilesOfTheSnapshotRead()
    {
        execute("CREATE TABLE iceberg.ice.indexed (id bigint, device_id varchar, v double) WITH (format_version = 3, parquet_bloom_filter_columns = ARRAY['device_id'])");
        for (int batch = 0; batch < 4; batch++) {
            execute("INSERT INTO iceberg.ice.indexed SELECT n, 'dev-' || CAST(n AS varchar), n * 0.5 FROM UNNEST(sequence(%d, %d)) AS t(n)".formatted(batch * 500, batch * 500 + 499));
        }
        execute("DELETE FROM iceberg.ice.indexed WHERE id % 10 = 3");
        long indexedSnapshot = currentSnapshot("indexed");
        getQueryRunner().execute("CALL lake.system.create_key_index('ice', 'indexed', 'device_id')");
        String lookup = "SELECT * FROM %s WHERE device_id IN ('dev-3', 'dev-13', 'dev-42', 'dev-1500', 'dev-1999', 'dev-absent')";
        // the manifests' bounds of device_id leave three of the four files (dev-500 to dev-999 holds none of the keys)
        MeasuredResult indexed = assertSameLookup(lookup, "");
        assertThat(indexed.metrics().get("filesCoveredByKeyIndex")).isEqualTo(3);
        assertThat(indexed.metrics().get("filesUncovered")).isZero();
        assertThat(indexed.metrics().get("keyIndexUnusable")).isZero();
        // dev-3 and dev-13 were deleted: the index names their files, the deletion vectors drop them
        assertThat(indexed.rows().getMaterializedRows()).extracting(row -> row.getField(1)).containsExactlyInAnyOrder("dev-42", "dev-1500", "dev-1999");

        // OPTIMIZE leaves new files live and the indexed ones dead: the index covers nothing the snapshot holds
        execute("ALTER TABLE iceberg.ice.indexed EXECUTE optimize");
        execute("INSERT INTO iceberg.ice.indexed VALUES (5000, 'dev-42', 1.0)");
        MeasuredResult optimized = assertSameLookup(lookup, "");
        assertThat(optimized.metrics().get("filesCoveredByKeyIndex")).isZero();
        long live = optimized.metrics().get("filesUncovered");
        assertThat(live).isGreaterThanOrEqualTo(2);
        assertThat(optimized.rows().getRowCount()).isEqualTo(4);
        // the snapshot it was built from is still covered, read as of that version
        MeasuredResult travelled = assertSameLookup(lookup, " FOR VERSION AS OF " + indexedSnapshot);
        assertThat(travelled.metrics().get("filesCoveredByKeyIndex")).isEqualTo(3);

        // a refresh (by the table procedure) indexes the live files the index lacks; the dead ones stay out of every plan
        getQueryRunner().execute("ALTER TABLE lake.ice.indexed EXECUTE create_key_index(column => 'device_id')");
        MeasuredResult refreshed = assertSameLookup(lookup, "");
        assertThat(refreshed.metrics().get("filesCoveredByKeyIndex")).isEqualTo(live);
        assertThat(refreshed.metrics().get("filesUncovered")).isZero();
        MeasuredResult single = assertSameLookup("SELECT * FROM %s WHERE device_id = 'dev-777'", "");
        assertThat(single.metrics().get("filesCoveredByKeyIndex")).isPositive();
        assertThat(single.metrics().get("filesUncovered")).isZero();
        assertThat(computeScalar("SELECT value FROM lake.ice.\"indexed$properties\" WHERE key = 'key_index_location'")).asString().endsWith("/ice/indexed/_key_index/");
        getQueryRunner().execute("CALL lake.system.drop_key_index('ice', 'indexed', 'device_id')");
        assertThat(assertSameLookup(lookup, "").metrics().get("filesCoveredByKeyIndex")).isZero();
    }

    /**
     * {@code register_table}'s {@code metadata_file_name} pins the metadata file read, as a catalog's pointer does: the
     * table answers as of that file after later commits, without listing the metadata folder; a name that is not a
     * metadata file's, or not there, fails naming it.
     */
    @Test
    void aRegistrationPinsTheMetadataFileItNames()
    {
        String location = "s3://%s/elsewhere/pinned/".formatted(TestingLake.BUCKET);
        execute("CREATE TABLE iceberg.ice.pinned (id bigint, v varchar) WITH (location = '%s')".formatted(location));
        execute("INSERT INTO iceberg.ice.pinned VALUES (1, 'a'), (2, 'b')");
        long first = currentSnapshot("pinned");
        String path = (String) computeScalar("SELECT file FROM iceberg.ice.\"pinned$metadata_log_entries\" ORDER BY timestamp DESC LIMIT 1");
        String firstFile = path.substring(path.lastIndexOf('/') + 1);
        execute("INSERT INTO iceberg.ice.pinned VALUES (3, 'c')");
        execute("DELETE FROM iceberg.ice.pinned WHERE id = 1");

        String catalog = "pins_" + catalogs++;
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT, Map.of(
                "register-table-procedure.enabled", "true",
                "register-table-procedure.allowed-locations", "*")));
        execute("CREATE SCHEMA %s.reg".formatted(catalog));
        execute("CALL %s.system.register_table('reg', 'pinned_then', '%s', '%s')".formatted(catalog, location, firstFile));
        execute("CALL %s.system.register_table(schema_name => 'reg', table_name => 'pinned_now', table_location => '%s')".formatted(catalog, location));
        assertThat(computeActual("SELECT * FROM %s.reg.pinned_then".formatted(catalog)).getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM iceberg.ice.pinned FOR VERSION AS OF " + first).getMaterializedRows());
        assertThat(computeActual("SELECT * FROM %s.reg.pinned_now".formatted(catalog)).getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT * FROM iceberg.ice.pinned").getMaterializedRows());
        assertThat(computeScalar("SELECT value FROM %s.reg.\"pinned_then$properties\" WHERE key = 'iceberg.metadata_file'".formatted(catalog))).isEqualTo(path);
        // the pinned file is read by its name: the metadata folder is not listed
        assertThat(requests("SELECT * FROM %s.reg.pinned_then WHERE id = 2".formatted(catalog))).noneMatch(request -> request.endsWith("/metadata/"));
        assertThat(requests("SELECT * FROM %s.reg.pinned_now WHERE id = 2".formatted(catalog))).contains("LIST elsewhere/pinned/metadata/");

        assertThatThrownBy(() -> execute("CALL %s.system.register_table('reg', 'bad', '%s', '../x.metadata.json')".formatted(catalog, location)))
                .hasMessageContaining("metadata_file_name must be the name of a metadata file in the table's metadata/ folder");
        assertThatThrownBy(() -> execute("CALL %s.system.register_table('reg', 'missing', '%s', '00099-none.metadata.json')".formatted(catalog, location)))
                .hasMessageContaining("00099-none.metadata.json");
        assertThat(computeActual("SHOW TABLES FROM %s.reg".formatted(catalog)).getOnlyColumnAsSet()).containsExactlyInAnyOrder("pinned_then", "pinned_now");
    }

    /**
     * The hidden columns name the file a row came from, as Trino's Iceberg connector names it ({@code $path},
     * {@code $partition}), with its size from the manifest; {@code SELECT *} leaves them out, and a predicate on
     * {@code $path} opens that file alone.
     */
    @Test
    void hiddenColumnsNameTheFileARowCameFrom()
    {
        execute("CREATE TABLE iceberg.ice.hidden (id bigint, region varchar) WITH (partitioning = ARRAY['region'])");
        execute("INSERT INTO iceberg.ice.hidden VALUES (1, 'eu'), (2, 'us'), (4, 'a/b c')");
        execute("INSERT INTO iceberg.ice.hidden VALUES (3, 'eu')");
        String sql = "SELECT id, \"$path\", \"$partition\" FROM %s";
        assertThat(computeActual(sql.formatted("lake.ice.hidden")).getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual(sql.formatted("iceberg.ice.hidden")).getMaterializedRows());
        assertThat(computeActual("SELECT \"$path\", \"$file_size\" FROM lake.ice.hidden").getMaterializedRows())
                .containsExactlyInAnyOrderElementsOf(computeActual("SELECT file_path, file_size_in_bytes FROM iceberg.ice.\"hidden$files\"").getMaterializedRows());
        assertThat(computeActual("SELECT * FROM lake.ice.hidden").getTypes()).hasSize(2);
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.hidden WHERE \"$file_modified_time\" BETWEEN current_timestamp - INTERVAL '1' HOUR AND current_timestamp")).isEqualTo(4L);

        String path = (String) computeScalar("SELECT \"$path\" FROM lake.ice.hidden WHERE id = 3");
        String catalog = "counted_" + catalogs++;
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        String byPath = "SELECT id FROM %s.ice.hidden WHERE \"$path\" = '%s'".formatted(catalog, path);
        assertThat(computeActual(byPath).getOnlyColumnAsSet()).containsExactly(3L);
        assertThat(dataFilesOpened(byPath)).containsExactly(path.substring(path.indexOf("/", "s3://".length()) + 1));
        assertThat(computeActual("SELECT id FROM %s.ice.hidden WHERE \"$partition\" = 'region=eu'".formatted(catalog)).getOnlyColumnAsSet()).containsExactlyInAnyOrder(1L, 3L);
    }

    private MeasuredResult assertSameLookup(String lookup, String version)
    {
        MeasuredResult ours = MeasuredResult.run(getDistributedQueryRunner(), getSession(), lookup.formatted("lake.ice.indexed" + version));
        assertThat(ours.rows().getMaterializedRows()).as(lookup + version)
                .containsExactlyInAnyOrderElementsOf(computeActual(lookup.formatted("iceberg.ice.indexed" + version)).getMaterializedRows());
        return ours;
    }

    private long currentSnapshot(String table)
    {
        return (Long) computeScalar("SELECT snapshot_id FROM iceberg.ice.\"%s$snapshots\" ORDER BY committed_at DESC LIMIT 1".formatted(table));
    }

    @Test
    void anEmptyTableHasItsColumnsAndNoRows()
    {
        execute("CREATE TABLE iceberg.ice.empty (id bigint, v varchar)");
        assertThat(computeActual("SELECT column_name FROM lake.information_schema.columns WHERE table_schema = 'ice' AND table_name = 'empty'").getOnlyColumnAsSet()).containsExactlyInAnyOrder("id", "v");
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.empty")).isEqualTo(0L);
    }

    /**
     * FOR VERSION AS OF a snapshot id and FOR TIMESTAMP AS OF read the table as Trino's Iceberg connector does: that
     * snapshot's files, deletes and schema.
     */
    @Test
    void timeTravelReadsASnapshotWithItsSchema()
    {
        execute("CREATE TABLE iceberg.ice.travel (id bigint, v varchar) WITH (format_version = 2)");
        execute("INSERT INTO iceberg.ice.travel VALUES (1, 'a'), (2, 'b')");
        long first = (Long) computeScalar("SELECT snapshot_id FROM iceberg.ice.\"travel$snapshots\" ORDER BY committed_at DESC LIMIT 1");
        execute("INSERT INTO iceberg.ice.travel VALUES (3, 'c')");
        execute("DELETE FROM iceberg.ice.travel WHERE id = 1");
        long second = (Long) computeScalar("SELECT snapshot_id FROM iceberg.ice.\"travel$snapshots\" ORDER BY committed_at DESC LIMIT 1");
        execute("ALTER TABLE iceberg.ice.travel ADD COLUMN extra double");
        execute("INSERT INTO iceberg.ice.travel VALUES (4, 'd', 4.5)");
        for (String version : List.of("FOR VERSION AS OF " + first, "FOR VERSION AS OF " + second, "")) {
            String sql = "SELECT * FROM %s " + version;
            assertThat(computeActual(sql.formatted("lake.ice.travel")).getMaterializedRows()).as(version)
                    .containsExactlyInAnyOrderElementsOf(computeActual(sql.formatted("iceberg.ice.travel")).getMaterializedRows());
        }
        // the first snapshot's schema has no column extra
        assertThat(computeActual("SELECT * FROM lake.ice.travel FOR VERSION AS OF " + first).getTypes()).hasSize(2);
        Object committed = computeScalar("SELECT format_datetime(committed_at AT TIME ZONE 'UTC', 'yyyy-MM-dd HH:mm:ss.SSS') FROM iceberg.ice.\"travel$snapshots\" WHERE snapshot_id = " + second);
        String asOf = "SELECT id FROM %s FOR TIMESTAMP AS OF TIMESTAMP '" + committed + " UTC'";
        assertThat(computeActual(asOf.formatted("lake.ice.travel")).getOnlyColumnAsSet()).containsExactlyInAnyOrder(2L, 3L);
        assertThat(computeActual(asOf.formatted("lake.ice.travel")).getOnlyColumnAsSet()).isEqualTo(computeActual(asOf.formatted("iceberg.ice.travel")).getOnlyColumnAsSet());
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ice.travel FOR VERSION AS OF 12345"))
                .hasMessageContaining("Iceberg table ice.travel has no snapshot 12345");
    }

    /**
     * Files written without their identity partition column (migrated Hive files) read its value from the manifest,
     * never NULL.
     */
    @Test
    void identityPartitionValuesFillColumnsFilesLack()
    {
        try (S3Client client = s3.client()) {
            IcebergFixture.writeMigrated(client, s3.work(), "ice", "migrated");
        }
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.migrated WHERE region = 'eu'")).isEqualTo(100L);
        assertThat(computeScalar("SELECT region FROM lake.ice.migrated WHERE id = 150")).isEqualTo("us");
        assertThat(computeScalar("SELECT count(*) FROM lake.ice.migrated WHERE region IS NULL")).isEqualTo(0L);
        // the first file does not hold region: the key index cannot cover it (its value is the manifest's, for every
        // row), and never says that value is absent; the second file is covered
        getQueryRunner().execute("CALL lake.system.create_key_index('ice', 'migrated', 'region')");
        MeasuredResult lookup = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT count(*) FROM lake.ice.migrated WHERE region = 'eu'");
        assertThat(lookup.rows().getOnlyValue()).isEqualTo(100L);
        assertThat(lookup.metrics().get("filesUncovered")).isEqualTo(1);
        MeasuredResult other = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT count(*) FROM lake.ice.migrated WHERE region = 'us'");
        assertThat(other.rows().getOnlyValue()).isEqualTo(100L);
    }

    /**
     * An index is kept by the column's field id too: after the indexed column is dropped and another renamed to its
     * name, lookups of that name find no index (they would probe the old column's hashes) and read the files; read as
     * of the snapshot it was built from, the index serves again.
     */
    @Test
    void anIndexNeverServesAnotherColumnOfTheSameName()
    {
        execute("CREATE TABLE iceberg.ice.swapped (id bigint, a varchar, b varchar) WITH (format_version = 2)");
        execute("INSERT INTO iceberg.ice.swapped SELECT n, 'a-' || CAST(n AS varchar), 'b-' || CAST(n AS varchar) FROM UNNEST(sequence(0, 499)) AS t(n)");
        long built = currentSnapshot("swapped");
        getQueryRunner().execute("CALL lake.system.create_key_index('ice', 'swapped', 'a')");
        MeasuredResult before = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT id FROM lake.ice.swapped WHERE a = 'a-7'");
        assertThat(before.rows().getOnlyValue()).isEqualTo(7L);
        assertThat(before.metrics().get("filesCoveredByKeyIndex")).isEqualTo(1);
        // the index shows by the column's name, though it is kept by its field id
        assertThat(computeActual("SELECT column_name, files_covered, problems FROM lake.ice.\"swapped$key_index\"").getMaterializedRows())
                .singleElement()
                .satisfies(row -> assertThat(row.getFields()).containsExactly("a", 1L, null));
        execute("ALTER TABLE iceberg.ice.swapped DROP COLUMN a");
        execute("ALTER TABLE iceberg.ice.swapped RENAME COLUMN b TO a");
        // that column gone, its index says no lookup uses it
        assertThat((String) computeScalar("SELECT problems FROM lake.ice.\"swapped$key_index\"")).contains("no lookup uses it");
        MeasuredResult after = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT id FROM lake.ice.swapped WHERE a = 'b-7'");
        assertThat(after.rows().getOnlyValue()).isEqualTo(7L);
        assertThat(after.metrics().get("filesCoveredByKeyIndex")).isZero();
        MeasuredResult travelled = MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT id FROM lake.ice.swapped FOR VERSION AS OF %d WHERE a = 'a-9'".formatted(built));
        assertThat(travelled.rows().getOnlyValue()).isEqualTo(9L);
        assertThat(travelled.metrics().get("filesCoveredByKeyIndex")).isEqualTo(1);
        // drop_key_index names the column as it is now: no index of it, none dropped; the older column's stays
        getQueryRunner().execute("CALL lake.system.drop_key_index('ice', 'swapped', 'a')");
        assertThat(MeasuredResult.run(getDistributedQueryRunner(), getSession(), "SELECT id FROM lake.ice.swapped FOR VERSION AS OF %d WHERE a = 'a-9'".formatted(built))
                .metrics().get("filesCoveredByKeyIndex")).isEqualTo(1);
    }

    /**
     * A file written without field ids is read through the table's name mapping: a column by the names the mapping
     * gives its id (not by the table's name for it, which the file uses for another column), a column the mapping does
     * not map as NULL; pruning and the reader agree, cold and warm.
     */
    @Test
    void filesWithoutFieldIdsAreReadThroughTheNameMapping()
    {
        try (S3Client client = s3.client()) {
            IcebergFixture.writeMapped(client, s3.work(), "ice", "mapped");
        }
        for (int query = 0; query < 2; query++) {
            assertThat(computeScalar("SELECT device_id FROM lake.ice.mapped WHERE id = 5")).isEqualTo("dev-5");
            assertThat(computeScalar("SELECT count(*) FROM lake.ice.mapped WHERE device_id = 'dev-7'")).isEqualTo(1L);
            assertThat(computeScalar("SELECT count(*) FROM lake.ice.mapped WHERE device_id = 'stale-7'")).isEqualTo(0L);
            assertThat(computeScalar("SELECT count(*) FROM lake.ice.mapped WHERE gone IS NULL")).isEqualTo(100L);
            assertThat(computeActual("SELECT id FROM lake.ice.mapped WHERE device_id IN ('dev-1', 'dev-99', 'stale-2')").getOnlyColumnAsSet()).containsExactlyInAnyOrder(1L, 99L);
        }
    }

    /**
     * Random lookups over tables with many files, row groups, pages, NULLs, NaN, deletes of both kinds and a
     * partition spec: with every pruning path on, with all off, and through Trino's Iceberg connector, the answers
     * are the same. The seed is {@code parquetbloom.iceberg.seed}; the queries, {@code parquetbloom.iceberg.queries}.
     */
    @Test
    void randomLookupsAnswerAsTheIcebergConnector()
    {
        long seed = Long.getLong("parquetbloom.iceberg.seed", 20261207L);
        int queries = Integer.getInteger("parquetbloom.iceberg.queries", 60);
        for (int formatVersion : new int[] {2, 3}) {
            String table = "random_v" + formatVersion;
            execute(("CREATE TABLE iceberg.ice.%s (id bigint, device_id varchar, v double, small integer) " +
                    "WITH (format_version = %d, partitioning = ARRAY['bucket(id, 3)'], parquet_bloom_filter_columns = ARRAY['device_id', 'id'])").formatted(table, formatVersion));
            for (int batch = 0; batch < 4; batch++) {
                execute(("INSERT INTO iceberg.ice.%s SELECT n, IF(n %% 13 = 0, NULL, 'dev-' || CAST(n * 7 %% 1000 AS varchar)), " +
                        "IF(n %% 17 = 0, nan(), IF(n %% 19 = 0, NULL, n / 4.0)), CAST(n %% 50 AS integer) FROM UNNEST(sequence(%d, %d)) AS t(n)").formatted(table, batch * 2500, batch * 2500 + 2499));
            }
            execute("DELETE FROM iceberg.ice.%s WHERE small = 7 OR id BETWEEN 3000 AND 3100".formatted(table));
            execute("UPDATE iceberg.ice.%s SET device_id = 'dev-moved' WHERE id %% 101 = 5".formatted(table));
        }
        SplittableRandom random = new SplittableRandom(seed);
        Session pruningOff = ParquetBloomQueryRunner.allPruningOff(getSession(), "lake");
        for (int query = 0; query < queries; query++) {
            String table = "random_v" + (2 + random.nextInt(2));
            String sql = "SELECT %s FROM %%s WHERE %s".formatted(
                    List.of("*", "count(*)", "sum(id), count(v), max(device_id)").get(random.nextInt(3)),
                    randomPredicate(random));
            List<MaterializedRow> expected = computeActual(sql.formatted("iceberg.ice." + table)).getMaterializedRows();
            String ours = sql.formatted("lake.ice." + table);
            assertThat(computeActual(ours).getMaterializedRows()).as("seed %d: %s", seed, ours).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(computeActual(pruningOff, ours).getMaterializedRows()).as("seed %d, pruning off: %s", seed, ours).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private static String randomPredicate(SplittableRandom random)
    {
        String predicate = switch (random.nextInt(8)) {
            case 0 -> "device_id = 'dev-%d'".formatted(random.nextInt(1100));
            case 1 -> "device_id IN ('dev-%d', 'dev-%d', 'dev-moved', 'nope')".formatted(random.nextInt(1000), random.nextInt(1000));
            case 2 -> "id = %d".formatted(random.nextInt(10_500));
            case 3 -> "id BETWEEN %d AND %d".formatted(random.nextInt(10_000), random.nextInt(10_000) + 50);
            case 4 -> random.nextBoolean() ? "is_nan(v)" : "v > %d".formatted(random.nextInt(2600));
            case 5 -> random.nextBoolean() ? "device_id IS NULL" : "v IS NULL AND small = %d".formatted(random.nextInt(50));
            case 6 -> "small IN (%d, %d)".formatted(random.nextInt(50), random.nextInt(50));
            default -> "device_id = 'dev-%d' OR id = %d".formatted(random.nextInt(1000), random.nextInt(10_000));
        };
        return random.nextInt(4) == 0 ? "(%s) AND NOT (%s)".formatted(predicate, "small = %d".formatted(random.nextInt(50))) : predicate;
    }

    /**
     * The requests of a lookup, cold and warm: cold, the lake's root and schema folders (as for every table the layout
     * finds), the table's folder once to find it is Iceberg (one page here), then its metadata folder, metadata file,
     * manifest list and manifest, the key index's folder (its pointers), then the live file's footer and bloom filter;
     * warm, only the metadata folder's listing (which metadata file is current) after the layout's, everything else
     * cached by path. No dead file is read, and the table's folder is not listed again. With a key index, a warm
     * absent key reads nothing more than the index's postings page.
     */
    @Test
    void requestsOfALookup()
    {
        execute("CREATE TABLE iceberg.ice.counted (id bigint, device_id varchar) WITH (parquet_bloom_filter_columns = ARRAY['device_id'])");
        for (int batch = 0; batch < 3; batch++) {
            execute("INSERT INTO iceberg.ice.counted SELECT n, 'dev-' || CAST(n AS varchar) FROM UNNEST(sequence(%d, %d)) AS t(n)".formatted(batch * 1000, batch * 1000 + 999));
        }
        execute("ALTER TABLE iceberg.ice.counted EXECUTE optimize");
        String catalog = "counted_" + catalogs++;
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        String lookup = "SELECT * FROM %s.ice.counted WHERE device_id = '%s'";
        // absent, and inside the file's bounds of device_id (dev-0 to dev-999): the manifest cannot exclude the file
        Multiset<String> cold = requests(lookup.formatted(catalog, "dev-5000x1"));
        assertThat(Multisets.filter(cold, request -> !request.endsWith("data file"))).isEqualTo(ImmutableMultiset.builder()
                .add("LIST warehouse/")
                .add("LIST warehouse/ice/")
                .add("LIST warehouse/ice/counted/")
                .add("LIST warehouse/ice/counted/metadata/")
                .add("LIST warehouse/ice/counted/_key_index/")
                .add("GET metadata.json")
                .add("GET manifest list")
                .add("GET manifest")
                .build());
        // the live file's footer, and its bloom filter unless the footer's read brought it; the files OPTIMIZE left
        // dead are never read
        assertThat(cold.count("GET_RANGE data file")).isBetween(1, 2);
        Multiset<String> warm = requests(lookup.formatted(catalog, "dev-5000x2"));
        assertThat(warm).isEqualTo(ImmutableMultiset.builder()
                .add("LIST warehouse/")
                .add("LIST warehouse/ice/")
                .add("LIST warehouse/ice/counted/metadata/")
                .build());
        assertThat(computeActual(lookup.formatted(catalog, "dev-1234")).getRowCount()).isEqualTo(1);
        // outside the bounds the manifest records: no footer is read
        assertThat(requests(lookup.formatted(catalog, "dev-absent"))).doesNotContain("GET_RANGE data file");

        getQueryRunner().execute("CALL %s.system.create_key_index('ice', 'counted', 'device_id')".formatted(catalog));
        computeActual(lookup.formatted(catalog, "dev-77"));
        Multiset<String> indexed = requests(lookup.formatted(catalog, "dev-5000x3"));
        // the index's pointer, trailer and postings page are cached: an absent key costs the three LISTs alone
        assertThat(indexed).isEqualTo(warm);
        assertThat(computeActual(lookup.formatted(catalog, "dev-2345")).getRowCount()).isEqualTo(1);
    }

    /**
     * Iceberg's partition values and column bounds from the manifests exclude files before any footer is read: of
     * three files with disjoint ids, two partitions each, a lookup by id opens one; by partition, the partition's.
     */
    @Test
    void manifestsExcludeFilesBeforeTheirFootersAreRead()
    {
        execute("CREATE TABLE iceberg.ice.ranged (id bigint, region varchar, day date) WITH (partitioning = ARRAY['region'])");
        for (int batch = 0; batch < 3; batch++) {
            execute("INSERT INTO iceberg.ice.ranged SELECT n, IF(n %% 2 = 0, 'eu', 'us'), DATE '2026-01-01' + INTERVAL '1' DAY * %d FROM UNNEST(sequence(%d, %d)) AS t(n)".formatted(batch, batch * 1000, batch * 1000 + 999));
        }
        String catalog = "counted_" + catalogs++;
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        // six live files: three inserts of two partitions
        assertThat(computeScalar("SELECT count(*) FROM %s.ice.ranged".formatted(catalog))).isEqualTo(3000L);
        // ids 1000 to 1999 are in the second insert's two files
        assertThat(dataFilesOpened("SELECT * FROM %s.ice.ranged WHERE id = 1500".formatted(catalog))).hasSize(2);
        assertThat(dataFilesOpened("SELECT count(*) FROM %s.ice.ranged WHERE region = 'eu' AND id > 100".formatted(catalog))).hasSize(3);
        assertThat(dataFilesOpened("SELECT count(*) FROM %s.ice.ranged WHERE day = DATE '2026-01-03'".formatted(catalog))).hasSize(2);
        // the partition and the bounds leave one file (its ids 1000 to 1998 hold no 1501: its footer says so)
        assertThat(dataFilesOpened("SELECT count(*) FROM %s.ice.ranged WHERE region = 'eu' AND id = 1501".formatted(catalog))).hasSize(1);
        assertThat(dataFilesOpened("SELECT count(*) FROM %s.ice.ranged WHERE region = 'ap'".formatted(catalog))).isEmpty();
        assertThat(computeScalar("SELECT count(*) FROM %s.ice.ranged WHERE region = 'eu' AND id > 100".formatted(catalog))).isEqualTo(1449L);
        assertThat(computeScalar("SELECT count(*) FROM %s.ice.ranged WHERE id BETWEEN 990 AND 1010 OR region IS NULL".formatted(catalog))).isEqualTo(21L);
    }

    /**
     * The same lookups on the same Iceberg table (8 files, bloom filters on {@code device_id}) through Trino's Iceberg
     * connector and through this one, both behind the counting proxy, warm: this one reads fewer bytes (it keeps
     * footers and filters, and reads the pages that hold the key; Trino's Iceberg connector reads each small file its
     * manifests leave whole), and for an absent key sends no more requests.
     */
    @Test
    void aWarmLookupCostsLessThanThroughTheIcebergConnector()
    {
        execute("CREATE TABLE iceberg.ice.compared (id bigint, device_id varchar, v double) WITH (parquet_bloom_filter_columns = ARRAY['device_id'])");
        for (int batch = 0; batch < 8; batch++) {
            execute("INSERT INTO iceberg.ice.compared SELECT n, 'dev-' || CAST(n AS varchar), n / 3.0 FROM UNNEST(sequence(%d, %d)) AS t(n)".formatted(batch * 5000, batch * 5000 + 4999));
        }
        String ours = "counted_" + catalogs++;
        String theirs = "iceberg_" + ours;
        getQueryRunner().createCatalog(ours, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        Map<String, String> icebergProperties = new HashMap<>(icebergProperties(proxy.endpoint()));
        icebergProperties.put("parquet.use-bloom-filter", "true");
        getQueryRunner().createCatalog(theirs, "iceberg", icebergProperties);
        for (String key : List.of("dev-12345x", "dev-31337")) {
            String sql = "SELECT id, v FROM %s.ice.compared WHERE device_id = '" + key + "'";
            computeActual(sql.formatted(ours));
            computeActual(sql.formatted(theirs));
            CountingProxy.Counts oursCounts = counts(sql.formatted(ours));
            CountingProxy.Counts theirsCounts = counts(sql.formatted(theirs));
            System.out.println("[iceberg] warm lookup of %s: parquet_bloom %d GETs, %d bytes, %d LISTs; iceberg %d GETs and HEADs, %d bytes, %d LISTs".formatted(
                    key, oursCounts.gets(), oursCounts.getBytes(), oursCounts.lists(), theirsCounts.gets() + theirsCounts.heads(), theirsCounts.getBytes(), theirsCounts.lists()));
            if (key.endsWith("x")) {
                // absent: the layout's two LISTs (root and schema folder) and the metadata folder's, every filter
                // cached, against Trino's metastore read and its reads of the files its manifests leave
                assertThat(oursCounts.gets() + oursCounts.lists()).as(key).isLessThanOrEqualTo(theirsCounts.gets() + theirsCounts.heads() + theirsCounts.lists());
            }
            assertThat(oursCounts.getBytes()).as(key).isLessThan(theirsCounts.getBytes());
            assertThat(computeActual(sql.formatted(ours)).getMaterializedRows()).containsExactlyInAnyOrderElementsOf(computeActual(sql.formatted(theirs)).getMaterializedRows());
        }
    }

    private CountingProxy.Counts counts(String sql)
    {
        proxy.reset();
        computeActual(sql);
        return proxy.counts();
    }

    private Set<String> dataFilesOpened(String sql)
    {
        proxy.reset();
        computeActual(sql);
        return proxy.requests().stream()
                .map(CountingProxy.Request::target)
                .filter(key -> key.contains("/data/"))
                .collect(toImmutableSet());
    }

    private Multiset<String> requests(String sql)
    {
        proxy.reset();
        computeActual(sql);
        return proxy.requests().stream()
                .map(request -> request.method().equals("LIST") ? "LIST " + request.target() : describe(request))
                .collect(toImmutableMultiset());
    }

    private static String describe(CountingProxy.Request request)
    {
        String key = request.target();
        String name = key.substring(key.lastIndexOf('/') + 1);
        String kind;
        if (name.endsWith(".metadata.json")) {
            kind = "metadata.json";
        }
        else if (name.startsWith("snap-")) {
            kind = "manifest list";
        }
        else if (name.endsWith(".avro")) {
            kind = "manifest";
        }
        else if (key.contains("/data/")) {
            kind = "data file";
        }
        else if (key.contains("/_key_index/")) {
            kind = name.equals("_pointer") ? "key index pointer" : "key index segment";
        }
        else {
            kind = key;
        }
        return (request.range().isEmpty() ? request.method() : request.method() + "_RANGE") + " " + kind;
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
