package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.demo.TrinoEtc;
import io.parquetbloom.demo.TrinoServerProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static io.parquetbloom.benchmarks.SoakBenchmark.freePort;
import static io.parquetbloom.benchmarks.SoakBenchmark.percentile;

/**
 * {@code ./run bench ceiling}: a lookup's rate against the engine's own ceiling. A real Trino server with the packaged
 * plugin over the demo dataset with a key index on {@code device_id}; closed-loop clients at each level send, one
 * workload at a time, {@code SELECT 1} (the engine alone), a key in no file (the index answers, no split), a present
 * key the index names, and a present key with the index off (the session property): queries per second, p50 and p99
 * side by side, and the server's CPU per query. With {@code --jfr}, a flight recording (the default settings: CPU
 * samples every 20 ms) of each workload and level.
 */
public final class CeilingBenchmark
{
    private static final PrintStream OUT = System.out;

    enum Workload
    {
        SELECT_ONE("SELECT 1", false, random -> "SELECT 1"),
        ABSENT_INDEX("absent key, index", false, random -> lookup(DemoDataset.deviceId(-1_000_000L - random.nextLong(1L << 40)))),
        PRESENT_INDEX("present key, index", false, random -> lookup(DemoDataset.deviceId(random.nextInt(DemoDataset.DEFAULT_SCALE.devices())))),
        PRESENT_NO_INDEX("present key, no index", true, random -> lookup(DemoDataset.deviceId(random.nextInt(DemoDataset.DEFAULT_SCALE.devices()))));

        private final String title;
        private final boolean indexOff;
        private final Function<SplittableRandom, String> sql;

        Workload(String title, boolean indexOff, Function<SplittableRandom, String> sql)
        {
            this.title = title;
            this.indexOff = indexOff;
            this.sql = sql;
        }

        private static String lookup(String key)
        {
            return "SELECT count(*), max(voltage) FROM events WHERE device_id = '%s'".formatted(key);
        }
    }

    private record Options(int serverWarmupSeconds, List<Integer> levels, int warmupSeconds, int seconds, List<Workload> workloads, Path json, Path jfr, DemoDataset.Scale scale, Map<String, String> serverProperties) {}

    @JsonPropertyOrder({"workload", "clients", "queries", "errors", "queries_per_second", "p50_ms", "p99_ms", "server_cpu_ms_per_query"})
    record Level(
            String workload,
            int clients,
            int queries,
            int errors,
            @JsonProperty("queries_per_second") double queriesPerSecond,
            @JsonProperty("p50_ms") long p50Millis,
            @JsonProperty("p99_ms") long p99Millis,
            @JsonProperty("server_cpu_ms_per_query") double serverCpuMillisPerQuery) {}

    private CeilingBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        Options options = parse(args);
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        Path work = root.resolve(".work/ceiling");
        Files.createDirectories(work);
        OUT.printf("[ceiling] levels %s, %d s warm-up + %d s measured each; dataset %d files x %d row groups x %,d rows%n",
                options.levels(), options.warmupSeconds(), options.seconds(), options.scale().files(), options.scale().rowGroupsPerFile(), options.scale().rowsPerRowGroup());
        try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("s3proxy"), freePort(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Optional.of(work.resolve("s3-data")))) {
            writeDataset(s3, options.scale(), work);
            int port = freePort();
            int jmxPort = freePort();
            Path etc = TrinoEtc.write(root, work.resolve("etc"), port, Map.of(
                    "location", "s3://ceiling/warehouse/",
                    "s3.endpoint", s3.endpoint(),
                    "s3.aws-access-key", S3ProxyProcess.ACCESS_KEY,
                    "s3.aws-secret-key", S3ProxyProcess.SECRET_KEY), Map.of());
            Map<String, String> serverProperties = new HashMap<>(Map.of(
                    "query.min-expire-age", "1m",
                    "com.sun.management.jmxremote.port", Integer.toString(jmxPort),
                    "com.sun.management.jmxremote.rmi.port", Integer.toString(jmxPort),
                    "com.sun.management.jmxremote.host", "127.0.0.1",
                    "com.sun.management.jmxremote.authenticate", "false",
                    "com.sun.management.jmxremote.ssl", "false"));
            serverProperties.putAll(options.serverProperties());
            Path log = work.resolve("trino.log");
            OUT.printf("[ceiling] starting Trino 483 on port %d (log %s)%n", port, log);
            try (TrinoServerProcess trino = TrinoServerProcess.start(root.resolve("tests/trino-server"), work, etc, TrinoEtc.pluginDirectory(root, work), log, serverProperties)) {
                trino.awaitReady(Duration.ofMinutes(3));
                String url = "jdbc:trino://127.0.0.1:%d/lake/telemetry".formatted(port);
                buildKeyIndex(url);
                List<Level> results = measure(options, url, jmxPort);
                print(results, options);
                if (options.json() != null) {
                    Files.writeString(options.json(), BenchmarkReports.json(results));
                    OUT.println("[ceiling] JSON: " + options.json());
                }
            }
        }
    }

    private static void writeDataset(S3ProxyProcess s3, DemoDataset.Scale scale, Path work)
    {
        try (S3Client client = s3.client()) {
            if (client.listBuckets().buckets().stream().noneMatch(bucket -> bucket.name().equals("ceiling"))) {
                client.createBucket(request -> request.bucket("ceiling"));
            }
            if (client.listObjectsV2(request -> request.bucket("ceiling").prefix("warehouse/").maxKeys(1)).contents().isEmpty()) {
                OUT.println("[ceiling] generating the dataset");
                DemoDataset.write(client, "ceiling", "warehouse/", scale, work.resolve("generate"), OUT);
            }
        }
    }

    private static void buildKeyIndex(String url)
            throws SQLException
    {
        OUT.println("[ceiling] building the key index of events.device_id");
        long start = System.nanoTime();
        try (Connection connection = connect(url, "builder", false);
                Statement statement = connection.createStatement()) {
            statement.execute("CALL lake.system.create_key_index('telemetry', 'events', 'device_id')");
        }
        OUT.printf("[ceiling] key index built in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static List<Level> measure(Options options, String url, int jmxPort)
            throws Exception
    {
        List<Level> results = new ArrayList<>();
        JMXServiceURL jmxUrl = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:%d/jmxrmi".formatted(jmxPort));
        try (JMXConnector connector = JMXConnectorFactory.connect(jmxUrl)) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            // a fresh server compiles its hot paths for minutes: every workload first, unmeasured, so that the first
            // level measured is not the compiler's
            OUT.printf("[ceiling] warming the server up: each workload for %d s at 8 clients%n", options.serverWarmupSeconds() / options.workloads().size());
            for (Workload workload : options.workloads()) {
                run(options, url, workload, 8, options.serverWarmupSeconds() / options.workloads().size(), null, null);
            }
            for (int clients : options.levels()) {
                for (Workload workload : options.workloads()) {
                    run(options, url, workload, clients, options.warmupSeconds(), null, null);
                    Path recording = options.jfr() == null ? null : options.jfr().resolve("%s-%d.jfr".formatted(workload.name().toLowerCase(Locale.ROOT), clients));
                    Level level = run(options, url, workload, clients, options.seconds(), server, recording);
                    OUT.printf("[ceiling] %-24s %3d clients: %6.1f q/s, p50 %,6d ms, p99 %,6d ms, %d errors, server CPU %.1f ms/query%s%n",
                            workload.title, clients, level.queriesPerSecond(), level.p50Millis(), level.p99Millis(), level.errors(), level.serverCpuMillisPerQuery(),
                            recording == null ? "" : " (JFR " + recording + ")");
                    results.add(level);
                }
            }
        }
        return results;
    }

    /**
     * {@code clients} closed-loop clients sending {@code workload} for {@code seconds}; measured when {@code server}
     * is given (its process CPU read before and after, and a flight recording when {@code recording} is given).
     */
    private static Level run(Options options, String url, Workload workload, int clients, int seconds, MBeanServerConnection server, Path recording)
            throws Exception
    {
        long cpuBefore = server == null ? 0 : processCpuNanos(server);
        if (recording != null) {
            diagnosticCommand(server, "jfrStart", "name=ceiling", "filename=" + recording);
        }
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        AtomicLong seeds = new AtomicLong(System.nanoTime());
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService pool = Executors.newFixedThreadPool(clients, runnable -> Thread.ofPlatform().daemon().name("client").unstarted(runnable));
        for (int client = 0; client < clients; client++) {
            pool.execute(() -> client(url, workload, new SplittableRandom(seeds.incrementAndGet()), end, latencies, errors));
        }
        pool.shutdown();
        pool.awaitTermination(seconds + 300, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (recording != null) {
            diagnosticCommand(server, "jfrStop", "name=ceiling");
        }
        long cpu = server == null ? 0 : processCpuNanos(server) - cpuBefore;
        List<Long> sorted = new ArrayList<>(latencies);
        sorted.sort(Long::compare);
        return new Level(workload.title, clients, sorted.size(), errors.get(), Math.round(sorted.size() / elapsed * 10) / 10.0,
                percentile(sorted, 0.5), percentile(sorted, 0.99), sorted.isEmpty() ? 0 : Math.round(cpu / 1e5 / sorted.size()) / 10.0);
    }

    private static void client(String url, Workload workload, SplittableRandom random, long end, ConcurrentLinkedQueue<Long> latencies, AtomicInteger errors)
    {
        try (Connection connection = connect(url, "dashboard", workload.indexOff);
                Statement statement = connection.createStatement()) {
            while (System.nanoTime() < end) {
                long start = System.nanoTime();
                try (ResultSet result = statement.executeQuery(workload.sql.apply(random))) {
                    while (result.next()) {
                        result.getObject(1);
                    }
                    latencies.add((System.nanoTime() - start) / 1_000_000);
                }
                catch (SQLException e) {
                    if (errors.getAndIncrement() < 3) {
                        OUT.println("[ceiling] error: " + e.getMessage());
                    }
                }
            }
        }
        catch (SQLException e) {
            errors.incrementAndGet();
            OUT.println("[ceiling] connection error: " + e.getMessage());
        }
    }

    private static Connection connect(String url, String user, boolean indexOff)
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        if (indexOff) {
            properties.setProperty("sessionProperties", "lake.key_index_enabled:false");
        }
        return DriverManager.getConnection(url, properties);
    }

    private static long processCpuNanos(MBeanServerConnection server)
            throws Exception
    {
        return (Long) server.getAttribute(new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME), "ProcessCpuTime");
    }

    private static void diagnosticCommand(MBeanServerConnection server, String command, String... arguments)
            throws Exception
    {
        server.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), command, new Object[] {arguments}, new String[] {String[].class.getName()});
    }

    private static void print(List<Level> results, Options options)
    {
        OUT.println();
        OUT.printf("| clients | %s |%n", String.join(" | ", options.workloads().stream().map(workload -> workload.title).toList()));
        OUT.printf("|---|%s%n", "---|".repeat(options.workloads().size()));
        for (int clients : options.levels()) {
            List<String> cells = new ArrayList<>();
            for (Workload workload : options.workloads()) {
                results.stream().filter(level -> level.clients() == clients && level.workload().equals(workload.title)).findFirst()
                        .ifPresent(level -> cells.add("%.1f q/s, p50 %,d ms, p99 %,d ms, %.1f CPU ms/q".formatted(level.queriesPerSecond(), level.p50Millis(), level.p99Millis(), level.serverCpuMillisPerQuery())));
            }
            OUT.printf("| %d | %s |%n", clients, String.join(" | ", cells));
        }
    }

    @Command(name = "./run bench ceiling", mixinStandardHelpOptions = true, sortOptions = false,
            description = "SELECT 1, index-answered absent keys and present keys with and without the index, side by side under closed-loop clients")
    private static final class Flags
    {
        @Option(names = "--server-warmup-seconds", defaultValue = "60", description = "unmeasured, before the first level: all workloads in turn (default: ${DEFAULT-VALUE})")
        int serverWarmupSeconds;

        @Option(names = "--levels", split = ",", defaultValue = "1,16,64", description = "clients per level (default: ${DEFAULT-VALUE})")
        List<Integer> levels;

        @Option(names = "--warmup-seconds", defaultValue = "5", description = "(default: ${DEFAULT-VALUE})")
        int warmupSeconds;

        @Option(names = "--seconds", defaultValue = "25", description = "measured per workload and level (default: ${DEFAULT-VALUE})")
        int seconds;

        @Option(names = "--workloads", split = ",", description = "select_one,absent_index,present_index,present_no_index (default: all)")
        List<Workload> workloads;

        @Option(names = "--json", description = "also write the results to this file")
        Path json;

        @Option(names = "--jfr", description = "a flight recording of each workload and level in this folder")
        Path jfr;

        @Option(names = "--server-property", description = "a system property of the server, NAME=VALUE (repeatable)")
        Map<String, String> serverProperties = Map.of();
    }

    private static Options parse(String[] args)
            throws IOException
    {
        Flags flags = new Flags();
        CommandLine commandLine = new CommandLine(flags).setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            System.exit(0);
        }
        Path jfr = flags.jfr == null ? null : flags.jfr.toAbsolutePath();
        if (jfr != null) {
            Files.createDirectories(jfr);
        }
        List<Workload> workloads = flags.workloads == null ? List.of(Workload.values()) : flags.workloads;
        return new Options(flags.serverWarmupSeconds, flags.levels, flags.warmupSeconds, flags.seconds, workloads, flags.json, jfr, DemoDataset.DEFAULT_SCALE, flags.serverProperties);
    }
}
