package io.parquetbloom.demo;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code ./run demo}: the embedded S3 server, the demo dataset, a real Trino 483 server with the packaged plugin,
 * sample point lookups with and without bloom filters, then the server stays up for the user's clients.
 * Every step says what it does; a failure names the step, the cause and the log to read.
 */
public final class Demo
{
    private static final PrintStream OUT = System.out;

    private Demo() {}

    public static void main(String[] args)
            throws Exception
    {
        Path root = Path.of(System.getProperty("parquetbloom.root", ".")).toAbsolutePath().normalize();
        boolean detach = false;
        DemoDataset.Scale scale = DemoDataset.DEFAULT_SCALE;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--detach" -> detach = true;
                case "--files" -> scale = new DemoDataset.Scale(Integer.parseInt(args[++i]), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), scale.devices());
                case "--row-groups" -> scale = new DemoDataset.Scale(scale.files(), Integer.parseInt(args[++i]), scale.rowsPerRowGroup(), scale.devices());
                case "--rows-per-row-group" -> scale = new DemoDataset.Scale(scale.files(), scale.rowGroupsPerFile(), Integer.parseInt(args[++i]), scale.devices());
                default -> fail("arguments", "unknown argument " + args[i] + " (known: --detach, --files N, --row-groups N, --rows-per-row-group N)", null);
            }
        }
        Path work = root.resolve(".work/demo");
        Path logs = work.resolve("logs");
        Files.createDirectories(logs);

        // step 2: S3
        Properties catalog = new Properties();
        try (var reader = Files.newBufferedReader(root.resolve("etc/catalog/lake.properties"))) {
            catalog.load(reader);
        }
        URI endpoint = URI.create(catalog.getProperty("s3.endpoint"));
        String accessKey = catalog.getProperty("s3.aws-access-key");
        String secretKey = catalog.getProperty("s3.aws-secret-key");
        URI location = URI.create(catalog.getProperty("location"));
        String bucket = location.getHost();
        String rootKey = location.getPath().replaceFirst("^/", "");
        step(2, "starting the embedded S3 server (S3Proxy 4.1.0) on %s, data in %s, log %s".formatted(endpoint, work.resolve("s3"), logs.resolve("s3proxy.log")));
        if (!portFree(endpoint.getPort())) {
            fail("2 (S3 server)", "port %d is in use: a demo may still be running (./run stop) or another program holds it".formatted(endpoint.getPort()), null);
        }
        S3ProxyProcess s3;
        try {
            s3 = S3ProxyProcess.start(logs, endpoint.getPort(), accessKey, secretKey, Optional.of(work.resolve("s3")));
        }
        catch (RuntimeException e) {
            fail("2 (S3 server)", e.getMessage(), logs.resolve("s3proxy.log"));
            return;
        }
        Files.writeString(work.resolve("s3proxy.pid"), Long.toString(s3.pid()));

        // step 3: data
        try (S3Client client = s3.client()) {
            boolean exists = true;
            try {
                client.headBucket(request -> request.bucket(bucket));
            }
            catch (NoSuchBucketException e) {
                exists = false;
            }
            catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                exists = e.statusCode() != 404;
            }
            if (!exists) {
                client.createBucket(request -> request.bucket(bucket));
            }
            String tablePrefix = "%s%s/%s/".formatted(rootKey, DemoDataset.SCHEMA, DemoDataset.TABLE);
            // hidden from the table (a leading underscore): marks a dataset of the current layout
            String marker = tablePrefix + "_demo-dataset-v2";
            boolean current = !client.listObjectsV2(request -> request.bucket(bucket).prefix(marker).maxKeys(1)).contents().isEmpty();
            if (!current) {
                for (var object : client.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(tablePrefix)).contents()) {
                    client.deleteObject(request -> request.bucket(bucket).key(object.key()));
                }
                step(3, "generating the demo dataset: %d files x %d row groups x %,d rows into s3://%s/%s".formatted(scale.files(), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), bucket, tablePrefix));
                DemoDataset.write(client, bucket, rootKey, scale, work.resolve("generate"), OUT);
                client.putObject(request -> request.bucket(bucket).key(marker), software.amazon.awssdk.core.sync.RequestBody.fromString(scale.toString()));
            }
            else {
                step(3, "dataset already in s3://%s/%s (delete .work/demo/s3 to generate it again)".formatted(bucket, tablePrefix));
            }
        }

        // step 4: Trino
        Path trinoLog = logs.resolve("trino.log");
        step(4, "starting Trino 483 on 127.0.0.1:8080 with etc/ and the plugin in .work/demo/plugin, log %s".formatted(trinoLog));
        TrinoServerProcess trino = TrinoServerProcess.start(root.resolve("tests/trino-server"), root, root.resolve("etc"), work.resolve("plugin"), trinoLog, Map.of());
        Files.writeString(work.resolve("trino.pid"), Long.toString(trino.pid()));
        try {
            trino.awaitReady(Duration.ofMinutes(3));
        }
        catch (IllegalStateException e) {
            s3.close();
            fail("4 (Trino server)", e.getMessage(), trinoLog);
        }
        OUT.println("[demo]   Trino is up: " + trino.log().lines().filter(line -> line.contains("bloom filter probe")).findFirst().map(line -> line.replaceAll("\u001B\\[[;\\d]*m", "").replaceFirst("^.*Catalog", "catalog").trim()).orElse("(probe choice not logged)"));

        // step 5: lookups
        step(5, "sample point lookups");
        TrinoJdbc jdbc = new TrinoJdbc(trino.port(), "lake", DemoDataset.SCHEMA);
        String present = (String) jdbc.query("SELECT device_id FROM events LIMIT 1", Map.of()).getFirst().getFirst();
        String absent = DemoDataset.deviceId(-1);
        for (String device : List.of(present, absent)) {
            String sql = "SELECT device_id, trace_id, voltage, event_timestamp FROM events WHERE device_id = '%s'".formatted(device);
            OUT.printf("%n[demo]   %s%n", sql);
            // the second run with filters shows the warm metadata cache
            for (String mode : List.of("on", "on, warm", "off")) {
                boolean bloom = !mode.equals("off");
                // "off" is the connector without any help from filters: no bloom filters, no no-match cache
                Map<String, String> session = Map.of("lake.bloom_filter_enabled", Boolean.toString(bloom), "lake.no_match_cache_enabled", Boolean.toString(bloom));
                long start = System.nanoTime();
                List<List<Object>> rows = jdbc.query(sql, session);
                long millis = (System.nanoTime() - start) / 1_000_000;
                ScanSummary scan = ScanSummary.of(jdbc.metrics(sql, session));
                OUT.printf("[demo]   bloom filters %-8s: %d rows in %,d ms | row groups %d, pruned by statistics %d, pruned by bloom filter %d, by no-match cache %d, read %d | files skipped before splits %d | S3 GETs %d, %,d bytes%n",
                        mode, rows.size(), millis,
                        scan.rowGroups(), scan.prunedByStatistics(), scan.prunedByBloomFilter(), scan.prunedByNoMatchCache(), scan.rowGroupsRead(), scan.filesPrunedBeforeSplits(),
                        scan.getRequests(), scan.bytesRead());
                if (mode.equals("on")) {
                    rows.stream().limit(5).forEach(row -> OUT.println("[demo]     " + row));
                }
            }
        }

        // step 6: the writers' mistakes, found by the advice
        step(6, "lookups on keys a writer got wrong: serial (filter sized for 1/50 of its values) and session_id (no filter)");
        List<List<Object>> sample = jdbc.query("SELECT serial, session_id FROM events WHERE device_id = '%s'".formatted(present), Map.of());
        List<String> serialLookups = List.of((String) sample.getFirst().get(0), DemoDataset.serial(10_000_000_001L), DemoDataset.serial(10_000_000_002L));
        List<String> sessionLookups = List.of((String) sample.getFirst().get(1), DemoDataset.deviceId(-3), DemoDataset.deviceId(-4));
        for (int i = 0; i < serialLookups.size(); i++) {
            for (String sql : List.of(
                    "SELECT device_id, serial FROM events WHERE serial = '%s'".formatted(serialLookups.get(i)),
                    "SELECT device_id, session_id FROM events WHERE session_id = '%s'".formatted(sessionLookups.get(i)))) {
                OUT.printf("%n[demo]   %s%n", sql);
                for (String mode : List.of("on", "off")) {
                    // the no-match cache off: what the filters alone do
                    Map<String, String> session = Map.of("lake.bloom_filter_enabled", Boolean.toString(mode.equals("on")), "lake.no_match_cache_enabled", "false");
                    long start = System.nanoTime();
                    List<List<Object>> rows = jdbc.query(sql, session);
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    ScanSummary scan = ScanSummary.of(jdbc.metrics(sql, session));
                    OUT.printf("[demo]   bloom filters %-3s: %d rows in %,d ms | row groups %d, pruned by bloom filter %d, read %d | S3 GETs %d, %,d bytes%n",
                            mode, rows.size(), millis, scan.rowGroups(), scan.prunedByBloomFilter(), scan.rowGroupsRead(), scan.getRequests(), scan.bytesRead());
                }
            }
        }
        String adviceSql = "SELECT column_name, verdict, reason, parquet_java_settings FROM \"events$bloom_filter_advice\"";
        OUT.printf("%n[demo]   %s%n", adviceSql);
        for (List<Object> row : jdbc.query(adviceSql, Map.of())) {
            OUT.printf("[demo]     %-15s %s: %s%n", row.get(0), row.get(1), row.get(2));
            if (row.get(3) != null) {
                OUT.printf("[demo]     %-15s parquet-java/Spark: %s%n", "", row.get(3));
            }
        }
        OUT.println("[demo]   why a lookup read what it read: SELECT * FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'serial', value => '...'))");

        // step 7
        step(7, "Trino is serving catalog lake on http://127.0.0.1:8080");
        OUT.println("[demo]   JDBC:      jdbc:trino://127.0.0.1:8080/lake/telemetry?user=demo");
        OUT.println("[demo]   CLI:       ./run cli, or ./run cli --execute 'SELECT * FROM \"events$bloom_filter_advice\"'");
        OUT.println("[demo]   compare:   SET SESSION lake.bloom_filter_enabled = false; EXPLAIN ANALYZE VERBOSE <query> shows the pruning counters");
        OUT.println("[demo]   your lake: CREATE SCHEMA lake.mine; CALL lake.system.register_table(schema_name => 'mine', table_name => 't', table_location => 's3://<bucket>/<prefix>/') names any prefix as a table (README, Tables)");
        if (detach) {
            OUT.println("[demo]   detached; ./run stop stops the S3 server and Trino");
            return;
        }
        OUT.println("[demo]   Ctrl-C stops everything the demo started");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            OUT.println("\n[demo] stopping Trino and the S3 server");
            trino.close();
            s3.close();
            try {
                Files.deleteIfExists(work.resolve("trino.pid"));
                Files.deleteIfExists(work.resolve("s3proxy.pid"));
            }
            catch (IOException ignored) {
                // nothing left to clean
            }
        }));
        Thread.currentThread().join();
    }

    private static void step(int number, String message)
    {
        OUT.printf("[demo] step %d/7: %s%n", number, message);
    }

    private static void fail(String step, String cause, Path log)
    {
        System.err.printf("[demo] FAILED at step %s: %s%s%n", step, cause, log == null ? "" : "%n[demo] read %s".formatted(log));
        System.exit(1);
    }

    private static boolean portFree(int port)
    {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }
}
