package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.plugin.memory.MemoryPlugin;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static com.google.common.collect.ImmutableMultiset.toImmutableMultiset;
import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.CREATE_TABLE;
import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.DROP_TABLE;
import static io.trino.testing.TestingAccessControlManager.privilege;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lakes users already have: partition folders at a bucket root and files under any prefix named as tables with
 * {@code register_table}, data files without an extension, schemas that evolved, and Delta Lake, Iceberg and Hudi
 * folders, which are refused by name rather than read with their dead files. Answers are checked against the rows
 * written; the S3 requests of registering, unregistering and of lookups on a registered table are asserted exactly,
 * beside the same files found by the folder layout.
 */
final class TestRealLakes
        extends AbstractTestQueryFramework
{
    private static final String PROD = "prod-lake-telemetry";
    private static final String INDEXED = "prod-lake-indexed";
    private static final String READ_ONLY = "prod-lake-readonly";
    private static final String ENGINE = "engine";
    private static final String REFERENCE_SCHEMA = "message m { required binary device_id (STRING); required int64 event_timestamp; required double tensao; }";
    private static final List<String> REFERENCE_FILES = List.of("year=2026/month=03/part-00000-6d1f1b2c-c000.snappy.parquet", "year=2026/month=04/000000_0");
    private static final String REGISTRY = "warehouse/_parquet_bloom_registry/";
    private static final int ROWS_PER_FILE = 1_000;

    private final AtomicInteger catalogs = new AtomicInteger();
    private CountingProxy proxy;
    private S3Client client;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("real-lakes"));
        Path work = s3.work();
        client = closeAfterClass(s3.client());
        client.createBucket(request -> request.bucket(PROD));
        client.createBucket(request -> request.bucket(INDEXED));
        client.createBucket(request -> request.bucket(READ_ONLY));
        client.createBucket(request -> request.bucket(ENGINE));
        writeReferenceLake(work);
        writeEvolvedTables(work);
        writeTableFormatFolders(work);
        put(TestingLake.BUCKET, "warehouse/bad/notparquet/000000_0", "hello, not parquet".getBytes(StandardCharsets.UTF_8));
        put(TestingLake.BUCKET, "warehouse/bad/notparquet/000001_0", referenceFile(work, 0));
        put(TestingLake.BUCKET, "warehouse/floats/zeros/part-0.parquet", zerosFile(work));
        put(TestingLake.BUCKET, "exports/empty/_SUCCESS", new byte[0]);
        put(TestingLake.BUCKET, "exports/empty/README.md", "nothing here".getBytes(StandardCharsets.UTF_8));
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        QueryRunner runner = ParquetBloomQueryRunner.builder().withEndpoint(proxy.endpoint()).build();
        runner.installPlugin(new MemoryPlugin());
        runner.createCatalog("memory", "memory", Map.of());
        // a registration never creates a schema (ref is a folder of the lake, race is not)
        runner.execute("CREATE SCHEMA lake.race");
        // the reference lake's own layout: year/month folders directly at the bucket root, named as a table
        runner.execute("CALL lake.system.register_table(schema_name => 'ref', table_name => 'readings', table_location => 's3://%s/')".formatted(PROD));
        runner.execute("CALL lake.system.register_table('ref', 'spark_out', 's3://lake/exports/2026/Q1 a+b/run=7/out/')");
        runner.execute("CALL lake.system.register_table('ref', 'indexed', 's3://%s/')".formatted(INDEXED));
        return runner;
    }

    private void writeReferenceLake(Path work)
    {
        for (int file = 0; file < REFERENCE_FILES.size(); file++) {
            byte[] bytes = referenceFile(work, file);
            put(PROD, REFERENCE_FILES.get(file), bytes);
            // the same files found by the folder layout, to compare requests with
            put(TestingLake.BUCKET, "warehouse/ref/readings_folder/" + REFERENCE_FILES.get(file), bytes);
            // and a copy of both to index
            put(INDEXED, REFERENCE_FILES.get(file), bytes);
            put(READ_ONLY, REFERENCE_FILES.get(file), bytes);
            put(TestingLake.BUCKET, "warehouse/ref/indexed_folder/" + REFERENCE_FILES.get(file), bytes);
        }
        put(PROD, "year=2026/month=03/_SUCCESS", new byte[0]);
        // a Spark output folder at a deep prefix, with every kind of debris Spark and Hadoop leave
        put(TestingLake.BUCKET, "exports/2026/Q1 a+b/run=7/out/part-00000-7a2e-c000.snappy.parquet", referenceFile(work, 0));
        put(TestingLake.BUCKET, "exports/2026/Q1 a+b/run=7/out/_SUCCESS", new byte[0]);
        put(TestingLake.BUCKET, "exports/2026/Q1 a+b/run=7/out/.part-00000-7a2e-c000.snappy.parquet.crc", new byte[] {1, 2, 3});
        put(TestingLake.BUCKET, "exports/2026/Q1 a+b/run=7/out/_temporary/0/_temporary/attempt_1/part-00001.parquet", referenceFile(work, 1));
    }

    private static byte[] referenceFile(Path work, int file)
    {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < ROWS_PER_FILE; i++) {
            rows.add(new Object[] {device(file * ROWS_PER_FILE + i), 1_700_000_000_000L + file * ROWS_PER_FILE + i, 220.0 + i % 7});
        }
        return LakeFiles.parquet(work, "reference-%d.parquet".formatted(file), REFERENCE_SCHEMA, rows, ROWS_PER_FILE / 2, Set.of("device_id"));
    }

    private static String device(int number)
    {
        return "dev-%05d".formatted(number);
    }

    /**
     * 0.0, -0.0 and other floats in pages of their own and mixed.
     */
    private static byte[] zerosFile(Path work)
    {
        List<Object[]> rows = new ArrayList<>();
        for (long id = 0; id < 400; id++) {
            float value = id % 5 == 0 || (id >= 200 && id < 300) ? 0.0f : id % 7 == 0 ? -0.0f : id / 64.0f;
            rows.add(new Object[] {id, value, (double) value});
        }
        return LakeFiles.parquet(work, "zeros.parquet", "message m { required int64 id; required float r; required double d; }", rows, 100, Set.of("r", "d"));
    }

    private void writeEvolvedTables(Path work)
            throws InterruptedException
    {
        List<Object[]> old = new ArrayList<>();
        List<Object[]> newer = new ArrayList<>();
        for (int id = 0; id < 100; id++) {
            old.add(new Object[] {(long) id, "s-" + id, id * 10, id + 0.5f});
            newer.add(new Object[] {100L + id, "s-" + (100 + id), 5_000_000_000L + id, 100 + id + 0.25, id % 4 == 0 ? null : "fw-" + id % 3});
        }
        // a column added by a later writer (firmware), an integer and a float widened (reading, ratio)
        put(TestingLake.BUCKET, "warehouse/evolve/sensors/part-0", LakeFiles.parquet(work, "sensors-0.parquet",
                "message m { required int64 id; required binary device_id (STRING); required int32 reading; required float ratio; }", old, 50, Set.of("device_id", "reading")));
        put(TestingLake.BUCKET, "warehouse/evolve/sensors/part-1", LakeFiles.parquet(work, "sensors-1.parquet",
                "message m { required int64 id; required binary device_id (STRING); required int64 reading; required double ratio; optional binary firmware (STRING); }", newer, 50, Set.of("device_id", "reading")));
        // a column dropped by the later writer: only union by name still shows it
        put(TestingLake.BUCKET, "warehouse/evolve/dropped/part-0.parquet", LakeFiles.parquet(work, "dropped-0.parquet",
                "message m { required int64 id; required int32 legacy_code; }", List.<Object[]>of(new Object[] {1L, 7}, new Object[] {2L, 8}), 10, Set.of()));
        put(TestingLake.BUCKET, "warehouse/evolve/dropped/part-1.parquet", LakeFiles.parquet(work, "dropped-1.parquet",
                "message m { required int64 id; optional binary device_id (STRING); }", List.<Object[]>of(new Object[] {3L, "d-3"}), 10, Set.of()));
        // varchar in one file, bigint in the other
        put(TestingLake.BUCKET, "warehouse/evolve/clash/part-0.parquet", LakeFiles.parquet(work, "clash-0.parquet",
                "message m { required int64 id; required binary reading (STRING); }", List.<Object[]>of(new Object[] {1L, "12"}), 10, Set.of()));
        put(TestingLake.BUCKET, "warehouse/evolve/clash/part-1.parquet", LakeFiles.parquet(work, "clash-1.parquet",
                "message m { required int64 id; required int64 reading; }", List.<Object[]>of(new Object[] {2L, 13L}), 10, Set.of()));
        // the newest file by time sorts first by name: time decides
        put(TestingLake.BUCKET, "warehouse/evolve/renamed/z-old.parquet", LakeFiles.parquet(work, "renamed-0.parquet",
                "message m { required int64 id; }", List.<Object[]>of(new Object[] {1L}), 10, Set.of()));
        Thread.sleep(1_500);
        put(TestingLake.BUCKET, "warehouse/evolve/renamed/a-new.parquet", LakeFiles.parquet(work, "renamed-1.parquet",
                "message m { required int64 id; optional binary firmware (STRING); }", List.<Object[]>of(new Object[] {2L, "fw-9"}), 10, Set.of()));
    }

    private void writeTableFormatFolders(Path work)
    {
        byte[] live = referenceFile(work, 0);
        byte[] dead = referenceFile(work, 1);
        byte[] json = "{}".getBytes(StandardCharsets.UTF_8);
        put(TestingLake.BUCKET, "warehouse/formats/delta_t/_delta_log/00000000000000000000.json", json);
        put(TestingLake.BUCKET, "warehouse/formats/delta_t/_delta_log/00000000000000000001.json", json);
        put(TestingLake.BUCKET, "warehouse/formats/delta_t/part-00000-a.snappy.parquet", dead);
        put(TestingLake.BUCKET, "warehouse/formats/delta_t/part-00000-b.snappy.parquet", live);
        put(TestingLake.BUCKET, "warehouse/formats/iceberg_t/metadata/v2.metadata.json", json);
        put(TestingLake.BUCKET, "warehouse/formats/iceberg_t/metadata/version-hint.text", "2".getBytes(StandardCharsets.UTF_8));
        put(TestingLake.BUCKET, "warehouse/formats/iceberg_t/data/00000-0-a.parquet", dead);
        put(TestingLake.BUCKET, "warehouse/formats/iceberg_t/data/00001-0-b.parquet", live);
        put(TestingLake.BUCKET, "warehouse/formats/hudi_t/.hoodie/hoodie.properties", json);
        put(TestingLake.BUCKET, "warehouse/formats/hudi_t/.hoodie/20260302.commit", json);
        put(TestingLake.BUCKET, "warehouse/formats/hudi_t/region=eu/f1_1-0-1_20260301.parquet", dead);
        put(TestingLake.BUCKET, "warehouse/formats/hudi_t/region=eu/f1_1-0-1_20260302.parquet", live);
    }

    private void put(String bucket, String key, byte[] bytes)
    {
        client.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }

    @Test
    void tableAtABucketRootAnswersLookups()
    {
        assertThat(computeActual("SHOW TABLES FROM lake.ref").getOnlyColumnAsSet()).contains("readings", "spark_out", "readings_folder");
        assertThat(computeActual("SELECT event_timestamp, tensao FROM lake.ref.readings WHERE device_id = '%s' LIMIT 10".formatted(device(1_500))).getMaterializedRows())
                .extracting(MaterializedRow::getFields)
                .containsExactly(List.of(1_700_000_001_500L, 220.0 + 500 % 7));
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.readings WHERE device_id IN ('%s', '%s', 'dev-99999')".formatted(device(3), device(1_999)))).isEqualTo(2L);
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.readings")).isEqualTo(2L * ROWS_PER_FILE);
        // partition folders below the registered prefix are columns as they are for any table
        assertThat(computeActual("SELECT DISTINCT year, month FROM lake.ref.readings ORDER BY month").getMaterializedRows())
                .extracting(MaterializedRow::getFields)
                .containsExactly(List.of(2026L, 3L), List.of(2026L, 4L));
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.readings WHERE month = 4 AND device_id = '%s'".formatted(device(1_000)))).isEqualTo(1L);
    }

    @Test
    void sparkOutputAtADeepPrefixSkipsItsDebris()
    {
        // _SUCCESS, .crc and _temporary/ are hidden: one file of rows
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.spark_out")).isEqualTo((long) ROWS_PER_FILE);
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.spark_out WHERE device_id = '%s'".formatted(device(1_000)))).isEqualTo(0L);
    }

    @Test
    void showCreateTableAndPropertiesTableShowTheLocation()
    {
        assertThat((String) computeScalar("SHOW CREATE TABLE lake.ref.readings")).contains("location = 's3://%s/'".formatted(PROD));
        assertThat((String) computeScalar("SHOW CREATE TABLE lake.evolve.sensors")).contains("location = 's3://lake/warehouse/evolve/sensors/'");
        Map<Object, Object> properties = propertiesOf("lake.ref.\"readings$properties\"");
        assertThat(properties).containsEntry("location", "s3://%s/".formatted(PROD))
                .containsEntry("registered", "true")
                .containsEntry("registry", "s3://lake/" + REGISTRY)
                .containsEntry("data_files", "2")
                .containsEntry("columns_from", "newest file");
        assertThat(propertiesOf("lake.ref.\"readings_folder$properties\"")).containsEntry("registered", "false");
    }

    private Map<Object, Object> propertiesOf(String table)
    {
        Map<Object, Object> properties = new HashMap<>();
        computeActual("SELECT key, value FROM " + table).getMaterializedRows().forEach(row -> properties.put(row.getField(0), row.getField(1)));
        return properties;
    }

    @Test
    void columnsFollowTheNewestFile()
    {
        assertThat(computeActual("DESCRIBE lake.evolve.sensors").getMaterializedRows())
                .extracting(row -> row.getField(0) + " " + row.getField(1))
                .containsExactly("id bigint", "device_id varchar", "reading bigint", "ratio double", "firmware varchar");
        // the older file has no firmware: NULL; its INT32 readings and FLOAT ratios read widened
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.sensors WHERE firmware IS NULL")).isEqualTo(125L);
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.sensors WHERE firmware = 'fw-1'")).isEqualTo(25L);
        assertThat(computeActual("SELECT id, firmware FROM lake.evolve.sensors WHERE reading = 500").getMaterializedRows())
                .extracting(MaterializedRow::getFields)
                .containsExactly(Arrays.asList(50L, null));
        assertThat(computeScalar("SELECT id FROM lake.evolve.sensors WHERE reading = 5000000007")).isEqualTo(107L);
        assertThat(computeScalar("SELECT id FROM lake.evolve.sensors WHERE ratio = 50.5")).isEqualTo(50L);
        assertThat(computeScalar("SELECT id FROM lake.evolve.sensors WHERE ratio = 150.25")).isEqualTo(150L);
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.sensors WHERE device_id IN ('s-3', 's-103', 's-999')")).isEqualTo(2L);
        // with a key index on the widened column (its type is the first file's INT32): the newest file's values beyond
        // INT32 are not in that type, so that file is left to the per-file path, never answered wrongly
        getQueryRunner().execute("CALL lake.system.create_key_index('evolve', 'sensors', 'reading')");
        assertThat(computeScalar("SELECT id FROM lake.evolve.sensors WHERE reading = 500")).isEqualTo(50L);
        assertThat(computeScalar("SELECT id FROM lake.evolve.sensors WHERE reading = 5000000007")).isEqualTo(107L);
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.sensors WHERE reading IN (10, 5000000000, 5000000099, 7)")).isEqualTo(3L);
        // the newest file by time, though it sorts first by name
        assertThat(columnNames("lake.evolve.renamed")).containsExactlyInAnyOrder("id", "firmware");
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.renamed WHERE firmware IS NULL")).isEqualTo(1L);
    }

    private List<Object> columnNames(String table)
    {
        return computeActual("DESCRIBE " + table).getMaterializedRows().stream().map(row -> row.getField(0)).toList();
    }

    @Test
    void unionByNameKeepsColumnsOlderFilesHave()
    {
        assertThat(columnNames("lake.evolve.dropped")).containsExactlyInAnyOrder("id", "device_id");
        Session union = Session.builder(getSession()).setCatalogSessionProperty("lake", "schema_union_by_name", "true").build();
        assertThat(computeActual(union, "DESCRIBE lake.evolve.dropped").getMaterializedRows())
                .extracting(row -> row.getField(0) + " " + row.getField(1))
                .containsExactly("id bigint", "device_id varchar", "legacy_code integer");
        assertThat(computeActual(union, "SELECT id, legacy_code, device_id FROM lake.evolve.dropped ORDER BY id").getMaterializedRows())
                .extracting(MaterializedRow::getFields)
                .containsExactly(Arrays.asList(1L, 7, null), Arrays.asList(2L, 8, null), Arrays.asList(3L, null, "d-3"));
        assertThatThrownBy(() -> computeActual(union, "SELECT * FROM lake.evolve.clash"))
                .hasMessageContaining("column reading is varchar in file s3://lake/warehouse/evolve/clash/part-0.parquet but bigint in file s3://lake/warehouse/evolve/clash/part-1.parquet");
    }

    @Test
    void signedZerosInAnInListAnswerAsTheEngineDoes()
    {
        // the engine hashes an IN list's values, 0.0 and -0.0 apart, while a pushed-down domain keeps one of them:
        // such a predicate stays the engine's own (found by the differential test: 0.0 rows were lost); answers are
        // those of the same rows in the memory connector
        getQueryRunner().execute("CREATE TABLE IF NOT EXISTS memory.default.zeros AS SELECT * FROM lake.floats.zeros");
        for (String column : List.of("r", "d")) {
            String type = column.equals("r") ? "REAL" : "DOUBLE";
            List<String> predicates = List.of(
                    "%1$s IN (%2$s '2166.8906', %2$s '-0.0', %2$s '-15100.469', %2$s '0.0')",
                    "%1$s IN (%2$s '-0.0', %2$s '0.0')",
                    "%1$s IN (%2$s '0.0', %2$s '1.5')",
                    "%1$s IN (%2$s '-0.0', %2$s '1.5', %2$s '3.0')",
                    "%1$s = %2$s '0.0'",
                    "%1$s IN (%2$s '1.5', %2$s '3.0')");
            for (String predicate : predicates) {
                String where = predicate.formatted(column, type);
                Object expected = computeScalar("SELECT count(*) FROM memory.default.zeros WHERE " + where);
                assertThat(computeScalar("SELECT count(*) FROM lake.floats.zeros WHERE " + where)).as(where).isEqualTo(expected);
                assertThat(computeScalar(ParquetBloomQueryRunner.allPruningOff(getSession(), "lake"), "SELECT count(*) FROM lake.floats.zeros WHERE " + where)).as(where).isEqualTo(expected);
            }
            // both zeros named: every zero row (160 of 0.0, 35 of -0.0)
            assertThat(computeScalar("SELECT count(*) FROM lake.floats.zeros WHERE %1$s IN (%2$s '2166.8906', %2$s '-0.0', %2$s '-15100.469', %2$s '0.0')".formatted(column, type))).isEqualTo(195L);
        }
    }

    @Test
    void aTypeClashFailsNamingTheFileAndTheColumn()
    {
        assertThatThrownBy(() -> computeActual("SELECT sum(reading) FROM lake.evolve.clash"))
                .hasMessageContaining("Column reading of file s3://lake/warehouse/evolve/clash/part-0.parquet");
        // a query that does not read the clashing column answers
        assertThat(computeScalar("SELECT count(*) FROM lake.evolve.clash")).isEqualTo(2L);
    }

    @Test
    void tableFormatFoldersFailNamingTheirConnector()
    {
        assertThat(computeActual("SHOW TABLES FROM lake.formats").getOnlyColumnAsSet()).containsExactlyInAnyOrder("delta_t", "iceberg_t", "hudi_t");
        // a Delta Lake table is read through its log, never its folder: this one's log has no protocol
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.formats.delta_t"))
                .hasMessageContaining("Delta Lake table formats.delta_t: its log as of version 1 has no protocol action");
        // an Iceberg table is read through its metadata, never its data folder: this one's is not Iceberg metadata
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.formats.iceberg_t WHERE device_id = 'dev-00001'"))
                .hasMessageContaining("Iceberg table formats.iceberg_t: cannot read metadata file s3://lake/warehouse/formats/iceberg_t/metadata/v2.metadata.json");
        // a folder table has no versions to travel to
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ref.readings FOR VERSION AS OF 1"))
                .hasMessageContaining("Table ref.readings is a folder of files, which has no versions");
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.formats.hudi_t"))
                .hasMessageContaining("is a Hudi table")
                .hasMessageContaining("connector.name=hudi");
        assertThatThrownBy(() -> computeActual("DESCRIBE lake.formats.hudi_t")).hasMessageContaining("connector.name=hudi");
        // registered, the same folder is refused at once
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 'delta_again', 's3://lake/warehouse/formats/delta_t/')"))
                .hasMessageContaining("has no protocol action");
        assertThat(computeActual("SHOW TABLES FROM lake.ref").getOnlyColumnAsSet()).doesNotContain("delta_again");
    }

    @Test
    void anObjectTakenAsDataThatIsNotParquetFailsNamingIt()
    {
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.bad.notparquet"))
                .hasMessageContaining("s3://lake/warehouse/bad/notparquet/000000_0")
                .hasMessageContaining("not a Parquet file");
    }

    @Test
    void registrationErrorsAreClearAndLoseNothing()
    {
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 'readings', 's3://lake/exports/2026/Q1 a+b/run=7/out/')"))
                .hasMessageContaining("table ref.readings already exists");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('evolve', 'sensors', 's3://%s/')".formatted(PROD)))
                .hasMessageContaining("table evolve.sensors already exists");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 'nowhere', 's3://no-such-bucket-here/data/')"))
                .hasMessageContaining("bucket no-such-bucket-here does not exist");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 'empty', 's3://lake/exports/empty/')"))
                .hasMessageContaining("no data file in s3://lake/exports/empty/");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 'local', '/tmp/data')"))
                .hasMessageContaining("table_location must be s3://bucket/ or s3://bucket/prefix/");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('ref', 't$x', 's3://%s/')".formatted(PROD)))
                .hasMessageContaining("cannot contain '$'");
        assertThatThrownBy(() -> computeActual("CALL lake.system.unregister_table('ref', 'readings_folder')"))
                .hasMessageContaining("is not a registered table");
        // a registry object damaged, or written by a newer version: named, and the other tables still answer
        put(TestingLake.BUCKET, REGISTRY + "ref/damaged.json", "{\"formatVersion\": 1, \"loc".getBytes(StandardCharsets.UTF_8));
        put(TestingLake.BUCKET, REGISTRY + "ref/future.json", "{\"formatVersion\":3,\"schemaName\":\"ref\",\"tableName\":\"future\",\"location\":\"s3://lake/x/\",\"partitionSpec\":[]}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ref.damaged"))
                .hasMessageContaining("Table registration s3://lake/%sref/damaged.json is damaged".formatted(REGISTRY));
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.ref.future"))
                .hasMessageContaining("format version 3, written by a newer version of this connector");
        assertThat(computeActual("SHOW TABLES FROM lake.ref").getOnlyColumnAsSet()).contains("damaged", "future", "readings");
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.readings")).isEqualTo(2L * ROWS_PER_FILE);
        computeActual("CALL lake.system.unregister_table('ref', 'damaged')");
        computeActual("CALL lake.system.unregister_table('ref', 'future')");
    }

    @Test
    void unregisterNeverDeletesData()
    {
        computeActual("CALL lake.system.register_table('ref', 'temporary', 's3://lake/exports/2026/Q1 a+b/run=7/out/')");
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.temporary")).isEqualTo((long) ROWS_PER_FILE);
        computeActual("CALL lake.system.unregister_table(schema_name => 'ref', table_name => 'temporary')");
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.ref.temporary")).hasMessageContaining("does not exist");
        assertThat(client.listObjectsV2(request -> request.bucket(TestingLake.BUCKET).prefix("exports/2026/Q1 a+b/run=7/out/")).contents()).hasSize(4);
        // and it can be registered again
        computeActual("CALL lake.system.register_table('ref', 'temporary', 's3://lake/exports/2026/Q1 a+b/run=7/out/')");
        assertThat(computeScalar("SELECT count(*) FROM lake.ref.temporary")).isEqualTo((long) ROWS_PER_FILE);
        computeActual("CALL lake.system.unregister_table('ref', 'temporary')");
    }

    @Test
    void proceduresAreCheckedAsCreateTableAndDropTable()
    {
        assertAccessDenied("CALL lake.system.register_table('ref', 'denied', 's3://%s/')".formatted(PROD), "Cannot create table .*ref\\.denied.*", privilege("denied", CREATE_TABLE));
        assertAccessDenied("CALL lake.system.unregister_table('ref', 'readings')", "Cannot drop table .*ref\\.readings.*", privilege("readings", DROP_TABLE));
        // nothing was recorded or removed
        assertThat(computeActual("SHOW TABLES FROM lake.ref").getOnlyColumnAsSet()).contains("readings").doesNotContain("denied");
    }

    @Test
    void racingRegistrationsNeverLoseOne()
            throws Exception
    {
        int racers = 6;
        List<Callable<Boolean>> distinct = new ArrayList<>();
        List<Callable<Boolean>> same = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            String name = "race_%d".formatted(i);
            distinct.add(() -> register("race", name));
            same.add(() -> register("race", "contested"));
        }
        try (ExecutorService threads = Executors.newFixedThreadPool(racers)) {
            assertThat(runAll(threads, distinct)).containsOnly(true);
            assertThat(runAll(threads, same)).containsOnlyOnce(true);
        }
        assertThat(computeActual("SHOW TABLES FROM lake.race").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("race_0", "race_1", "race_2", "race_3", "race_4", "race_5", "contested");
    }

    private boolean register(String schema, String table)
    {
        try {
            getQueryRunner().execute("CALL lake.system.register_table('%s', '%s', 's3://%s/')".formatted(schema, table, PROD));
            return true;
        }
        catch (RuntimeException e) {
            assertThat(e).hasMessageContaining("already");
            return false;
        }
    }

    private static List<Boolean> runAll(ExecutorService threads, List<Callable<Boolean>> tasks)
            throws Exception
    {
        List<Boolean> results = new ArrayList<>();
        for (Future<Boolean> future : threads.invokeAll(tasks)) {
            results.add(future.get());
        }
        return results;
    }

    @Test
    void requestsOfRegisteringAndUnregistering()
    {
        String catalog = coldCatalog();
        // the schema is recorded with a conditional PUT, this catalog's first to the bucket: before it, the store is
        // checked to honour conditions with a probe object (written, written again and with a wrong ETag, deleted on a
        // wrong ETag, deleted)
        assertRequests(catalog, "CREATE SCHEMA %s.ops".formatted(catalog), ImmutableMultiset.of(
                new Request("LIST", "lake", "warehouse/"),
                new Request("LIST", "lake", REGISTRY + "ops/"),
                new Request("LIST", "lake", "warehouse/"),
                new Request("LIST", "lake", REGISTRY + "ops/"),
                new Request("PUT", "lake", REGISTRY + "ops/.parquet-bloom-conditional-write-probe-<uuid>"),
                new Request("PUT", "lake", REGISTRY + "ops/.parquet-bloom-conditional-write-probe-<uuid>"),
                new Request("PUT", "lake", REGISTRY + "ops/.parquet-bloom-conditional-write-probe-<uuid>"),
                new Request("DELETE", "lake", REGISTRY + "ops/.parquet-bloom-conditional-write-probe-<uuid>"),
                new Request("DELETE", "lake", REGISTRY + "ops/.parquet-bloom-conditional-write-probe-<uuid>"),
                new Request("PUT", "lake", REGISTRY + "ops/.schema")));
        // the name is free (the root's folders show the registry, whose object for it is absent; no folder 'ops'), the
        // schema exists (the root's folders again, then the registry's folder of it), the location (a bucket root:
        // no folder above it to hold a table format's marker) is listed once to check it holds data, then one
        // conditional PUT
        assertRequests(catalog, "CALL %s.system.register_table('ops', 'readings', 's3://%s/')".formatted(catalog, PROD), ImmutableMultiset.of(
                new Request("LIST", "lake", "warehouse/"),
                new Request("GET", "lake", REGISTRY + "ops/readings.json"),
                new Request("LIST", "lake", "warehouse/"),
                new Request("LIST", "lake", REGISTRY + "ops/"),
                new Request("LIST", PROD, ""),
                new Request("PUT", "lake", REGISTRY + "ops/readings.json")));
        assertRequests(catalog, "CALL %s.system.unregister_table('ops', 'readings')".formatted(catalog), ImmutableMultiset.of(
                new Request("GET", "lake", REGISTRY + "ops/readings.json"),
                new Request("DELETE", "lake", REGISTRY + "ops/readings.json")));
    }

    @Test
    void lookupOnARegisteredTableCostsWhatOneOnAFolderTableCosts()
    {
        String absent = "SELECT count(*) FROM %s WHERE device_id = 'dev-77777'";
        String present = "SELECT event_timestamp, tensao FROM %s WHERE device_id = '%s' LIMIT 10";
        String catalog = coldCatalog();
        // cold: the root, the registration, the registered prefix; then each file's tail (footer and filters)
        Multiset<Request> registeredCold = requests(catalog, absent.formatted(catalog + ".ref.readings"));
        assertThat(registeredCold).containsExactlyInAnyOrderElementsOf(ImmutableMultiset.of(
                new Request("LIST", "lake", "warehouse/"),
                new Request("GET", "lake", REGISTRY + "ref/readings.json"),
                new Request("LIST", PROD, ""),
                new Request("GET_RANGE", PROD, REFERENCE_FILES.get(0)),
                new Request("GET_RANGE", PROD, REFERENCE_FILES.get(1))));
        // warm, another key: metadata is cached, the registration is read again (every node sees a change at once)
        assertThat(requests(catalog, absent.replace("77777", "88888").formatted(catalog + ".ref.readings"))).containsExactlyInAnyOrderElementsOf(ImmutableMultiset.of(
                new Request("LIST", "lake", "warehouse/"),
                new Request("GET", "lake", REGISTRY + "ref/readings.json"),
                new Request("LIST", PROD, "")));
        String folderCatalog = coldCatalog();
        Multiset<Request> folderCold = requests(folderCatalog, absent.formatted(folderCatalog + ".ref.readings_folder"));
        // the same GETs of data files; the folder table asks the registry too (and finds nothing), then lists two folder levels
        assertThat(dataGets(folderCold, "warehouse/ref/readings_folder/")).isEqualTo(dataGets(registeredCold, ""));
        assertThat(folderCold).contains(new Request("GET", "lake", REGISTRY + "ref/readings_folder.json"), new Request("LIST", "lake", "warehouse/ref/"));
        // a present key, cold and warm, reads the same data either way
        String catalogA = coldCatalog();
        String catalogB = coldCatalog();
        for (String key : List.of(device(1_234), device(432))) {
            assertThat(dataGets(requests(catalogA, present.formatted(catalogA + ".ref.readings", key)), ""))
                    .isEqualTo(dataGets(requests(catalogB, present.formatted(catalogB + ".ref.readings_folder", key)), "warehouse/ref/readings_folder/"));
        }
    }

    @Test
    void keyIndexOfARegisteredTableCostsWhatTheFolderTablesCosts()
    {
        getQueryRunner().execute("CALL lake.system.create_key_index('ref', 'indexed', 'device_id')");
        getQueryRunner().execute("CALL lake.system.create_key_index('ref', 'indexed_folder', 'device_id')");
        String lookup = "SELECT event_timestamp, tensao FROM %s WHERE device_id = '%s'";
        String registered = coldCatalog();
        String folder = coldCatalog();
        for (String key : List.of(device(1_777), "dev-55555", device(12))) {
            Multiset<Request> viaRegistry = requests(registered, lookup.formatted(registered + ".ref.indexed", key));
            Multiset<Request> viaFolder = requests(folder, lookup.formatted(folder + ".ref.indexed_folder", key));
            assertThat(dataGets(viaRegistry, "")).as(key).isEqualTo(dataGets(viaFolder, "warehouse/ref/indexed_folder/"));
            if (key.equals(device(1_777))) {
                // cold: the index's pointer and pages were read (warm, they come from the cache)
                assertThat(viaRegistry.stream().filter(request -> request.key().contains("_key_index/"))).as("the index answers: %s", viaRegistry).isNotEmpty();
            }
        }
        assertThat(computeActual("SELECT event_timestamp FROM lake.ref.indexed WHERE device_id = '%s'".formatted(device(1_777))).getOnlyColumnAsSet())
                .containsExactly(1_700_000_001_777L);
    }

    @Test
    void aReadOnlyLakeGetsNothingWritten()
    {
        // the engine's own bucket keeps the registry and the key indexes; the lake's bucket is only read
        String catalog = "read_only";
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, "s3://%s/".formatted(READ_ONLY), Map.of(
                "table-registry.location", "s3://%s/registry/".formatted(ENGINE),
                "key-index.location", "s3://%s/indexes/".formatted(ENGINE))));
        List<String> before = keys(READ_ONLY);
        proxy.reset();
        getQueryRunner().execute("CREATE SCHEMA read_only.telemetry");
        getQueryRunner().execute("CALL read_only.system.register_table('telemetry', 'readings', 's3://%s/')".formatted(READ_ONLY));
        getQueryRunner().execute("CALL read_only.system.create_key_index('telemetry', 'readings', 'device_id')");
        assertThat(computeActual("SELECT event_timestamp FROM read_only.telemetry.readings WHERE device_id = '%s'".formatted(device(1_321))).getOnlyColumnAsSet())
                .containsExactly(1_700_000_001_321L);
        // a table whose bucket root holds partition folders lists no schema year=2026
        assertThat(computeActual("SHOW SCHEMAS FROM read_only").getOnlyColumnAsSet()).contains("telemetry").doesNotContain("year=2026");
        List<CountingProxy.Request> requests = proxy.requests().asList();
        assertThat(requests).filteredOn(request -> !request.method().equals("GET") && !request.method().equals("LIST") && !request.method().equals("HEAD"))
                .isNotEmpty()
                .allSatisfy(request -> assertThat(request.bucket()).as("%s", request).isEqualTo(ENGINE));
        assertThat(requests).as("the index answered from the engine's bucket").anyMatch(request -> request.method().equals("GET") && request.bucket().equals(ENGINE) && request.target().startsWith("indexes/telemetry/readings/_key_index/device_id/"));
        assertThat(keys(READ_ONLY)).isEqualTo(before);
        assertThat(propertiesOf("read_only.telemetry.\"readings$properties\""))
                .containsEntry("registry", "s3://%s/registry/".formatted(ENGINE))
                .containsEntry("key_index_location", "s3://%s/indexes/telemetry/readings/_key_index/".formatted(ENGINE));
        assertThat(computeScalar("SELECT files_covered FROM read_only.telemetry.\"readings$key_index\"")).isEqualTo(2L);
    }

    private List<String> keys(String bucket)
    {
        return client.listObjectsV2(request -> request.bucket(bucket)).contents().stream().map(object -> object.key()).sorted().toList();
    }

    /**
     * The GETs (and their kinds) of objects below {@code prefix}, by key relative to it: data files and key index
     * objects, without the registry.
     */
    private static Multiset<String> dataGets(Multiset<Request> requests, String prefix)
    {
        return requests.stream()
                .filter(request -> request.method().startsWith("GET") && !request.key().startsWith(REGISTRY) && request.key().startsWith(prefix))
                // segments are named by a random UUID when built
                .map(request -> request.method() + " " + request.key().substring(prefix.length()).replaceFirst("[0-9a-f-]{36}\\.kidx$", "<segment>.kidx"))
                .collect(toImmutableMultiset());
    }

    record Request(String method, String bucket, String key) {}

    private String coldCatalog()
    {
        String catalog = "real_" + catalogs.incrementAndGet();
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        return catalog;
    }

    private void assertRequests(String catalog, String sql, Multiset<Request> expected)
    {
        assertThat(requests(catalog, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
    }

    private synchronized Multiset<Request> requests(String catalog, String sql)
    {
        Session session = Session.builder(getSession()).setCatalog(catalog).setSchema("ref").build();
        proxy.reset();
        getQueryRunner().execute(session, sql);
        Function<CountingProxy.Request, Request> classify = request -> {
            String method = request.method().equals("GET") && !request.range().isEmpty() ? "GET_RANGE" : request.method();
            // the check that the store honours conditional PUTs names its probe object uniquely
            return new Request(method, request.bucket(), request.target().replaceFirst("(\\.parquet-bloom-conditional-write-probe-).*", "$1<uuid>"));
        };
        return proxy.requests().stream().map(classify).collect(toImmutableMultiset());
    }
}
