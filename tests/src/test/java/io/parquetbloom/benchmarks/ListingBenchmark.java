package io.parquetbloom.benchmarks;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.parquetbloom.connector.ParquetBloomPlugin;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.TestingLake;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageTypeParser;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * {@code ./run bench listing}: a lookup restricted to one day of a table of hourly folders
 * ({@code year=/month=/day=/hour=}, about 100,000 objects), through our catalog behind a proxy that counts LISTs and
 * adds a latency per request: the first query (the table's shape unknown: every file listed), then lookups of other
 * days once the shape is known (only the day's folders listed), against the same lookups with
 * {@code metadata.schema-cache-ttl=0s} (every query lists the whole table, as before partition listing).
 */
public final class ListingBenchmark
{
    private ListingBenchmark() {}

    @Command(name = "./run bench listing", mixinStandardHelpOptions = true, description = "A one-day lookup of a table of hourly folders: partition listing against whole-table listing")
    static final class Flags
    {
        @Option(names = "--months", defaultValue = "12", description = "months of 28 days x 24 hourly folders (default: ${DEFAULT-VALUE})")
        int months;

        @Option(names = "--files-per-hour", defaultValue = "13", description = "objects per hourly folder (default: ${DEFAULT-VALUE})")
        int filesPerHour;

        @Option(names = "--runs", defaultValue = "5", description = "lookups per catalog, each of another day (default: ${DEFAULT-VALUE})")
        int runs;

        @Option(names = "--latency-ms", defaultValue = "20", description = "added to every S3 request (default: ${DEFAULT-VALUE})")
        long latencyMillis;

        @Option(names = "--list-page-size", defaultValue = "1000", description = "s3.list-page-size of the catalogs (default: ${DEFAULT-VALUE})")
        int listPageSize;
    }

    record Run(String catalog, String phase, int day, long lists, long gets, double millis, long rows) {}

    public static void main(String[] args)
            throws Exception
    {
        Flags flags = new Flags();
        CommandLine commandLine = new CommandLine(flags);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            return;
        }
        Logging.initialize().setLevel("org.apache.parquet", Level.WARN);
        List<Run> runs = run(flags);
        System.out.println();
        System.out.println(markdown(runs));
        System.exit(0);
    }

    static List<Run> run(Flags flags)
            throws Exception
    {
        Path work = Files.createTempDirectory("listing-bench");
        Path file = work.resolve("part.parquet");
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, MessageTypeParser.parseMessageType("message events { required binary device_id (STRING); required double voltage; }"),
                ParquetFixtureWriter.Options.rowsPerRowGroup(100).withCompression(CompressionCodecName.ZSTD).withPlainEncoding("device_id").withBloomFilter("device_id", 100, 0.01))) {
            for (int row = 0; row < 100; row++) {
                writer.write(writer.newRow().append("device_id", new UUID(row, row).toString()).append("voltage", 220.0 + row));
            }
        }
        byte[] body = Files.readAllBytes(file);
        List<String> keys = new ArrayList<>();
        for (int month = 1; month <= flags.months; month++) {
            for (int day = 1; day <= 28; day++) {
                for (int hour = 0; hour < 24; hour++) {
                    for (int part = 0; part < flags.filesPerHour; part++) {
                        keys.add("warehouse/telemetry/hourly/year=2026/month=%d/day=%d/hour=%d/part-%d.parquet".formatted(month, day, hour, part));
                    }
                }
            }
        }
        try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("s3proxy"), LookupBenchmark.freePort(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Optional.of(work.resolve("s3data")));
                CountingProxy proxy = new CountingProxy(LookupBenchmark.port(s3.endpoint()), flags.latencyMillis, "no-such-path");
                var client = s3.client()) {
            client.createBucket(request -> request.bucket("lake"));
            progress("uploading %,d objects in %,d hourly folders".formatted(keys.size(), keys.size() / flags.filesPerHour));
            TestingLake.uploadAll(client, "lake", keys, body);
            Session session = testSessionBuilder().setCatalog("lake").setSchema("telemetry").build();
            try (DistributedQueryRunner runner = DistributedQueryRunner.builder(session).setWorkerCount(0).build()) {
                runner.installPlugin(new ParquetBloomPlugin());
                String pageSize = String.valueOf(flags.listPageSize);
                runner.createCatalog("lake", "parquet_bloom", properties(proxy, Map.of("s3.list-page-size", pageSize)));
                runner.createCatalog("lake_ttl0", "parquet_bloom", properties(proxy, Map.of("s3.list-page-size", pageSize, "metadata.schema-cache-ttl", "0s")));
                List<Run> runs = new ArrayList<>();
                runs.add(measure(runner, proxy, "lake", "first query (shape unknown)", 4));
                for (int run = 0; run < flags.runs; run++) {
                    runs.add(measure(runner, proxy, "lake", "shape known", 5 + run));
                }
                for (int run = 0; run < flags.runs; run++) {
                    runs.add(measure(runner, proxy, "lake_ttl0", "schema-cache-ttl=0s", 5 + run));
                }
                return runs;
            }
        }
    }

    private static Run measure(DistributedQueryRunner runner, CountingProxy proxy, String catalog, String phase, int day)
    {
        proxy.reset();
        long start = System.nanoTime();
        long rows = (long) runner.execute("SELECT count(*) FROM %s.telemetry.hourly WHERE year = 2026 AND month = 1 AND day = %d AND device_id = '%s'".formatted(catalog, day, new UUID(-1, -1)))
                .getOnlyValue();
        double millis = (System.nanoTime() - start) / 1e6;
        CountingProxy.Counts counts = proxy.counts();
        progress("  %s, %s, day %d: %.0f ms, %d LISTs, %d GETs, %d rows".formatted(catalog, phase, day, millis, counts.lists(), counts.gets(), rows));
        return new Run(catalog, phase, day, counts.lists(), counts.gets(), millis, rows);
    }

    static String markdown(List<Run> runs)
    {
        StringBuilder table = new StringBuilder("| catalog | phase | LISTs per query | GETs per query | p50 ms | runs |\n|---|---|---|---|---|---|\n");
        Map<String, List<Run>> byPhase = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (Run run : runs) {
            String key = run.catalog() + " | " + run.phase();
            if (!byPhase.containsKey(key)) {
                order.add(key);
            }
            byPhase.computeIfAbsent(key, _ -> new ArrayList<>()).add(run);
        }
        for (String key : order) {
            List<Run> phase = byPhase.get(key);
            table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.0f | %d |%n", key,
                    phase.stream().mapToLong(Run::lists).average().orElse(0), phase.stream().mapToLong(Run::gets).average().orElse(0),
                    BenchmarkReports.percentile(phase.stream().map(Run::millis).toList(), 50), phase.size()));
        }
        return table.toString();
    }

    private static Map<String, String> properties(CountingProxy proxy, Map<String, String> extra)
    {
        Map<String, String> properties = new HashMap<>(extra);
        properties.put("location", "s3://lake/warehouse/");
        properties.put("s3.endpoint", proxy.endpoint());
        properties.put("s3.region", "us-east-1");
        properties.put("s3.path-style-access", "true");
        properties.put("s3.aws-access-key", S3ProxyProcess.ACCESS_KEY);
        properties.put("s3.aws-secret-key", S3ProxyProcess.SECRET_KEY);
        return properties;
    }

    private static void progress(String message)
    {
        System.out.println("[bench] " + message);
    }
}
