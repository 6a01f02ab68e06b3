package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.demo.TrinoEtc;
import io.parquetbloom.demo.TrinoServerProcess;
import io.parquetbloom.testing.CountingProxy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ./run bench soak [--minutes N] [--clients N] [--interval-seconds N] [--faults] [--cache-size SIZE] [--json FILE]}: a real Trino
 * server with the packaged plugin over the demo dataset, {@code clients} dashboards sending point lookups with a fresh
 * random key each (80% present, 20% absent; 5% of queries an IN list of ten), for {@code minutes}; with
 * {@code --faults}, the S3 front fails a seeded fraction of object GETs (throttling, 500s, cut bodies, stalls).
 * Every interval it prints queries, errors (by message), p50/p99, the coordinator's heap after a full GC, the
 * metadata cache's weight against its limit, and evictions, all read from the server over JMX.
 */
public final class SoakBenchmark
{
    private static final PrintStream OUT = System.out;

    private record Options(int minutes, int clients, int intervalSeconds, boolean faults, Path json, DemoDataset.Scale scale, String cacheSize) {}

    private record Interval(int second, int queries, int errors, long p50Millis, long p99Millis, long heapAfterGcBytes, long cacheWeight, long cacheMaxWeight, long cacheEntries, long evictions, int serverThreads)
    {
        IntervalJson json()
        {
            return new IntervalJson(second, queries, errors, p50Millis, p99Millis, mebibytes(heapAfterGcBytes), mebibytes(cacheWeight), mebibytes(cacheMaxWeight), cacheEntries, evictions, serverThreads);
        }

        private static double mebibytes(long bytes)
        {
            return Math.round(bytes / 1048576.0 * 10) / 10.0;
        }
    }

    @JsonPropertyOrder({"second", "queries", "errors", "p50_ms", "p99_ms", "heap_after_gc_mib", "cache_weight_mib", "cache_max_mib", "cache_entries", "evictions", "server_threads"})
    private record IntervalJson(
            int second,
            int queries,
            int errors,
            @JsonProperty("p50_ms") long p50Millis,
            @JsonProperty("p99_ms") long p99Millis,
            @JsonProperty("heap_after_gc_mib") double heapAfterGcMebibytes,
            @JsonProperty("cache_weight_mib") double cacheWeightMebibytes,
            @JsonProperty("cache_max_mib") double cacheMaxMebibytes,
            @JsonProperty("cache_entries") long cacheEntries,
            long evictions,
            @JsonProperty("server_threads") int serverThreads) {}

    @JsonPropertyOrder({"clients", "minutes", "faults", "queries", "errors", "error_messages", "faults_injected", "intervals"})
    private record SoakJson(
            int clients,
            int minutes,
            boolean faults,
            long queries,
            long errors,
            @JsonProperty("error_messages") List<String> errorMessages,
            @JsonProperty("faults_injected") String faultsInjected,
            List<IntervalJson> intervals) {}

    private SoakBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        Options options = parse(args);
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        Path work = root.resolve(".work/soak");
        Files.createDirectories(work);
        OUT.printf("[soak] %d clients for %d minutes, faults %s, metadata cache %s; dataset %d files x %d row groups x %,d rows%n",
                options.clients(), options.minutes(), options.faults() ? "on" : "off", options.cacheSize(), options.scale().files(), options.scale().rowGroupsPerFile(), options.scale().rowsPerRowGroup());

        try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("s3proxy"), freePort(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Optional.of(work.resolve("s3-data")))) {
            try (S3Client client = s3.client()) {
                boolean exists = client.listBuckets().buckets().stream().anyMatch(bucket -> bucket.name().equals("soak"));
                if (!exists) {
                    client.createBucket(request -> request.bucket("soak"));
                }
                if (client.listObjectsV2(request -> request.bucket("soak").prefix("warehouse/").maxKeys(1)).contents().isEmpty()) {
                    OUT.println("[soak] generating the dataset");
                    DemoDataset.write(client, "soak", "warehouse/", options.scale(), work.resolve("generate"), OUT);
                }
            }
            String endpoint = s3.endpoint();
            try (CountingProxy proxy = CountingProxy.inFrontOf(endpoint, 0)) {
                int port = freePort();
                int jmxPort = freePort();
                Path etc = TrinoEtc.write(root, work.resolve("etc"), port, Map.of(
                        "location", "s3://soak/warehouse/",
                        "s3.endpoint", proxy.endpoint(),
                        "s3.aws-access-key", S3ProxyProcess.ACCESS_KEY,
                        "s3.aws-secret-key", S3ProxyProcess.SECRET_KEY,
                        "s3.socket-read-timeout", "2s",
                        "metadata-cache.max-size", options.cacheSize()), Map.of());
                // the heap is measured right after a full collection the soak asks for: Trino's own setting makes
                // that request start a concurrent cycle instead, which returns before anything is collected
                Files.writeString(etc.resolve("jvm.config"), "-XX:-ExplicitGCInvokesConcurrent\n", StandardOpenOption.APPEND);
                Path log = work.resolve("trino.log");
                // Trino keeps every finished query's details for query.min-expire-age (15 minutes by default): a soak
                // shorter than that would see the engine's history grow, not the connector's heap
                Map<String, String> serverProperties = Map.of(
                        "query.min-expire-age", "1m",
                        "com.sun.management.jmxremote.port", Integer.toString(jmxPort),
                        "com.sun.management.jmxremote.rmi.port", Integer.toString(jmxPort),
                        "com.sun.management.jmxremote.host", "127.0.0.1",
                        "com.sun.management.jmxremote.authenticate", "false",
                        "com.sun.management.jmxremote.ssl", "false");
                OUT.printf("[soak] starting Trino 483 on port %d (log %s)%n", port, log);
                try (TrinoServerProcess trino = TrinoServerProcess.start(root.resolve("tests/trino-server"), work, etc, TrinoEtc.pluginDirectory(root, work), log, serverProperties)) {
                    trino.awaitReady(Duration.ofMinutes(3));
                    if (options.faults()) {
                        proxy.injectFaults(new CountingProxy.FaultMix("soak", Map.of(
                                CountingProxy.Fault.SLOW_DOWN, 0.02,
                                CountingProxy.Fault.INTERNAL_ERROR, 0.02,
                                CountingProxy.Fault.CUT_BODY, 0.01,
                                CountingProxy.Fault.STALL, 0.005), 42, 5_000));
                    }
                    run(options, port, jmxPort, proxy);
                }
            }
        }
    }

    private static void run(Options options, int port, int jmxPort, CountingProxy proxy)
            throws Exception
    {
        String url = "jdbc:trino://127.0.0.1:%d/lake/telemetry".formatted(port);
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(options.minutes());
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        Map<String, Integer> errorMessages = new ConcurrentHashMap<>();
        AtomicInteger totalQueries = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(options.clients(), runnable -> Thread.ofPlatform().daemon().name("dashboard").unstarted(runnable));
        for (int client = 0; client < options.clients(); client++) {
            long seed = 1000 + client;
            clients.execute(() -> dashboard(url, seed, end, options.scale().devices(), latencies, errors, errorMessages, totalQueries));
        }
        List<Interval> intervals = new ArrayList<>();
        JMXServiceURL jmxUrl = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:%d/jmxrmi".formatted(jmxPort));
        try (JMXConnector connector = JMXConnectorFactory.connect(jmxUrl)) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            long start = System.nanoTime();
            int previousErrors = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(TimeUnit.SECONDS.toMillis(options.intervalSeconds()));
                List<Long> window = new ArrayList<>();
                for (Long latency = latencies.poll(); latency != null; latency = latencies.poll()) {
                    window.add(latency);
                }
                window.sort(Long::compare);
                int errorCount = errors.get();
                ObjectName cache = cacheBean(server);
                Interval interval = new Interval(
                        (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                        window.size(),
                        errorCount - previousErrors,
                        percentile(window, 0.5),
                        percentile(window, 0.99),
                        heapAfterGc(server),
                        (Long) server.getAttribute(cache, "Weight"),
                        (Long) server.getAttribute(cache, "MaxWeight"),
                        (Long) server.getAttribute(cache, "Entries"),
                        (Long) server.getAttribute(cache, "Evictions"),
                        (Integer) server.getAttribute(new ObjectName("java.lang:type=Threading"), "ThreadCount"));
                previousErrors = errorCount;
                intervals.add(interval);
                OUT.printf("[soak] %4ds: %5d queries (%.1f/s), %d errors, p50 %d ms, p99 %d ms | heap after GC %.0f MiB | metadata cache %.1f of %.0f MiB, %,d entries, %,d evictions | %d server threads | faults injected %s%n",
                        interval.second(), interval.queries(), interval.queries() / (double) options.intervalSeconds(), interval.errors(), interval.p50Millis(), interval.p99Millis(),
                        interval.heapAfterGcBytes() / 1048576.0, interval.cacheWeight() / 1048576.0, interval.cacheMaxWeight() / 1048576.0, interval.cacheEntries(), interval.evictions(),
                        interval.serverThreads(), proxy.injectedFaults());
            }
        }
        clients.shutdown();
        clients.awaitTermination(5, TimeUnit.MINUTES);
        OUT.printf("[soak] done: %,d queries, %d errors %s%n", totalQueries.get(), errors.get(), new TreeMap<>(errorMessages));
        if (options.json() != null) {
            String json = BenchmarkReports.json(new SoakJson(options.clients(), options.minutes(), options.faults(), totalQueries.get(), errors.get(),
                    List.copyOf(errorMessages.keySet()), String.valueOf(proxy.injectedFaults()), intervals.stream().map(Interval::json).toList()));
            Files.writeString(options.json(), json);
            OUT.println("[soak] JSON: " + options.json());
        }
    }

    /**
     * One dashboard: a lookup of a key nobody asked for before, again and again until the end.
     */
    private static void dashboard(String url, long seed, long end, int devices, ConcurrentLinkedQueue<Long> latencies, AtomicInteger errors, Map<String, Integer> errorMessages, AtomicInteger queries)
    {
        SplittableRandom random = new SplittableRandom(seed);
        Properties properties = new Properties();
        properties.setProperty("user", "dashboard-" + seed);
        try (Connection connection = DriverManager.getConnection(url, properties);
                Statement statement = connection.createStatement()) {
            while (System.nanoTime() < end) {
                String sql;
                if (random.nextInt(100) < 5) {
                    List<String> keys = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        keys.add("'" + key(random, devices) + "'");
                    }
                    sql = "SELECT count(*), max(voltage) FROM events WHERE device_id IN (%s)".formatted(String.join(", ", keys));
                }
                else {
                    sql = "SELECT count(*), max(voltage) FROM events WHERE device_id = '%s'".formatted(key(random, devices));
                }
                long start = System.nanoTime();
                try (ResultSet result = statement.executeQuery(sql)) {
                    while (result.next()) {
                        result.getLong(1);
                    }
                }
                catch (SQLException e) {
                    errors.incrementAndGet();
                    String message = String.valueOf(e.getMessage()).replaceAll("#\\d+_\\d+_\\d+_\\w+", "#id").replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<key>");
                    errorMessages.merge(message.length() > 300 ? message.substring(0, 300) : message, 1, Integer::sum);
                }
                latencies.add((System.nanoTime() - start) / 1_000_000);
                queries.incrementAndGet();
            }
        }
        catch (SQLException e) {
            errors.incrementAndGet();
            errorMessages.merge("connection: " + e.getMessage(), 1, Integer::sum);
        }
    }

    /**
     * 80% a device of the dataset (each a new draw from millions), 20% a key that is in no file.
     */
    private static String key(SplittableRandom random, int devices)
    {
        if (random.nextInt(100) < 80) {
            return DemoDataset.deviceId(random.nextInt(devices));
        }
        return DemoDataset.deviceId(-1_000_000L - random.nextLong(1L << 40));
    }

    private static ObjectName cacheBean(MBeanServerConnection server)
            throws IOException
    {
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("trino.plugin.parquetbloom.metadata:type=ParquetMetadataCache,*"), null);
            if (names.isEmpty()) {
                throw new IllegalStateException("the server exports no ParquetMetadataCache bean");
            }
            return names.iterator().next();
        }
        catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The server's heap right after a full collection it is asked for (one per interval, stop-the-world): what it
     * keeps, which must stay flat. The occupancy reported after the collector's own cycles lags by whole cycles and
     * jumps with them.
     */
    private static long heapAfterGc(MBeanServerConnection server)
            throws Exception
    {
        ObjectName memory = new ObjectName("java.lang:type=Memory");
        server.invoke(memory, "gc", null, null);
        return (Long) ((CompositeData) server.getAttribute(memory, "HeapMemoryUsage")).get("used");
    }

    static long percentile(List<Long> sorted, double quantile)
    {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
    }

    static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Command(name = "./run bench soak", mixinStandardHelpOptions = true, sortOptions = false,
            description = "A real Trino server, fresh random keys from many clients: errors, latency, heap and cache over time")
    private static final class Flags
    {
        @Option(names = "--minutes", defaultValue = "10", description = "(default: ${DEFAULT-VALUE})")
        int minutes;

        @Option(names = "--clients", defaultValue = "16", description = "(default: ${DEFAULT-VALUE})")
        int clients;

        @Option(names = "--interval-seconds", defaultValue = "30", description = "one progress line and JSON interval each (default: ${DEFAULT-VALUE})")
        int intervalSeconds;

        @Option(names = "--faults", description = "inject S3 faults")
        boolean faults;

        @Option(names = "--json", description = "also write the results to this file")
        Path json;

        @Option(names = "--files", description = "files of the dataset (default: the demo's)")
        Integer files;

        @Option(names = "--cache-size", defaultValue = "256MB", description = "metadata-cache.max-size (default: ${DEFAULT-VALUE})")
        String cacheSize;
    }

    private static Options parse(String[] args)
    {
        Flags flags = new Flags();
        CommandLine commandLine = new CommandLine(flags);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            System.exit(0);
        }
        DemoDataset.Scale scale = DemoDataset.DEFAULT_SCALE;
        if (flags.files != null) {
            scale = new DemoDataset.Scale(flags.files, scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), scale.devices());
        }
        return new Options(flags.minutes, flags.clients, flags.intervalSeconds, flags.faults, flags.json, scale, flags.cacheSize);
    }
}
