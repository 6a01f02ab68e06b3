package io.parquetbloom.tests;

import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.demo.ScanSummary;
import io.parquetbloom.demo.TrinoEtc;
import io.parquetbloom.demo.TrinoJdbc;
import io.parquetbloom.demo.TrinoServerProcess;
import io.parquetbloom.testing.IcebergFixture;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged plugin directory in a real Trino 483 server process started with the repository's {@code etc/}
 * (ports, paths, endpoint and credentials adjusted), queried through trino-jdbc.
 * <p>
 * Against the docker-compose stack instead: set {@code PARQUET_BLOOM_TRINO_PORT}, {@code PARQUET_BLOOM_S3_ENDPOINT},
 * {@code PARQUET_BLOOM_S3_ACCESS_KEY} and {@code PARQUET_BLOOM_S3_SECRET_KEY}; the test then loads its data into
 * that S3 and queries that Trino.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class TestTrinoServerWithPackagedPlugin
{
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Optional<String> EXTERNAL_PORT = Optional.ofNullable(System.getenv("PARQUET_BLOOM_TRINO_PORT"));

    // secrets of the extra catalogs the secret scan uses: none may appear in any output
    private static final String WRONG_SECRET = "wrong-secret-" + UUID.randomUUID();
    private static final String SSE_CUSTOMER_KEY = Base64.getEncoder().encodeToString(UUID.randomUUID().toString().substring(0, 32).getBytes(StandardCharsets.US_ASCII));
    private static final String EXTERNAL_ID = "external-id-" + UUID.randomUUID();

    private final TestingLake lake = new TestingLake();
    private Path work;
    private TestingS3 s3;
    private TrinoServerProcess trino;
    private TrinoJdbc jdbc;
    private String endpoint;
    private String accessKey;
    private String secretKey;
    private int jmxPort;
    private List<Long> icebergIds;

    @BeforeAll
    void start()
            throws IOException
    {
        work = Files.createTempDirectory("parquet-bloom-server");
        if (EXTERNAL_PORT.isPresent()) {
            endpoint = System.getenv("PARQUET_BLOOM_S3_ENDPOINT");
            accessKey = System.getenv("PARQUET_BLOOM_S3_ACCESS_KEY");
            secretKey = System.getenv("PARQUET_BLOOM_S3_SECRET_KEY");
        }
        else {
            s3 = TestingS3.start("server");
            endpoint = s3.endpoint();
            accessKey = S3ProxyProcess.ACCESS_KEY;
            secretKey = S3ProxyProcess.SECRET_KEY;
        }
        try (S3Client client = S3ProxyProcess.client(endpoint, accessKey, secretKey)) {
            if (EXTERNAL_PORT.isPresent()) {
                try {
                    client.createBucket(request -> request.bucket(TestingLake.BUCKET));
                }
                catch (software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException ignored) {
                    // the docker stack's loader made it
                }
            }
            lake.writeEvents(client, work);
            icebergIds = IcebergFixture.write(client, work, "icefix", "events");
            TestingLake.upload(client, "this is not a parquet file, it only ends like one: PAR1".getBytes(StandardCharsets.US_ASCII), TestingLake.tableKey("damaged", "bad", "part-00000.parquet"));
        }
        if (EXTERNAL_PORT.isPresent()) {
            jdbc = new TrinoJdbc(Integer.parseInt(EXTERNAL_PORT.get()), "lake", "telemetry");
            return;
        }
        Path etc = etcFor(work.resolve("etc"), freePort(), Map.of());
        jmxPort = freePort();
        trino = TrinoServerProcess.start(ROOT.resolve("tests/trino-server"), work, etc, pluginDirectory(), work.resolve("trino.log"), Map.of(
                "com.sun.management.jmxremote.port", Integer.toString(jmxPort),
                "com.sun.management.jmxremote.rmi.port", Integer.toString(jmxPort),
                "com.sun.management.jmxremote.host", "127.0.0.1",
                "com.sun.management.jmxremote.authenticate", "false",
                "com.sun.management.jmxremote.ssl", "false"));
        trino.awaitReady(Duration.ofMinutes(3));
        jdbc = new TrinoJdbc(trino.port(), "lake", "telemetry");
    }

    @AfterAll
    void stop()
    {
        if (trino != null) {
            trino.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void catalogIsListed()
            throws SQLException
    {
        assertThat(jdbc.query("SHOW CATALOGS", Map.of()).stream().map(row -> row.getFirst())).contains("lake");
        assertThat(jdbc.query("SHOW TABLES FROM lake.telemetry", Map.of()).stream().map(row -> row.getFirst())).contains("events");
    }

    @Test
    void lookupsMatchTheOracleAndPruningMoves()
            throws SQLException
    {
        TelemetryRow target = lake.events().get(777);
        String present = "SELECT seq FROM events WHERE device_id = '%s'".formatted(target.deviceId());
        List<Long> seqs = jdbc.query(present, Map.of()).stream().map(row -> (Long) row.getFirst()).sorted().toList();
        assertThat(seqs).isEqualTo(lake.events().stream().filter(row -> row.deviceId().equals(target.deviceId())).map(TelemetryRow::seq).sorted().toList());

        String absent = "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(new UUID(0x8123456789abcdefL, 7));
        assertThat(jdbc.query(absent, Map.of()).getFirst().getFirst()).isEqualTo(0L);
        ScanSummary on = ScanSummary.of(jdbc.metrics(absent, Map.of()));
        ScanSummary off = ScanSummary.of(jdbc.metrics(absent, Map.of("lake.bloom_filter_enabled", "false")));
        int rowGroups = 2 * TestingLake.FILES_PER_REGION * TestingLake.ROW_GROUPS_PER_FILE;
        assertThat(on.rowGroups()).isEqualTo(rowGroups);
        assertThat(on.prunedByBloomFilter()).isEqualTo(rowGroups);
        assertThat(on.filesPrunedBeforeSplits()).isEqualTo(2L * TestingLake.FILES_PER_REGION);
        assertThat(off.prunedByBloomFilter()).isZero();
        assertThat(off.rowGroupsRead()).isEqualTo(rowGroups);
        assertThat(off.bytesRead()).isGreaterThan(on.bytesRead());
    }

    /**
     * An Iceberg table written by Iceberg's own library, read by the packaged plugin (Iceberg's library in the
     * plugin's own class loader): its live rows only, not those of the file a later snapshot removed.
     */
    @Test
    void icebergTableIsReadThroughItsMetadata()
            throws SQLException
    {
        assertThat(jdbc.query("SELECT id FROM lake.icefix.events", Map.of()).stream().map(row -> (Long) row.getFirst()).sorted().toList()).isEqualTo(icebergIds);
        assertThat(jdbc.query("SELECT id FROM lake.icefix.events WHERE device_id = 'dev-150'", Map.of())).isEmpty();
        assertThat(jdbc.query("SELECT id FROM lake.icefix.events WHERE device_id = 'dev-250'", Map.of()).getFirst().getFirst()).isEqualTo(250L);
    }

    @Test
    void jmxBeansAndOpenMetricsMoveWithLookups()
            throws Exception
    {
        assumeTrue(EXTERNAL_PORT.isEmpty(), "only for the native stack");
        String catalogBeans = "trino.plugin.parquetbloom.%s:type=%s,name=lake";
        ObjectName s3 = new ObjectName(catalogBeans.formatted("s3", "S3Stats"));
        ObjectName pruning = new ObjectName(catalogBeans.formatted("pruning", "PruningTotals"));
        ObjectName cache = new ObjectName(catalogBeans.formatted("metadata", "ParquetMetadataCache"));
        ObjectName disk = new ObjectName(catalogBeans.formatted("metadata", "MetadataDiskStore"));
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:%d/jmxrmi".formatted(jmxPort)))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            // an absent key: all 16 row groups pruned by filters, no file read
            String absent = "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(new UUID(0x8123456789abcdefL, 99));
            int files = 2 * TestingLake.FILES_PER_REGION;
            int rowGroups = files * TestingLake.ROW_GROUPS_PER_FILE;
            // the shipped etc/ has the disk tier on: first make sure it holds this table's footers and filters
            assertThat(jdbc.query(absent, Map.of()).getFirst().getFirst()).isEqualTo(0L);
            awaitDiskWrites(server, disk);

            jdbc.execute("CALL lake.system.flush_metadata_cache()");
            assertThat((Long) server.getAttribute(cache, "Entries")).isZero();
            long gets = (Long) server.getAttribute(s3, "GetRequests");
            long lists = (Long) server.getAttribute(s3, "ListRequests");
            long prunedByFilter = (Long) server.getAttribute(pruning, "RowGroupsPrunedByBloomFilter");
            long filesPruned = (Long) server.getAttribute(pruning, "FilesPruned");
            long diskHits = (Long) server.getAttribute(disk, "DiskHits");

            // memory flushed: every footer and device_id filter comes from the disk tier, none from S3
            assertThat(jdbc.query(absent, Map.of()).getFirst().getFirst()).isEqualTo(0L);
            assertThat((Long) server.getAttribute(s3, "GetRequests") - gets).isZero();
            assertThat((Long) server.getAttribute(disk, "DiskHits") - diskHits).isEqualTo(files + rowGroups);
            assertThat((Long) server.getAttribute(s3, "ListRequests") - lists).isPositive();
            assertThat((Long) server.getAttribute(pruning, "RowGroupsPrunedByBloomFilter") - prunedByFilter).isEqualTo(rowGroups);
            assertThat((Long) server.getAttribute(pruning, "FilesPruned") - filesPruned).isEqualTo(files);
            assertThat((Long) server.getAttribute(cache, "FooterEntries")).isEqualTo(files);
            assertThat((Long) server.getAttribute(cache, "BloomFilterEntries")).isPositive();
            assertThat((Long) server.getAttribute(disk, "DiskCorruptEntries")).isZero();

            // again, warm: memory answers, neither S3 nor the disk
            jdbc.query(absent, Map.of());
            assertThat((Long) server.getAttribute(s3, "GetRequests") - gets).isZero();
            assertThat((Long) server.getAttribute(disk, "DiskHits") - diskHits).isEqualTo(files + rowGroups);
            assertThat((Long) server.getAttribute(pruning, "RowGroupsPrunedByBloomFilter") - prunedByFilter).isEqualTo(2L * rowGroups);

            // the same numbers on the OpenMetrics endpoint, as Prometheus scrapes them
            Map<String, Double> metrics = openMetrics();
            assertThat(metrics.get("JMX_trino_plugin_parquetbloom_s3_NAME_lake_TYPE_S3Stats_ATTRIBUTE_GetRequests")).isEqualTo((double) (Long) server.getAttribute(s3, "GetRequests"));
            assertThat(metrics.get("JMX_trino_plugin_parquetbloom_pruning_NAME_lake_TYPE_PruningTotals_ATTRIBUTE_RowGroupsPrunedByBloomFilter")).isEqualTo((double) (Long) server.getAttribute(pruning, "RowGroupsPrunedByBloomFilter"));
            assertThat(metrics.get("JMX_trino_plugin_parquetbloom_metadata_NAME_lake_TYPE_ParquetMetadataCache_ATTRIBUTE_FooterEntries")).isEqualTo(files);
            assertThat(metrics.get("JMX_trino_plugin_parquetbloom_metadata_NAME_lake_TYPE_MetadataDiskStore_ATTRIBUTE_DiskHits")).isEqualTo((double) (Long) server.getAttribute(disk, "DiskHits"));

            // a flush of one table drops its entries from memory, and the next lookup finds them on disk again
            jdbc.execute("CALL lake.system.flush_metadata_cache(schema_name => 'telemetry', table_name => 'events')");
            assertThat((Long) server.getAttribute(cache, "FooterEntries")).isZero();
            jdbc.query(absent, Map.of());
            assertThat((Long) server.getAttribute(s3, "GetRequests") - gets).isZero();
            assertThat((Long) server.getAttribute(disk, "DiskHits") - diskHits).isEqualTo(2L * (files + rowGroups));
        }
    }

    @Test
    void cliOfTheDemoTalksToTheServer()
            throws Exception
    {
        assumeTrue(EXTERNAL_PORT.isEmpty(), "only for the native stack");
        // ./run cli fetches the newest trino-cli from Maven Central once (into .work/cli) and opens it on the server
        ProcessBuilder cli = new ProcessBuilder(ROOT.resolve("run").toString(), "cli", "--execute", "SELECT count(*) FROM events WHERE region = 'eu'")
                .directory(ROOT.toFile())
                .redirectErrorStream(true);
        cli.environment().put("PARQUET_BLOOM_TRINO_PORT", Integer.toString(trino.port()));
        Process process = cli.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        long eu = lake.events().stream().filter(row -> row.region().equals("eu")).count();
        assertThat(output).contains("\"%d\"".formatted(eu)).contains("catalog lake, schema telemetry");
    }

    /**
     * The disk tier writes in the background: wait until its entry count holds still.
     */
    private static void awaitDiskWrites(MBeanServerConnection server, ObjectName disk)
            throws Exception
    {
        long previous = -1;
        for (int attempt = 0; attempt < 100; attempt++) {
            long writes = (Long) server.getAttribute(disk, "DiskWrites");
            if (writes == previous) {
                return;
            }
            previous = writes;
            Thread.sleep(300);
        }
        throw new AssertionError("disk tier writes did not settle");
    }

    private Map<String, Double> openMetrics()
            throws IOException, InterruptedException
    {
        HttpResponse<String> response;
        try (HttpClient client = HttpClient.newHttpClient()) {
            response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:%d/metrics".formatted(trino.port())))
                    .header("X-Trino-User", "test")
                    .build(), HttpResponse.BodyHandlers.ofString());
        }
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Double> metrics = new HashMap<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("JMX_trino_plugin_parquetbloom_")) {
                String[] parts = line.split(" ");
                metrics.put(parts[0], Double.parseDouble(parts[1]));
            }
        }
        return metrics;
    }

    @Test
    void probesAreCountedByTheKernelTheServerChose()
            throws SQLException
    {
        // an absent key: the coordinator probes one filter per row group
        String absent = "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(new UUID(0x8123456789abcdefL, 99));
        Map<String, Long> metrics = jdbc.metrics(absent, Map.of());
        int rowGroups = 2 * TestingLake.FILES_PER_REGION * TestingLake.ROW_GROUPS_PER_FILE;
        long probed = metrics.get("planningBloomFiltersProbed");
        long vectorProbes = metrics.get("planningBloomFilterVectorProbes");
        assertThat(probed).isEqualTo(rowGroups);
        if (trino != null) {
            // the kernel is the server's choice (its JVM flags, its CPU), which it logs at catalog creation
            boolean serverUsesVector = trino.log().contains("bloom filter probe vector");
            assertThat(serverUsesVector || trino.log().contains("bloom filter probe scalar")).isTrue();
            assertThat(vectorProbes).isEqualTo(serverUsesVector ? probed : 0);
        }
        else {
            assertThat(vectorProbes).isIn(0L, probed);
        }
    }

    /**
     * Good and failing queries through every catalog, and everything a user or operator can read back: no secret in
     * results, errors, plans, metrics, the catalog list or the server log.
     */
    @Test
    void secretsAppearNowhere()
            throws SQLException
    {
        assumeTrue(EXTERNAL_PORT.isEmpty(), "only for the native stack");
        String lookup = "SELECT count(*) FROM %s.telemetry.events WHERE device_id = '%s'".formatted("%s", lake.events().get(5).deviceId());
        StringBuilder seen = new StringBuilder();
        List<String> statements = List.of(
                lookup.formatted("lake"),
                "EXPLAIN " + lookup.formatted("lake"),
                "EXPLAIN ANALYZE " + lookup.formatted("lake"),
                "EXPLAIN ANALYZE VERBOSE " + lookup.formatted("lake"),
                "SHOW CREATE TABLE lake.telemetry.events",
                "SELECT * FROM lake.damaged.bad",
                lookup.formatted("wrong_key"),
                "SHOW SCHEMAS FROM wrong_key",
                lookup.formatted("no_bucket"),
                "SHOW SCHEMAS FROM no_bucket",
                lookup.formatted("sse_c"),
                lookup.formatted("assumed_role"),
                "SHOW TABLES FROM assumed_role.telemetry",
                "SELECT * FROM system.metadata.catalogs",
                "SELECT query, state, error_type, error_code FROM system.runtime.queries",
                "SELECT * FROM system.metadata.table_properties",
                "SELECT * FROM system.metadata.schema_properties");
        int failures = 0;
        for (String statement : statements) {
            seen.append(statement).append('\n');
            try {
                jdbc.query(statement, Map.of()).forEach(row -> seen.append(row).append('\n'));
            }
            catch (SQLException e) {
                failures++;
                for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                    seen.append(cause).append('\n');
                }
            }
        }
        // the bad file, the wrong key, the missing bucket, SSE-C over plain HTTP or refused, and STS all fail
        assertThat(failures).as(seen.toString()).isGreaterThanOrEqualTo(6);
        assertThat(seen.toString())
                .contains("PARQUET_BLOOM_BAD_DATA").contains("damaged/bad/part-00000.parquet")
                .contains("PARQUET_BLOOM_S3_ACCESS_DENIED").contains("STS refused to assume s3.iam-role")
                .contains("PARQUET_BLOOM_BUCKET_NOT_FOUND");
        String log = trino.log();
        for (String secret : List.of(secretKey, WRONG_SECRET, SSE_CUSTOMER_KEY, EXTERNAL_ID)) {
            assertThat(seen.toString()).as("query output").doesNotContain(secret);
            assertThat(log).as("server log").doesNotContain(secret);
        }
        // the configuration dump at start-up names the secret properties without their values
        assertThat(log).contains("s3.aws-secret-key").contains("s3.sse.customer-key").contains("s3.external-id");
    }

    @Test
    void badCatalogPropertyFailsTheServerStartNamingIt()
            throws IOException
    {
        assumeTrue(EXTERNAL_PORT.isEmpty(), "only for the native stack");
        Path badWork = work.resolve("bad");
        Path etc = etcFor(badWork.resolve("etc"), freePort(), Map.of("bloom-filter.max-values", "0"));
        try (TrinoServerProcess bad = TrinoServerProcess.start(ROOT.resolve("tests/trino-server"), badWork, etc, pluginDirectory(), badWork.resolve("trino.log"), Map.of())) {
            assertThat(bad.awaitExit(Duration.ofMinutes(3))).isNotZero();
            assertThat(bad.log()).contains("bloom-filter.max-values").doesNotContain(secretKey);
        }
    }

    /**
     * The repository's etc/ with this test's port, data folder, S3 endpoint and credentials, and catalogs that fail
     * in the ways secrets leak: a wrong secret key, a bucket that does not exist, SSE-C with a key, an IAM role with
     * an external ID that STS refuses.
     */
    private Path etcFor(Path etc, int port, Map<String, String> catalogOverrides)
            throws IOException
    {
        Map<String, String> catalog = new HashMap<>(Map.of(
                "s3.endpoint", endpoint,
                "s3.aws-access-key", accessKey,
                "s3.aws-secret-key", secretKey,
                "location", TestingLake.ROOT));
        catalog.putAll(catalogOverrides);
        return TrinoEtc.write(ROOT, etc, port, catalog, Map.of(
                "wrong_key", Map.of("s3.aws-secret-key", WRONG_SECRET),
                "no_bucket", Map.of("location", "s3://no-such-bucket-" + UUID.randomUUID() + "/warehouse/"),
                "sse_c", Map.of("s3.sse.type", "CUSTOMER", "s3.sse.customer-key", SSE_CUSTOMER_KEY),
                "assumed_role", Map.of("s3.iam-role", "arn:aws:iam::123456789012:role/lake-reader", "s3.external-id", EXTERNAL_ID, "s3.sts.endpoint", endpoint, "s3.sts.region", "us-east-1")));
    }

    private Path pluginDirectory()
            throws IOException
    {
        return TrinoEtc.pluginDirectory(ROOT, work);
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
