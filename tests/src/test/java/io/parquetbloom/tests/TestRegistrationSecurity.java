package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.spi.security.Identity;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a catalog administrator gets without turning anything on, and what a registration may point to once
 * {@code register_table} is on: locations inside the allow-list, never a second name for another table's files, never
 * a folder of a table format, never a schema created on the way. And listing by partition of a registered bucket
 * root whose partitions sit below a plain folder, over many listing pages, answering as the whole listing does.
 */
final class TestRegistrationSecurity
        extends AbstractTestQueryFramework
{
    private static final String OTHER = "other-lake";
    private static final String FIREHOSE = "firehose-lake";
    private static final String MONTHS = "months-lake";
    private static final String SCHEMA = "message m { required int64 id; required int64 v; }";
    private static final int ROWS = 10;

    private S3Client client;
    private Path work;
    private String endpoint;
    private CountingProxy proxy;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("registration"));
        work = s3.work();
        endpoint = s3.endpoint();
        client = closeAfterClass(s3.client());
        for (String bucket : List.of(OTHER, FIREHOSE, MONTHS)) {
            client.createBucket(request -> request.bucket(bucket));
        }
        put(TestingLake.BUCKET, "warehouse/telemetry/events/part-0.parquet", file("events", 0));
        put(TestingLake.BUCKET, "warehouse/lonely/README.md", "a schema folder without tables".getBytes(StandardCharsets.UTF_8));
        // Firehose's layout: partitions below a plain folder at a bucket root, 30 files in 15 listing pages of 2
        for (int n = 0; n < 15; n++) {
            put(FIREHOSE, "raw/n=%d/part-0.parquet".formatted(n), file("raw-a", n));
            put(FIREHOSE, "raw/n=%d/part-1.parquet".formatted(n), file("raw-b", n));
        }
        // an archive/ folder beside the partitions, 21 files in 11 pages
        for (int month = 1; month <= 20; month++) {
            put(MONTHS, "month=%d/part-0.parquet".formatted(month), file("months", month));
        }
        put(MONTHS, "archive/month=3/part-0.parquet", file("archive", 3));
        put(OTHER, "moving/part-0.parquet", file("moving", 9));
        put(OTHER, "month=3/part-0.parquet", file("month-3", 3));
        put(OTHER, "month=4/part-0.parquet", file("month-4", 4));
        // folders of table formats, registered in part
        put(OTHER, "delta_t/_delta_log/00000000000000000000.json", "{}".getBytes(StandardCharsets.UTF_8));
        put(OTHER, "delta_t/p=1/part-0.parquet", file("delta", 1));
        put(OTHER, "ice/metadata/00001-a.metadata.json.gz", "{}".getBytes(StandardCharsets.UTF_8));
        put(OTHER, "ice/data/00000-0-a.parquet", file("ice", 1));
        put(OTHER, "hudi/p=1/.hoodie_partition_metadata", "#".getBytes(StandardCharsets.UTF_8));
        put(OTHER, "hudi/p=1/f1_1-0-1_20260301.parquet", file("hudi", 1));
        put(OTHER, "acid/base_0000005/bucket_00000", file("acid", 1));
        put(OTHER, "stream/_spark_metadata/0", "v1".getBytes(StandardCharsets.UTF_8));
        put(OTHER, "stream/n=1/part-0.parquet", file("stream", 1));
        // an Iceberg table whose partition spec evolved: its data folders disagree on the partition columns
        put(OTHER, "evolved/metadata/v2.metadata.json", "{}".getBytes(StandardCharsets.UTF_8));
        put(OTHER, "evolved/data/day=1/part-0.parquet", file("evolved-day", 1));
        put(OTHER, "evolved/data/day=1/hour=2/part-0.parquet", file("evolved-hour", 2));
        put(OTHER, "alt/part-0.parquet", LakeFiles.parquet(work, "alt.parquet", "message m { required int64 other_column; }", List.<Object[]>of(new Object[] {7L}), ROWS, Set.of()));

        QueryRunner runner = ParquetBloomQueryRunner.builder().withLake(s3).build();
        runner.createCatalog("closed", "parquet_bloom", defaults());
        // the catalog's own rules: alice may not read telemetry.events, everyone may read everything else
        Path rules = work.resolve("guarded-rules.json");
        Files.writeString(rules, """
                {"tables": [{"user": "alice", "schema": "telemetry", "table": "events", "privileges": []}, {"privileges": ["SELECT", "OWNERSHIP"]}]}
                """);
        runner.createCatalog("guarded", "parquet_bloom", ImmutableMap.<String, String>builder()
                .putAll(defaults())
                .put("security", "FILE")
                .put("security.config-file", rules.toString())
                .buildOrThrow());
        runner.createCatalog("default_list", "parquet_bloom", withRegistration(Map.of()));
        proxy = closeAfterClass(CountingProxy.inFrontOf(endpoint, 0));
        runner.createCatalog("counted", "parquet_bloom", withRegistration(Map.of(
                "s3.endpoint", proxy.endpoint(),
                "register-table-procedure.allowed-locations", "*",
                "s3.list-page-size", "2")));
        for (String catalog : List.of("strict", "strict_peer")) {
            runner.createCatalog(catalog, "parquet_bloom", withRegistration(Map.of(
                    "register-table-procedure.allowed-locations", "s3://lake/,s3://%s/,s3://%s/,s3://%s/".formatted(OTHER, FIREHOSE, MONTHS),
                    "s3.list-page-size", "2")));
        }
        return runner;
    }

    private byte[] file(String name, long n)
    {
        List<Object[]> rows = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            rows.add(new Object[] {id, n});
        }
        return LakeFiles.parquet(work, name + "-" + n + ".parquet", SCHEMA, rows, ROWS, Set.of());
    }

    private void put(String bucket, String key, byte[] bytes)
    {
        client.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }

    /**
     * A catalog file that never mentions registration.
     */
    private Map<String, String> defaults()
    {
        Map<String, String> properties = new HashMap<>(ParquetBloomQueryRunner.catalogProperties(endpoint, S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        properties.keySet().removeIf(name -> name.startsWith("register-table-procedure."));
        return properties;
    }

    private Map<String, String> withRegistration(Map<String, String> extra)
    {
        return ImmutableMap.<String, String>builder()
                .putAll(defaults())
                .put("register-table-procedure.enabled", "true")
                .putAll(extra)
                .buildKeepingLast();
    }

    /**
     * A metadata table is checked as its table: a user the catalog's rules keep from {@code events} may not read what
     * {@code "events$properties"} or {@code "events$bloom_filters"} tell of it either (before, they were checked under
     * their own {@code $} names, which rules naming the table did not cover).
     */
    @Test
    void metadataTablesAreCheckedAsTheirTable()
    {
        Session alice = Session.builder(getSession()).setIdentity(Identity.ofUser("alice")).build();
        Session bob = Session.builder(getSession()).setIdentity(Identity.ofUser("bob")).build();
        assertThatThrownBy(() -> getQueryRunner().execute(alice, "SELECT count(*) FROM guarded.telemetry.events"))
                .hasMessageContaining("Access Denied");
        for (String metadataTable : List.of("events$properties", "events$bloom_filters")) {
            assertThatThrownBy(() -> getQueryRunner().execute(alice, "SELECT count(*) FROM guarded.telemetry.\"%s\"".formatted(metadataTable)))
                    .as(metadataTable)
                    .hasMessageContaining("Access Denied")
                    .hasMessageContaining("Cannot select from table telemetry.%s".formatted(metadataTable));
            assertThat((long) getQueryRunner().execute(bob, "SELECT count(*) FROM guarded.telemetry.\"%s\"".formatted(metadataTable)).getOnlyValue()).isPositive();
        }
        assertThat(getQueryRunner().execute(bob, "SELECT count(*) FROM guarded.telemetry.events").getOnlyValue()).isEqualTo((long) ROWS);
    }

    @Test
    void registrationIsOffUnlessTheCatalogTurnsItOn()
    {
        assertThatThrownBy(() -> computeActual("CALL closed.system.register_table('telemetry', 'alias', 's3://lake/warehouse/telemetry/events/')"))
                .hasMessageContaining("register_table procedure is disabled")
                .hasMessageContaining("register-table-procedure.enabled=true");
        assertThatThrownBy(() -> computeActual("CREATE SCHEMA closed.never_created"))
                .hasMessageContaining("register-table-procedure.enabled=false");
        assertThat(computeActual("SHOW TABLES FROM closed.telemetry").getOnlyColumnAsSet()).containsExactly("events");
    }

    @Test
    void aSecondNameForAnotherTablesFilesIsRefused()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.sandbox");
        // the table itself, a folder inside it, the schema folder holding it, the lake's root
        for (String location : List.of("s3://lake/warehouse/telemetry/events/", "s3://lake/warehouse/telemetry/", "s3://lake/warehouse/", "s3://lake/")) {
            assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('sandbox', 'alias', '%s')".formatted(location)))
                    .as(location)
                    .hasMessageContaining("Cannot register sandbox.alias")
                    .hasMessageContaining("register-table-procedure.allow-aliases=true");
        }
        // a registered table's location, inside or around it
        computeActual("CALL strict.system.register_table('sandbox', 'months', 's3://%s/month=3/')".formatted(OTHER));
        assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('sandbox', 'alias', 's3://%s/')".formatted(OTHER)))
                .hasMessageContaining("sandbox.months");
        assertThat(computeActual("SHOW TABLES FROM strict.sandbox").getOnlyColumnAsSet()).doesNotContain("alias");
        computeActual("CALL strict.system.unregister_table('sandbox', 'months')");
    }

    @Test
    void locationsOutsideTheAllowListAreRefused()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.allowed");
        // the default allow-list is the catalog's location: another bucket is refused by a catalog that lists none
        assertThatThrownBy(() -> computeActual("CALL default_list.system.register_table('allowed', 'y', 's3://%s/raw/')".formatted(FIREHOSE)))
                .hasMessageContaining("s3://firehose-lake/raw/ is outside the locations registered tables may be at (register-table-procedure.allowed-locations");
        assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('allowed', 'evil', 's3://%s/raw/../../lake/warehouse/telemetry/events/')".formatted(FIREHOSE)))
                .hasMessageContaining("cannot be empty, '.' or '..'");
        assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('..', 'evil', 's3://%s/raw/')".formatted(FIREHOSE)))
                .hasMessageContaining("'..' cannot be a schema name");
    }

    /**
     * A registry entry is read with a bound: an object larger than a registration can be is refused, not held.
     */
    @Test
    void anOversizedRegistryEntryIsRefusedNotRead()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.oversized");
        put(TestingLake.BUCKET, "warehouse/_parquet_bloom_registry/oversized/huge.json", new byte[(1 << 20) + 1]);
        assertThatThrownBy(() -> computeActual("SELECT * FROM strict.oversized.huge"))
                .hasMessageContaining("Object s3://lake/warehouse/_parquet_bloom_registry/oversized/huge.json is larger than 1048576 bytes");
        client.deleteObject(request -> request.bucket(TestingLake.BUCKET).key("warehouse/_parquet_bloom_registry/oversized/huge.json"));
    }

    @Test
    void aRegistrationNeverCreatesASchema()
    {
        assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('nowhere', 't', 's3://%s/month=4/')".formatted(OTHER)))
                .hasMessageContaining("Schema nowhere does not exist; a registration never creates one");
        assertThat(computeActual("SHOW SCHEMAS FROM strict").getOnlyColumnAsSet()).doesNotContain("nowhere");
        computeActual("CREATE SCHEMA strict.dropped");
        assertThat(computeActual("SHOW SCHEMAS FROM strict").getOnlyColumnAsSet()).contains("dropped");
        computeActual("CALL strict.system.register_table('dropped', 't', 's3://%s/month=4/')".formatted(OTHER));
        // Trino itself refuses a schema that lists tables
        assertThatThrownBy(() -> computeActual("DROP SCHEMA strict.dropped")).hasMessageContaining("Cannot drop non-empty schema 'dropped'");
        computeActual("CALL strict.system.unregister_table('dropped', 't')");
        computeActual("DROP SCHEMA strict.dropped");
        assertThat(computeActual("SHOW SCHEMAS FROM strict").getOnlyColumnAsSet()).doesNotContain("dropped");
        // a schema the layout finds (a folder of the lake, here without tables) is not the registry's to drop
        assertThatThrownBy(() -> computeActual("DROP SCHEMA strict.lonely")).hasMessageContaining("is the folder s3://lake/warehouse/lonely/ of the lake");
    }

    @Test
    void aFolderInsideATableFormatIsRefused()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.formats");
        Map<String, String> refused = Map.of(
                "delta_t/p=1/", "is a Delta Lake table",
                "ice/data/", "is an Iceberg table",
                "hudi/p=1/", "is a Hudi table",
                "acid/base_0000005/", "is a Hive transactional table",
                "stream/n=1/", "is a Spark structured streaming sink table",
                // read through its metadata (here not Iceberg's), not refused for the partition folders its evolved
                // spec left
                "evolved/", "cannot read metadata file s3://%s/evolved/metadata/v2.metadata.json".formatted(OTHER));
        refused.forEach((folder, message) -> assertThatThrownBy(() -> computeActual("CALL strict.system.register_table('formats', 't', 's3://%s/%s')".formatted(OTHER, folder)))
                .as(folder)
                .hasMessageContaining(message));
        assertThat(computeActual("SHOW TABLES FROM strict.formats").getOnlyColumnAsSet()).isEmpty();
    }

    /**
     * Registering a bucket root of 30 files in 15 listing pages looks at its first 4 pages, not all of them (a bucket
     * root may hold millions of objects); what lies past them is checked by every query's listing.
     */
    @Test
    void registrationListsABoundedPartOfTheLocation()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS counted.bounded");
        proxy.reset();
        computeActual("CALL counted.system.register_table('bounded', 'raw', 's3://%s/')".formatted(FIREHOSE));
        assertThat(proxy.requests().stream().filter(request -> request.bucket().equals(FIREHOSE)).map(CountingProxy.Request::method).toList())
                .containsExactly("LIST", "LIST", "LIST", "LIST");
        assertThat(computeScalar("SELECT count(*) FROM counted.bounded.raw")).isEqualTo(30L * ROWS);
        computeActual("CALL counted.system.unregister_table('bounded', 'raw')");
        // a location whose first pages hold no data file is refused, naming how far it looked
        for (int i = 0; i < 9; i++) {
            put(OTHER, "logs/%02d.txt".formatted(i), "log".getBytes(StandardCharsets.UTF_8));
        }
        put(OTHER, "logs/zz/part-0.parquet", file("late", 1));
        assertThatThrownBy(() -> computeActual("CALL counted.system.register_table('bounded', 'logs', 's3://%s/logs/')".formatted(OTHER)))
                .hasMessageContaining("no data file among the first 8 objects of s3://%s/logs/".formatted(OTHER));
    }

    /**
     * A bucket root whose partitions sit below {@code raw/}, over 15 listing pages: the first query learns the shape
     * from the whole listing, every later one lists only the partitions it selects, and each answers as the whole
     * listing would (before, every {@code n = K} lookup after the first query answered 0 rows).
     */
    @Test
    void partitionsBelowAPlainFolderAnswerEveryTime()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.firehose");
        computeActual("CALL strict.system.register_table('firehose', 'raw', 's3://%s/')".formatted(FIREHOSE));
        computeActual("CALL strict.system.register_table('firehose', 'months', 's3://%s/')".formatted(MONTHS));
        assertThat(computeScalar("SELECT count(*) FROM strict.firehose.raw")).isEqualTo(30L * ROWS);
        for (long n = 0; n < 15; n++) {
            assertThat(computeScalar("SELECT count(*) FROM strict.firehose.raw WHERE n = %d".formatted(n))).as("n = %d", n).isEqualTo(2L * ROWS);
            assertThat(computeScalar("SELECT sum(v) FROM strict.firehose.raw WHERE n = %d AND id = 3".formatted(n))).isEqualTo(2 * n);
        }
        assertThat(computeScalar("SELECT count(*) FROM strict.firehose.months")).isEqualTo(21L * ROWS);
        for (int query = 0; query < 3; query++) {
            assertThat(computeScalar("SELECT count(*) FROM strict.firehose.months WHERE month = 3")).isEqualTo(2L * ROWS);
            assertThat(computeScalar("SELECT count(*) FROM strict.firehose.months WHERE month IN (3, 4)")).isEqualTo(3L * ROWS);
        }
        computeActual("CALL strict.system.unregister_table('firehose', 'raw')");
        computeActual("CALL strict.system.unregister_table('firehose', 'months')");
    }

    /**
     * Another coordinator (here another catalog over the same registry) re-registers a name at another location: this
     * one reads the new location's columns at once, not the shape it cached for the old one.
     */
    @Test
    void aNameRegisteredElsewhereIsReadWithItsNewColumns()
    {
        computeActual("CREATE SCHEMA IF NOT EXISTS strict.moving");
        computeActual("CALL strict.system.register_table('moving', 't', 's3://%s/moving/')".formatted(OTHER));
        assertThat(computeScalar("SELECT sum(v) FROM strict_peer.moving.t")).isEqualTo(9L * ROWS);
        computeActual("CALL strict.system.unregister_table('moving', 't')");
        computeActual("CALL strict.system.register_table('moving', 't', 's3://%s/alt/')".formatted(OTHER));
        assertThat(computeScalar("SELECT sum(other_column) FROM strict_peer.moving.t")).isEqualTo(7L);
        computeActual("CALL strict.system.unregister_table('moving', 't')");
    }
}
