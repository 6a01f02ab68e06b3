package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.google.common.collect.ImmutableMap;
import com.google.common.io.RecursiveDeleteOption;
import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.parquetbloom.connector.ParquetBloomPlugin;
import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.QueryMetrics;
import io.trino.Session;
import io.trino.plugin.hive.HivePlugin;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * {@code ./run bench}: point lookups through one Trino 483 with catalogs over the same objects: ours, and Trino's
 * Hive connector (file metastore, external Parquet tables) with {@code parquet.use-bloom-filter=true} and, as a
 * second peer, with it off. Ours and Hive each sit behind their own counting proxy that adds a fixed latency per
 * request. Workloads run cold (a fresh catalog per run), warm (a new key every run) and repeat (the same predicate
 * again); {@code full_scan} is the absent-key lookup with every pruning path off. Rows must match between the
 * catalogs or the run fails.
 * <p>
 * Flags: {@code --files N} (64), {@code --row-groups N} (4), {@code --rows-per-row-group N} (25000),
 * {@code --runs N} (10), {@code --latency-ms N} (20), {@code --concurrency-seconds N} (20), {@code --clients N} (16),
 * {@code --writer trino|parquet-java} (trino: the data files Trino's own writer makes), {@code --json FILE}, {@code --catalogs parquet_bloom,hive,hive_bloom_off}, {@code --workloads NAME,...},
 * {@code --lake-property NAME=VALUE}, {@code --smoke} (tiny and quick, for CI). Workloads {@code serial_absent} and
 * {@code serial_present} look up {@link SerialsTable}'s dictionary-encoded key without filters.
 */
public final class LookupBenchmark
{
    private static final String BUCKET = "lake";
    private static final String ROOT = "warehouse/";
    private static final int HOT_DEVICES = 2_000;

    private LookupBenchmark() {}

    record Options(String writer, int files, int rowGroups, int rowsPerRowGroup, int runs, long latencyMillis, int concurrencySeconds, int clients, Optional<Path> json, List<String> catalogs, Optional<Set<String>> workloads, Map<String, String> lakeProperties, boolean budgetRatios, Optional<CountingProxy.FaultMix> faults, boolean keyIndex, boolean keyIndexYardstick, int keyIndexRefreshFiles, List<Integer> loadLevels, List<Integer> loadSeconds, Optional<List<String>> loadCatalogs, boolean scaledBudget, Optional<Integer> maxConcurrency, int workers, boolean keyIndexByCluster) {}

    /**
     * @param faults per query, under {@code --faults}: faults injected into its GETs, and (ours only, -1 for Hive)
     * the S3 retries and throttled attempts its metrics report
     */
    record Result(String workload, String catalog, String phase, int runs, long gets, long bytes, long lists, double p50, double p95, double p99, long rows, double throughput, long filesScheduled, FaultCounts faults) {}

    record FaultCounts(double injected, double retries, double throttled)
    {
        static final FaultCounts NONE = new FaultCounts(0, 0, 0);
    }

    public static void main(String[] args)
            throws Exception
    {
        Options options = parse(args);
        // Hive's Parquet reader logs every predicate it pushes into parquet-java at INFO
        Logging.initialize().setLevel("org.apache.parquet", Level.WARN);
        List<Result> results = run(options);
        System.out.println(LoadLevels.markdown(loads));
        System.out.println();
        System.out.println(markdown(results));
        options.faults().ifPresent(mix -> System.out.println(faultsMarkdown(mix, results)));
        if (options.budgetRatios()) {
            System.out.println(MetadataBudgets.markdown(results, budgets));
        }
        System.out.println(keyIndexMarkdown(results));
        System.out.println(icebergMarkdown(results));
        System.out.println(keyIndexBench.markdown());
        if (options.json().isPresent()) {
            Files.writeString(options.json().get(), json(options, results));
            System.out.println("[bench] JSON written to " + options.json().get());
        }
        System.exit(0);
    }

    @Command(name = "./run bench lookups", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Point lookups (cold, warm with a new key every run, repeat) and a full scan: parquet_bloom against Trino's Hive connector, in one run")
    static final class Flags
    {
        @Option(names = "--table-format", defaultValue = "folder", description = "folder: the tables are folders of files, as Hive reads them; iceberg: Iceberg tables over the same files (IcebergLake), read by our catalogs through their metadata and compared with Trino's Iceberg connector (catalog iceberg, bloom filters on); delta: Delta Lake tables over the same files (DeltaLake), read by our catalogs through their logs, compared with Hive on the folders, and what reading the log costs (default: ${DEFAULT-VALUE})")
        String tableFormat;

        @Option(names = "--writer", defaultValue = "trino", description = "who writes the events table: trino, parquet-java or reference (parquet-java with 64 KiB pages) (default: ${DEFAULT-VALUE})")
        String writer;

        @Option(names = "--files", defaultValue = "64", description = "files of the events table (default: ${DEFAULT-VALUE})")
        int files;

        @Option(names = "--row-groups", defaultValue = "4", description = "row groups per file (default: ${DEFAULT-VALUE})")
        int rowGroups;

        @Option(names = "--rows-per-row-group", defaultValue = "25000", description = "(default: ${DEFAULT-VALUE})")
        int rowsPerRowGroup;

        @Option(names = "--runs", defaultValue = "10", description = "runs per workload, catalog and phase (default: ${DEFAULT-VALUE})")
        int runs;

        @Option(names = "--latency-ms", defaultValue = "20", description = "added to every S3 request, as S3 in a region has it (default: ${DEFAULT-VALUE})")
        long latencyMillis;

        @Option(names = "--concurrency-seconds", defaultValue = "20", description = "length of the concurrency phase (default: ${DEFAULT-VALUE})")
        int concurrencySeconds;

        @Option(names = "--clients", defaultValue = "16", description = "clients of the concurrency phase (default: ${DEFAULT-VALUE})")
        int clients;

        @Option(names = "--json", description = "also write the results to this file")
        Path json;

        @Option(names = "--catalogs", split = ",", defaultValue = "parquet_bloom,hive,hive_bloom_off", description = "(default: ${DEFAULT-VALUE})")
        List<String> catalogs;

        @Option(names = "--workloads", split = ",", description = "only these workloads (default: all)")
        Set<String> workloads;

        @Option(names = "--lake-property", description = "a property of our catalog, name=value (repeatable)")
        Map<String, String> lakeProperties = new HashMap<>();

        @Option(names = "--budget-ratios", split = ",", description = "the big-table mode: our catalog once per ratio of metadata-cache.max-size to the lookup's metadata working set, e.g. 4,1,0.5,0.25,0.1")
        List<Double> budgetRatios = new ArrayList<>();

        @Option(names = "--disk-tier", description = "with --budget-ratios: each ratio also with the local disk tier (metadata-cache.disk.directory)")
        boolean diskTier;

        @Option(names = "--faults", split = ",", description = "fractions of object GETs the proxies answer 503 SlowDown, cut halfway and (optionally) stall halfway for --stall-ms before the cut, ours and Hive's alike, e.g. 0.05,0.02 or 0.05,0.02,0.01")
        List<Double> faults = List.of();

        @Option(names = "--stall-ms", defaultValue = "2000", description = "how long a stalled GET (the third fraction of --faults) hangs before its connection is cut (default: ${DEFAULT-VALUE})")
        long stallMillis;

        @Option(names = "--key-index", description = "build our catalog's key index of events.device_id (and serials.serial) before the workloads, measured against reading the column once, and refresh it after them")
        boolean keyIndex;

        @Option(names = "--key-index-without-yardstick", description = "with --key-index: do not time reading the key column once")
        boolean keyIndexWithoutYardstick;

        @Option(names = "--warm-up-queries", defaultValue = "1", description = "warm phase: queries of the workload, each with another key, run on our catalogs before its runs, so that the metadata of the files a new key touches is cached (footers, offset indexes); Hive gets one (default: ${DEFAULT-VALUE})")
        int warmUpQueries;

        @Option(names = "--key-index-by-cluster", description = "with --key-index: build the index again with ALTER TABLE ... EXECUTE create_key_index after the CALL, on the workers only (the coordinator runs no splits in this run); give --workers")
        boolean keyIndexByCluster;

        @Option(names = "--key-index-refresh-files", defaultValue = "100", description = "with --key-index: files added (copies) before the refresh that is measured (default: ${DEFAULT-VALUE})")
        int keyIndexRefreshFiles;

        @Option(names = "--load-levels", split = ",", description = "after the workloads: closed-loop clients sending the reference query with a new key each, at each of these levels in turn, e.g. 1,16,64,500")
        List<Integer> loadLevels = new ArrayList<>();

        @Option(names = "--load-seconds", split = ",", defaultValue = "30", description = "length of each load level, one for all or one per level (default: ${DEFAULT-VALUE})")
        List<Integer> loadSeconds;

        @Option(names = "--load-catalogs", split = ",", description = "the catalogs put under load (default: every catalog but hive_bloom_off)")
        List<String> loadCatalogs;

        @Option(names = "--max-concurrency", description = "the coordinator's query.max-concurrent-queries: queries beyond it queue in Trino (default: Trino's, 1000)")
        Integer maxConcurrency;

        @Option(names = "--workers", defaultValue = "0", description = "worker nodes beside the coordinator (0: the coordinator does everything) (default: ${DEFAULT-VALUE})")
        int workers;

        @Option(names = "--scaled-budget", description = "the metadata budget scaled as the rows are: our catalogs get metadata-cache.max-size of 256 MB x rows per row group / 250,000, and parquet_bloom@scaled[+disk] run the per-file path at it")
        boolean scaledBudget;

        @Option(names = "--smoke", description = "a tiny run for tests: 4 files of 3,000 rows, 1 run, no latency; flags given explicitly still win")
        boolean smoke;
    }

    static Options parse(String[] args)
    {
        Flags flags = new Flags();
        // ./run bench bigtable presets flags that the user's own, given after them, override
        CommandLine commandLine = new CommandLine(flags).setOverwrittenOptionsAllowed(true);
        ParseResult parsed = commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(System.out);
            System.exit(0);
        }
        if (flags.smoke) {
            applySmoke(flags, parsed);
        }
        if (!List.of("trino", "parquet-java", "reference").contains(flags.writer)) {
            throw new ParameterException(commandLine, "--writer must be trino, parquet-java or reference: " + flags.writer);
        }
        if (flags.loadSeconds.size() != 1 && flags.loadSeconds.size() != flags.loadLevels.size()) {
            throw new ParameterException(commandLine, "--load-seconds takes one length or one per --load-levels level: " + flags.loadSeconds);
        }
        List<String> catalogs = MetadataBudgets.expand(flags.catalogs, flags.budgetRatios, flags.diskTier);
        warmUpQueries = Math.max(1, flags.warmUpQueries);
        if (!List.of("folder", "iceberg", "delta").contains(flags.tableFormat)) {
            throw new ParameterException(commandLine, "--table-format is folder, iceberg or delta, not " + flags.tableFormat);
        }
        icebergTables = flags.tableFormat.equals("iceberg");
        deltaTables = flags.tableFormat.equals("delta");
        return new Options(flags.writer, flags.files, flags.rowGroups, flags.rowsPerRowGroup, flags.runs, flags.latencyMillis, flags.concurrencySeconds, flags.clients,
                Optional.ofNullable(flags.json), catalogs, Optional.ofNullable(flags.workloads).map(Set::copyOf), Map.copyOf(flags.lakeProperties),
                catalogs.stream().anyMatch(MetadataBudgets::isVariant), faultMix(commandLine, flags.faults, flags.stallMillis), flags.keyIndex, !flags.keyIndexWithoutYardstick, flags.keyIndexRefreshFiles,
                List.copyOf(flags.loadLevels), List.copyOf(flags.loadSeconds), Optional.ofNullable(flags.loadCatalogs).map(List::copyOf), flags.scaledBudget, Optional.ofNullable(flags.maxConcurrency), flags.workers, flags.keyIndexByCluster);
    }

    private static Optional<CountingProxy.FaultMix> faultMix(CommandLine commandLine, List<Double> fractions, long stallMillis)
    {
        if (fractions.isEmpty()) {
            return Optional.empty();
        }
        if (fractions.size() < 2 || fractions.size() > 3 || fractions.stream().anyMatch(fraction -> fraction < 0 || fraction > 0.5)) {
            throw new ParameterException(commandLine, "--faults takes two or three fractions between 0 and 0.5, SlowDown, cut bodies and stalls: " + fractions);
        }
        if (fractions.size() == 2) {
            return Optional.of(new CountingProxy.FaultMix("slowdown %s, cut %s".formatted(fractions.get(0), fractions.get(1)),
                    Map.of(CountingProxy.Fault.SLOW_DOWN, fractions.get(0), CountingProxy.Fault.CUT_BODY, fractions.get(1)), 2025, 0));
        }
        return Optional.of(new CountingProxy.FaultMix("slowdown %s, cut %s, stall %s for %d ms".formatted(fractions.get(0), fractions.get(1), fractions.get(2), stallMillis),
                Map.of(CountingProxy.Fault.SLOW_DOWN, fractions.get(0), CountingProxy.Fault.CUT_BODY, fractions.get(1), CountingProxy.Fault.STALL, fractions.get(2)), 2025, stallMillis));
    }

    private static void applySmoke(Flags flags, ParseResult parsed)
    {
        if (!parsed.hasMatchedOption("--files")) {
            flags.files = 4;
        }
        if (!parsed.hasMatchedOption("--rows-per-row-group")) {
            flags.rowsPerRowGroup = 3_000;
        }
        if (!parsed.hasMatchedOption("--runs")) {
            flags.runs = 1;
        }
        if (!parsed.hasMatchedOption("--latency-ms")) {
            flags.latencyMillis = 0;
        }
        if (!parsed.hasMatchedOption("--concurrency-seconds")) {
            flags.concurrencySeconds = 2;
        }
        if (!parsed.hasMatchedOption("--clients")) {
            flags.clients = 2;
        }
    }

    static List<Result> run(Options options)
            throws Exception
    {
        // the lake, S3Proxy's store and Hive's metastore: gigabytes at the big shapes, deleted however the run ends
        Path work = Files.createTempDirectory("lookup-bench");
        try {
            return run(options, work);
        }
        finally {
            deleteRecursively(work, RecursiveDeleteOption.ALLOW_INSECURE);
        }
    }

    private static List<Result> run(Options options, Path work)
            throws Exception
    {
        loads.clear();
        extraLakeProperties = options.lakeProperties();
        scaledBudget = options.scaledBudget();
        scaledRowsPerRowGroup = options.rowsPerRowGroup();
        DemoDataset.Scale scale = new DemoDataset.Scale(options.files(), options.rowGroups(), options.rowsPerRowGroup(), (int) Math.max(1_000, options.files() * (long) options.rowGroups() * options.rowsPerRowGroup() / 6));
        progress("starting S3Proxy and two counting proxies (latency %d ms per request)".formatted(options.latencyMillis()));
        try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("s3proxy"), freePort(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Optional.of(work.resolve("s3data")));
                CountingProxy ours = new CountingProxy(port(s3.endpoint()), options.latencyMillis(), "bench-metastore");
                CountingProxy hive = new CountingProxy(port(s3.endpoint()), options.latencyMillis(), "bench-metastore")) {
            List<String> keys;
            Optional<SerialsTable> serials = Optional.empty();
            try (S3Client client = s3.client()) {
                client.createBucket(request -> request.bucket(BUCKET));
                progress("writing %d files x %d row groups x %,d rows with %s's writer".formatted(scale.files(), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), options.writer()));
                DemoDataset.write(client, BUCKET, ROOT, scale, HOT_DEVICES, writer(options.writer()), work.resolve("generate"), System.out);
                keys = writeKeys(client, work, scale);
                if (icebergTables) {
                    progress("writing Iceberg metadata over the same files (Apache Iceberg's library): s3://%s/%s".formatted(BUCKET, IcebergLake.ROOT));
                    icebergMetadataFiles = IcebergLake.adopt(client, BUCKET, ROOT, scale, keys.size());
                }
                if (deltaTables) {
                    progress("writing Delta Lake logs over the same files (%d files a commit, a checkpoint): s3://%s/%s".formatted(DeltaLake.FILES_PER_COMMIT, BUCKET, DeltaLake.ROOT));
                    DeltaLake.adopt(client, BUCKET, ROOT);
                }
                if (options.budgetRatios()) {
                    budgets = Optional.of(MetadataBudgets.measure(client, BUCKET, ROOT + "telemetry/events/", work.resolve("disk-tier"), MetadataBudgets.scaledBudget(scale.rowsPerRowGroup())));
                    progress(budgets.get().describe());
                }
                if (wantsSerials(options)) {
                    progress("writing telemetry.serials: %d files x %d row groups x %,d rows with Trino's writer, %,d serials per row group (dictionary-encoded, no filter)"
                            .formatted(scale.files(), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), SerialsTable.SERIALS_PER_ROW_GROUP));
                    serials = Optional.of(SerialsTable.write(client, BUCKET, ROOT + "telemetry/serials/", scale.files(), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), work.resolve("serials")));
                }
            }

            Session session = testSessionBuilder().setCatalog("lake").setSchema("telemetry").build();
            DistributedQueryRunner.Builder<?> builder = DistributedQueryRunner.builder(session).setWorkerCount(options.workers());
            options.maxConcurrency().ifPresent(limit -> builder.addExtraProperty("query.max-concurrent-queries", String.valueOf(limit)));
            if (options.keyIndexByCluster()) {
                // the build by the cluster reads on the workers alone: what the coordinator reads is its planning
                builder.addExtraProperty("node-scheduler.include-coordinator", "false");
            }
            try (DistributedQueryRunner runner = builder.build()) {
                runner.installPlugin(new ParquetBloomPlugin());
                runner.installPlugin(new HivePlugin());
                runner.createCatalog("lake", "parquet_bloom", oursProperties(ours, MetadataBudgets.OURS));
                for (String variant : options.catalogs().stream().filter(MetadataBudgets::isVariant).toList()) {
                    runner.createCatalog(catalogName(variant), "parquet_bloom", oursProperties(ours, variant));
                }
                for (String variant : List.of(NO_INDEX, WHOLE_CHUNKS, NO_INDEX_WHOLE_CHUNKS)) {
                    if (options.catalogs().contains(variant)) {
                        runner.createCatalog(catalogName(variant), "parquet_bloom", oursProperties(ours, variant));
                    }
                }
                if (options.catalogs().contains(UNSHARED_LISTINGS) || options.loadCatalogs().orElse(List.of()).contains(UNSHARED_LISTINGS)) {
                    runner.createCatalog(catalogName(UNSHARED_LISTINGS), "parquet_bloom", oursProperties(ours, UNSHARED_LISTINGS));
                }
                if (options.keyIndex()) {
                    keyIndexBench.build(runner, ours, catalog -> oursProperties(ours, catalog), "events", "device_id", options.keyIndexYardstick(), options.keyIndexByCluster());
                    if (serials.isPresent()) {
                        keyIndexBench.build(runner, ours, catalog -> oursProperties(ours, catalog), "serials", "serial", options.keyIndexYardstick(), options.keyIndexByCluster());
                    }
                }
                if (icebergTables) {
                    registerIcebergTables(runner, hive);
                }
                if (deltaTables) {
                    progress("what reading the Delta Lake log costs, a new catalog each run (cold: its first query; warm: its second)");
                    DeltaLake.measureLog(runner, ours, catalog -> oursProperties(ours, NO_INDEX)).forEach(line -> progress("delta log: " + line));
                }
                runner.createCatalog("hive", "hive", hiveProperties(hive, true));
                if (options.catalogs().stream().noneMatch(catalog -> catalog.startsWith("hive"))) {
                    // Hive not compared: skip its tables
                    return refreshAfter(runWorkloads(runner, options, scale, serials, ours, hive), runner, options, s3, ours);
                }
                // Hive with its bloom filters off reads the same tables through the same metastore
                runner.createCatalog(catalogName("hive_bloom_off"), "hive", hiveProperties(hive, false));
                progress("registering the Hive tables (file metastore)");
                runner.execute("CREATE SCHEMA hive.telemetry WITH (location = 's3://lake/bench-metastore/telemetry')");
                runner.execute("""
                        CREATE TABLE hive.telemetry.events (device_id varchar, trace_id varchar, voltage double, event_timestamp timestamp(6), year bigint, month bigint)
                        WITH (format = 'PARQUET', external_location = 's3://lake/warehouse/telemetry/events', partitioned_by = ARRAY['year', 'month'])""");
                runner.execute("CALL hive.system.sync_partition_metadata('telemetry', 'events', 'ADD')");
                runner.execute("CREATE TABLE hive.telemetry.keys (device_id varchar) WITH (format = 'PARQUET', external_location = 's3://lake/warehouse/telemetry/keys')");
                if (serials.isPresent()) {
                    runner.execute("CREATE TABLE hive.telemetry.serials (serial varchar, seq bigint, reading double) WITH (format = 'PARQUET', external_location = 's3://lake/warehouse/telemetry/serials')");
                }

                return refreshAfter(runWorkloads(runner, options, scale, serials, ours, hive), runner, options, s3, ours);
            }
        }
    }

    private static DemoDataset.EventFileWriterFactory writer(String name)
    {
        return switch (name) {
            case "trino" -> new TrinoWriterEvents();
            case "reference" -> DemoDataset.REFERENCE;
            default -> DemoDataset.PARQUET_JAVA;
        };
    }

    /**
     * With {@code --key-index}: after the workloads (which ran on the table as written), files are added and the
     * index refreshed.
     */
    private static List<Result> refreshAfter(List<Result> results, DistributedQueryRunner runner, Options options, S3ProxyProcess s3, CountingProxy ours)
    {
        // the refresh adds files to the folder table: a table format's files come from its metadata
        if (options.keyIndex() && !icebergTables && !deltaTables) {
            try (S3Client client = s3.client()) {
                keyIndexBench.describeSegments(client, BUCKET, ROOT + "telemetry/events/", "device_id");
                keyIndexBench.refresh(runner, ours, client, BUCKET, ROOT + "telemetry/events/", "events", "device_id", options.keyIndexRefreshFiles());
                keyIndexBench.describeSegments(client, BUCKET, ROOT + "telemetry/events/", "device_id");
            }
        }
        return results;
    }

    // our catalog without the key index: the per-file path, side by side with the index
    static final String ICEBERG = "iceberg";
    static final String NO_INDEX = "parquet_bloom_no_index";
    // ours with the key index, every query listing the table itself (metadata.shared-listing-max-age=0s)
    static final String UNSHARED_LISTINGS = "parquet_bloom_unshared_listings";
    // ours reading whole column chunks of the row groups it reads (page-reads.enabled=false), with and without the
    // key index: the read path before pages, side by side
    static final String WHOLE_CHUNKS = "parquet_bloom_whole_chunks";
    static final String NO_INDEX_WHOLE_CHUNKS = "parquet_bloom_no_index_whole_chunks";

    /**
     * A lookup whose predicate depends on a key index: a new index gives new keys, so a run with it cannot be answered
     * by what earlier runs left in any cache. Workloads with a fixed predicate ignore the index.
     *
     * @param allPruningOff every pruning path off in the catalog (our bloom filters, statistics, dictionaries and no-match cache;
     * Hive's bloom filters and statistics): the plain read path
     */
    private record Workload(String name, IntFunction<String> template, boolean allPruningOff) {}

    private static final String FILTER_ADVICE = "filter_advice";
    static final String REFERENCE_QUERY = "reference_query";

    private static String referenceQuery(String deviceId)
    {
        return "SELECT event_timestamp, voltage FROM %s.telemetry.events WHERE device_id = '" + deviceId + "' LIMIT 10";
    }

    // the load levels' results, in the order they ran
    static final List<LoadLevels.LoadResult> loads = new ArrayList<>();

    /**
     * With {@code --load-levels}: each catalog put under load, level after level. A client's query looks up a device
     * drawn as the writer drew them, so nearly always present (a device has six rows on average), and never asked before
     * in the run.
     */
    private static void runLoadLevels(DistributedQueryRunner runner, Options options, DemoDataset.Scale scale, CountingProxy ours, CountingProxy hive)
            throws InterruptedException
    {
        List<String> catalogs = options.loadCatalogs().orElse(options.catalogs().stream().filter(catalog -> !catalog.equals("hive_bloom_off")).toList());
        for (String catalog : catalogs) {
            String name = catalogName(catalog);
            for (int level = 0; level < options.loadLevels().size(); level++) {
                int clients = options.loadLevels().get(level);
                int seconds = options.loadSeconds().get(options.loadSeconds().size() == 1 ? 0 : level);
                progress("load on %s: %d clients for %d s".formatted(catalog, clients, seconds));
                long salt = (long) catalog.hashCode() * 1_000_003L + clients;
                LoadLevels.LoadResult result = LoadLevels.run(runner, catalog, clients, seconds, isPeer(catalog) ? hive : ours,
                        query -> referenceQuery(DemoDataset.deviceId(new SplittableRandom(salt * 7_919 + query).nextInt(scale.devices()))).formatted(name));
                progress("  %d completed (%.2f/s), p50 %.0f ms, p99 %.0f ms, %d errors, %d cut at the end, heap max %d MB, after GC %d MB, threads max %d, S3 connections max %d; idle again after %,d ms with %d MB of the memory pool still reserved; open files max %,d, after %,d; largest thread groups after it: %s".formatted(
                        result.completed(), result.throughput(), result.p50(), result.p99(), result.errors(), result.cut(), result.heapMaxMb(), result.heapAfterGcMb(), result.threadsMax(), result.s3ConnectionsMax(), result.idleMillis(), result.poolReservedAfterMb(), result.openFilesMax(), result.openFilesAfter(), result.largestThreadGroups()));
                loads.add(result);
            }
        }
    }

    // key indexes of the phases, apart so that no phase meets another's keys
    private static final int WARM_KEYS = 1_000_000;
    private static final int REPEAT_KEY = 2_000_000;
    private static final int WARM_UP_KEY = 3_000_000;

    private static final Set<String> SERIAL_WORKLOADS = Set.of("serial_absent", "serial_present");

    private static boolean wantsSerials(Options options)
    {
        return options.workloads().map(names -> names.stream().anyMatch(SERIAL_WORKLOADS::contains)).orElse(true);
    }

    private static List<Result> runWorkloads(DistributedQueryRunner runner, Options options, DemoDataset.Scale scale, Optional<SerialsTable> serials, CountingProxy ours, CountingProxy hive)
            throws Exception
    {
        long baselineHeap = usedHeapAfterGc();
        Keys keys = Keys.of(runner);
        options.faults().ifPresent(mix -> {
            // the keys are chosen; from now on every catalog's GETs meet the same mix of faults
            progress("injecting faults into object GETs: " + mix.name());
            ours.injectFaults(mix);
            hive.injectFaults(mix);
        });
        List<String> in2000 = new ArrayList<>();
        for (int i = 0; i < HOT_DEVICES; i++) {
            in2000.add(DemoDataset.hotDeviceId(i));
        }
        List<Workload> workloads = new ArrayList<>(List.of(
                new Workload("absent_key", key -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id = '" + keys.absent(key) + "'", false),
                // the reference's own query (its tensao is this table's voltage): a present key, new on every run
                new Workload(REFERENCE_QUERY, key -> referenceQuery(keys.present(key)), false),
                new Workload("present_key", key -> "SELECT device_id, trace_id, voltage FROM %s.telemetry.events WHERE device_id = '" + keys.present(key) + "'", false),
                new Workload("in_10", key -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id IN (" + quoted(keys.mixed(key, 10)) + ")", false),
                new Workload("in_2000", _ -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id IN (" + quoted(in2000) + ")", false),
                // 2,000 keys of no device, new on every run: at 1% FPP, 1 - 0.99^2000 of row groups pass their filters
                new Workload("in_2000_absent", key -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id IN (" + quoted(keys.absent(key, 2000)) + ")", false),
                // the issue-25 shape: 2,000 keys, half present, new on every run, spread over the whole key space, so
                // nearly every row group passes 1% filters and min/max statistics prune nothing
                new Workload("in_2000_spread", key -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id IN (" + quoted(keys.mixed(key, 2000)) + ")", false),
                new Workload("join_dynamic_filter", _ -> "SELECT count(*) FROM %1$s.telemetry.events e JOIN %1$s.telemetry.keys k ON e.device_id = k.device_id", false),
                new Workload("range_control", _ -> "SELECT count(*) FROM %s.telemetry.events WHERE event_timestamp >= TIMESTAMP '2025-03-01 00:00:00' AND event_timestamp < TIMESTAMP '2025-03-08 00:00:00'", false),
                new Workload("full_scan", key -> "SELECT count(*) FROM %s.telemetry.events WHERE device_id = '" + keys.absent(key) + "'", true),
                // ours only: every footer and filter of the table, verdicts per column
                new Workload(FILTER_ADVICE, _ -> "SELECT count(*) FROM %s.telemetry.\"events$bloom_filter_advice\"", false)));
        // a Trino-written key of a few thousand values per row group: dictionaries, not filters, skip row groups
        serials.ifPresent(table -> workloads.addAll(List.of(
                new Workload("serial_absent", key -> "SELECT count(*) FROM %s.telemetry.serials WHERE serial = '" + table.absent(key) + "'", false),
                new Workload("serial_present", key -> "SELECT serial, seq, reading FROM %s.telemetry.serials WHERE serial = '" + table.present(key) + "'", false))));

        List<Result> results = new ArrayList<>();
        int step = 0;
        List<Workload> selected = workloads.stream()
                .filter(workload -> options.workloads().map(names -> names.contains(workload.name())).orElse(true))
                .toList();
        long hiveCatalogs = options.catalogs().stream().filter(LookupBenchmark::isPeer).count();
        long steps = selected.stream().mapToLong(workload -> workload.name().equals(FILTER_ADVICE) ? options.catalogs().size() - hiveCatalogs : options.catalogs().size()).sum() * PHASES.size();
        warmUpEngine(runner, selected, options.catalogs(), ours, hive);
        for (Workload workload : selected) {
            for (String phase : PHASES) {
                MaterializedResult expected = null;
                for (String catalog : options.catalogs()) {
                    if (workload.name().equals(FILTER_ADVICE) && isPeer(catalog)) {
                        continue;
                    }
                    CountingProxy proxy = isPeer(catalog) ? hive : ours;
                    progress("[%d/%d] %s on %s, %s, %d runs".formatted(++step, steps, workload.name(), catalog, phase, options.runs()));
                    Measured measured = measure(runner, catalog, phase, workload, options, proxy);
                    if (expected == null) {
                        expected = measured.result();
                    }
                    else if (workload.name().equals(REFERENCE_QUERY) ? expected.getRowCount() != measured.result().getRowCount() : !sameRows(expected, measured.result())) {
                        // LIMIT 10 of a key with more rows may return any 10 of them: only how many is the same
                        throw new IllegalStateException("%s: %s returned other rows than %s:%n%s%nvs%n%s".formatted(workload.name(), catalog, options.catalogs().getFirst(), measured.result(), expected));
                    }
                    results.add(new Result(workload.name(), catalog, phase, options.runs(), measured.gets(), measured.bytes(), measured.lists(),
                            BenchmarkReports.percentile(measured.millis(), 50), BenchmarkReports.percentile(measured.millis(), 95), BenchmarkReports.percentile(measured.millis(), 99), measured.result().getRowCount(), 0, measured.filesScheduled(), measured.faults()));
                }
            }
        }
        // the catalogs' metadata caches are warm now: what do they hold on this (coordinator) heap?
        progress("heap used after the workloads: %,d MB (before them: %,d MB)".formatted(usedHeapAfterGc() >> 20, baselineHeap >> 20));
        List<String> concurrencyCatalogs = options.catalogs().stream().filter(catalog -> !catalog.equals("hive_bloom_off")).toList();
        for (String catalog : options.workloads().map(names -> names.contains("concurrency") ? concurrencyCatalogs : List.<String>of()).orElse(concurrencyCatalogs)) {
            progress("concurrency on %s: %d clients for %d s".formatted(catalog, options.clients(), options.concurrencySeconds()));
            results.add(concurrency(runner, catalog, options, keys));
        }
        runLoadLevels(runner, options, scale, ours, hive);
        return results;
    }

    /**
     * cold: a fresh catalog per run (empty caches, nothing learned) and new keys; warm: metadata cached by earlier
     * queries, a new key (or key set) on every run, as when a user types a new device id; repeat: the same predicate
     * again, so what the no-match cache remembers of earlier answers shows apart from pruning.
     */
    private static final List<String> PHASES = List.of("cold", "warm", "repeat");

    /**
     * The lookup keys, drawn by a seeded generator, the same for every catalog: present ones from the data, absent
     * ones no device has.
     */
    private record Keys(List<String> present, double[] zipfCumulative)
    {
        static Keys of(DistributedQueryRunner runner)
        {
            List<String> present = runner.execute("SELECT DISTINCT device_id FROM lake.telemetry.events WHERE year = 2025 AND month = 1 ORDER BY device_id LIMIT 1000")
                    .getOnlyColumn().map(String.class::cast).toList();
            // Zipf, s = 1.1: the key of rank r is asked in proportion to 1 / r^1.1
            double[] cumulative = new double[present.size()];
            double total = 0;
            for (int rank = 1; rank <= present.size(); rank++) {
                total += 1 / Math.pow(rank, 1.1);
                cumulative[rank - 1] = total;
            }
            return new Keys(present, cumulative);
        }

        String present(int index)
        {
            return present.get(new SplittableRandom(index).nextInt(present.size()));
        }

        String absent(int index)
        {
            // below every hot device (deviceId(-2 - i)) and every key of the IN lists: in no file
            return DemoDataset.deviceId(-1_000_000_000L - index);
        }

        /**
         * {@code size} keys no device has, none shared with another index.
         */
        List<String> absent(int index, int size)
        {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                keys.add(DemoDataset.deviceId(-100_000_000L - (long) index * size - i));
            }
            return keys;
        }

        /**
         * {@code size} keys, half present, half absent.
         */
        List<String> mixed(int index, int size)
        {
            SplittableRandom random = new SplittableRandom(index);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                keys.add(i % 2 == 0 ? present.get(random.nextInt(present.size())) : DemoDataset.deviceId(-10_000_000L - (long) index * size - i));
            }
            return keys;
        }

        /**
         * A dashboard's stream: 80% present keys, hot ones far more often (Zipf over the present keys), and 20% absent
         * keys never asked before.
         */
        String dashboard(SplittableRandom random, int client, int query)
        {
            if (random.nextInt(5) == 0) {
                return absent(4_000_000 + client * 100_000 + query);
            }
            int found = Arrays.binarySearch(zipfCumulative, random.nextDouble() * zipfCumulative[zipfCumulative.length - 1]);
            return present.get(Math.min(present.size() - 1, found >= 0 ? found : -found - 1));
        }
    }

    /**
     * @param filesScheduled ours only (-1 for Hive): files that became splits, per query (our split source's metrics)
     */
    private record Measured(MaterializedResult result, long gets, long bytes, long lists, List<Double> millis, long filesScheduled, FaultCounts faults) {}

    private static Measured measure(DistributedQueryRunner runner, String catalog, String phase, Workload workload, Options options, CountingProxy proxy)
            throws IOException
    {
        List<Double> millis = new ArrayList<>();
        MaterializedResult result = null;
        long gets = 0;
        long bytes = 0;
        long lists = 0;
        long filesScheduled = 0;
        long injected = 0;
        long retries = 0;
        long throttled = 0;
        String warmName = catalogName(catalog);
        if (!phase.equals("cold")) {
            // metadata warm, with a key no run uses; repeat: its one predicate asked once before the runs
            runner.execute(session(runner, catalog, warmName, workload), workload.template().apply(WARM_UP_KEY).formatted(warmName));
            for (int query = 1; phase.equals("warm") && !isPeer(catalog) && query < warmUpQueries; query++) {
                runner.execute(session(runner, catalog, warmName, workload), workload.template().apply(WARM_UP_KEY + query).formatted(warmName));
            }
            if (phase.equals("repeat")) {
                runner.execute(session(runner, catalog, warmName, workload), workload.template().apply(REPEAT_KEY).formatted(warmName));
            }
        }
        for (int run = 0; run < options.runs(); run++) {
            String name = warmName;
            if (phase.equals("cold")) {
                name = "%s_cold_%d".formatted(warmName, System.nanoTime() % 1_000_000_000L);
                runner.createCatalog(name, connector(catalog), properties(catalog, proxy));
            }
            int key = switch (phase) {
                case "cold" -> run;
                case "warm" -> WARM_KEYS + run;
                default -> REPEAT_KEY;
            };
            proxy.reset();
            long injectedBefore = injectedFaults(proxy);
            long start = System.nanoTime();
            var executed = runner.executeWithPlan(session(runner, catalog, name, workload), workload.template().apply(key).formatted(name));
            millis.add((System.nanoTime() - start) / 1e6);
            result = executed.result();
            if (!isPeer(catalog)) {
                QueryMetrics metrics = QueryMetrics.of(runner, executed.queryId());
                filesScheduled += metrics.get("filesTotal") - metrics.get("filesPrunedBeforeSplits");
                retries += metrics.get("s3PlanningRetries") + metrics.get("s3Retries");
                throttled += metrics.get("s3PlanningThrottledAttempts") + metrics.get("s3ThrottledAttempts");
                progress("  run %d: %.0f ms; GETs planning %d, readers %d; key index: files covered %d, pages %d, unusable %d; dictionary pages %d; retries %d; hedged %d (won %d); row groups read key first %d, whole %d, by pages %d (pages read %d, skipped %d)".formatted(
                        run, millis.getLast(), metrics.get("s3PlanningGetRequests"), metrics.get("s3GetRequests"),
                        metrics.get("filesCoveredByKeyIndex"), metrics.get("keyIndexPagesRead"), metrics.get("keyIndexUnusable"),
                        metrics.get("planningDictionaryPagesRead") + metrics.get("dictionaryPagesRead"),
                        metrics.get("s3PlanningRetries") + metrics.get("s3Retries"), metrics.get("s3PlanningHedgedGets") + metrics.get("s3HedgedGets"),
                        metrics.get("s3PlanningHedgesWon") + metrics.get("s3HedgesWon"), metrics.get("rowGroupsReadKeyFirst"), metrics.get("rowGroupsReadWhole"),
                        metrics.get("rowGroupsReadByPages"), metrics.get("pagesRead"), metrics.get("pagesSkipped")));
            }
            injected += injectedFaults(proxy) - injectedBefore;
            CountingProxy.Counts counts = proxy.counts();
            if (isPeer(catalog)) {
                progress("  run %d: %.0f ms; GETs %d".formatted(run, millis.getLast(), counts.gets()));
            }
            gets += counts.gets();
            bytes += counts.getBytes();
            lists += counts.lists();
            if (phase.equals("cold")) {
                runner.execute("DROP CATALOG " + name);
            }
        }
        double runs = options.runs();
        FaultCounts faults = new FaultCounts(injected / runs, isPeer(catalog) ? -1 : retries / runs, isPeer(catalog) ? -1 : throttled / runs);
        return new Measured(result, gets / options.runs(), bytes / options.runs(), lists / options.runs(), millis, isPeer(catalog) ? -1 : filesScheduled / options.runs(), faults);
    }

    private static long injectedFaults(CountingProxy proxy)
    {
        return proxy.injectedFaults().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The session a workload runs with in {@code trinoCatalog}: for {@code full_scan}, every pruning path of that
     * catalog off.
     */
    /**
     * One untimed round of the selected workloads on throw-away catalogs (ours with the plain properties, so no disk
     * tier of a measured catalog is touched, and Hive's) before anything is measured: the JIT compiles the engine's
     * and the connectors' code then, instead of during the first workload, where it slowed whichever catalog ran
     * first (ours). Failures (injected faults) do not matter here.
     */
    private static void warmUpEngine(DistributedQueryRunner runner, List<Workload> selected, List<String> catalogs, CountingProxy ours, CountingProxy hive)
    {
        progress("warming up the engine: each workload once on throw-away catalogs, untimed");
        runner.createCatalog("jit_ours", "parquet_bloom", oursProperties(ours, "parquet_bloom"));
        boolean withHive = catalogs.stream().anyMatch(catalog -> catalog.startsWith("hive"));
        if (withHive) {
            runner.createCatalog("jit_hive", "hive", hiveProperties(hive, true));
        }
        boolean withIceberg = catalogs.contains(ICEBERG);
        if (withIceberg) {
            runner.createCatalog("jit_iceberg", "iceberg", icebergProperties(hive));
        }
        for (Workload workload : selected) {
            warmUp(runner, "parquet_bloom", "jit_ours", workload);
            if (withHive && !workload.name().equals(FILTER_ADVICE)) {
                warmUp(runner, "hive", "jit_hive", workload);
            }
            if (withIceberg && !workload.name().equals(FILTER_ADVICE)) {
                warmUp(runner, ICEBERG, "jit_iceberg", workload);
            }
        }
    }

    private static void warmUp(DistributedQueryRunner runner, String catalog, String trinoCatalog, Workload workload)
    {
        try {
            runner.execute(session(runner, catalog, trinoCatalog, workload), workload.template().apply(WARM_UP_KEY).formatted(trinoCatalog));
        }
        catch (RuntimeException e) {
            progress("  warm-up of %s on %s failed (ignored): %s".formatted(workload.name(), trinoCatalog, e.getMessage()));
        }
    }

    private static Session session(DistributedQueryRunner runner, String catalog, String trinoCatalog, Workload workload)
    {
        Session session = runner.getDefaultSession();
        if (!workload.allPruningOff()) {
            return session;
        }
        if (isPeer(catalog)) {
            return Session.builder(session)
                    .setCatalogSessionProperty(trinoCatalog, "parquet_use_bloom_filter", "false")
                    .setCatalogSessionProperty(trinoCatalog, "parquet_ignore_statistics", "true")
                    .build();
        }
        return Session.builder(session)
                .setCatalogSessionProperty(trinoCatalog, "bloom_filter_enabled", "false")
                .setCatalogSessionProperty(trinoCatalog, "statistics_pruning_enabled", "false")
                .setCatalogSessionProperty(trinoCatalog, "no_match_cache_enabled", "false")
                .setCatalogSessionProperty(trinoCatalog, "dictionary_pruning_enabled", "false")
                .setCatalogSessionProperty(trinoCatalog, "key_index_enabled", "false")
                .build();
    }

    /**
     * Clients sending dashboard lookups ({@link Keys#dashboard}) for a fixed time; client {@code i} draws the same
     * stream whatever the catalog.
     */
    private static Result concurrency(DistributedQueryRunner runner, String catalog, Options options, Keys keys)
            throws InterruptedException
    {
        String name = catalogName(catalog);
        ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.concurrencySeconds());
        ExecutorService clients = Executors.newFixedThreadPool(options.clients());
        for (int client = 0; client < options.clients(); client++) {
            int id = client;
            clients.execute(() -> {
                SplittableRandom random = new SplittableRandom(id);
                for (int query = 0; System.nanoTime() < deadline; query++) {
                    String key = keys.dashboard(random, id, query);
                    long start = System.nanoTime();
                    runner.execute("SELECT count(*) FROM %s.telemetry.events WHERE device_id = '%s'".formatted(name, key));
                    latencies.add((System.nanoTime() - start) / 1e6);
                }
            });
        }
        clients.shutdown();
        clients.awaitTermination(options.concurrencySeconds() + 600L, TimeUnit.SECONDS);
        List<Double> all = new ArrayList<>(latencies);
        return new Result("concurrency", catalog, "warm", all.size(), 0, 0, 0, BenchmarkReports.percentile(all, 50), BenchmarkReports.percentile(all, 95), BenchmarkReports.percentile(all, 99), 0, all.size() / (double) options.concurrencySeconds(), -1, FaultCounts.NONE);
    }

    private static long usedHeapAfterGc()
    {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    // catalog properties of our catalog given with --lake-property
    private static Map<String, String> extraLakeProperties = Map.of();
    // --warm-up-queries: warm-up queries of our catalogs before a warm phase's runs
    private static int warmUpQueries = 1;
    // --table-format iceberg: our catalogs read the Iceberg tables of IcebergLake, and catalog iceberg is a peer
    private static boolean icebergTables;
    // --table-format delta: our catalogs read the Delta Lake tables of DeltaLake
    private static boolean deltaTables;
    private static Map<String, String> icebergMetadataFiles = Map.of();
    // --scaled-budget: our catalog with the key index at the scaled budget too; the per-file path without it fits
    private static boolean scaledBudget;
    private static int scaledRowsPerRowGroup;

    // the key index builds and refresh of --key-index
    private static final KeyIndexBench keyIndexBench = new KeyIndexBench();

    // the big-table mode's working set, once measured
    private static Optional<MetadataBudgets> budgets = Optional.empty();

    private static Map<String, String> oursProperties(CountingProxy proxy, String catalog)
    {
        Map<String, String> properties = new HashMap<>(extraLakeProperties);
        if (MetadataBudgets.isVariant(catalog)) {
            properties.putAll(budgets.orElseThrow().properties(catalog));
        }
        if (catalog.equals(UNSHARED_LISTINGS)) {
            properties.put("metadata.shared-listing-max-age", "0s");
        }
        if (catalog.equals(WHOLE_CHUNKS) || catalog.equals(NO_INDEX_WHOLE_CHUNKS)) {
            properties.put("page-reads.enabled", "false");
        }
        if (catalog.equals(NO_INDEX) || catalog.equals(NO_INDEX_WHOLE_CHUNKS)) {
            properties.put("key-index.enabled", "false");
        }
        else if (scaledBudget && !MetadataBudgets.isVariant(catalog)) {
            properties.put("metadata-cache.max-size", MetadataBudgets.scaledBudget(scaledRowsPerRowGroup) + "B");
        }
        return ImmutableMap.<String, String>builder()
                .putAll(properties)
                .put("location", "s3://" + BUCKET + "/" + (icebergTables ? IcebergLake.ROOT : deltaTables ? DeltaLake.ROOT : ROOT))
                .put("s3.endpoint", proxy.endpoint())
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", S3ProxyProcess.ACCESS_KEY)
                .put("s3.aws-secret-key", S3ProxyProcess.SECRET_KEY)
                .buildOrThrow();
    }

    /**
     * The Trino catalog a benchmark catalog runs as when warm.
     */
    private static String catalogName(String catalog)
    {
        if (MetadataBudgets.isVariant(catalog)) {
            return MetadataBudgets.trinoCatalog(catalog);
        }
        return switch (catalog) {
            case "parquet_bloom" -> "lake";
            case NO_INDEX -> "lake_no_index";
            case UNSHARED_LISTINGS -> "lake_unshared_listings";
            case WHOLE_CHUNKS -> "lake_whole_chunks";
            case NO_INDEX_WHOLE_CHUNKS -> "lake_no_index_whole_chunks";
            case "hive" -> "hive";
            case ICEBERG -> ICEBERG;
            case "hive_bloom_off" -> "hive_off";
            default -> throw new IllegalArgumentException("unknown catalog " + catalog);
        };
    }

    /**
     * A connector's catalog that is not ours: Hive's, or Trino's Iceberg connector's with {@code --table-format iceberg}.
     */
    private static boolean isPeer(String catalog)
    {
        return catalog.startsWith("hive") || catalog.equals(ICEBERG);
    }

    private static String connector(String catalog)
    {
        return catalog.equals(ICEBERG) ? "iceberg" : catalog.startsWith("hive") ? "hive" : "parquet_bloom";
    }

    private static Map<String, String> properties(String catalog, CountingProxy proxy)
    {
        if (catalog.equals(ICEBERG)) {
            return icebergProperties(proxy);
        }
        return catalog.startsWith("hive") ? hiveProperties(proxy, !catalog.equals("hive_bloom_off")) : oursProperties(proxy, catalog);
    }

    /**
     * Trino's Iceberg connector as users would configure it for lookups: its metastore's objects under
     * {@code bench-metastore/} (neither counted nor delayed, as Hive's), bloom filters on, defaults otherwise.
     */
    private static Map<String, String> icebergProperties(CountingProxy proxy)
    {
        return ImmutableMap.<String, String>builder()
                .put("iceberg.catalog.type", "TESTING_FILE_METASTORE")
                .put("hive.metastore.catalog.dir", "s3://" + BUCKET + "/bench-metastore/iceberg")
                .put("iceberg.register-table-procedure.enabled", "true")
                .putAll(nativeS3(proxy))
                .put("parquet.use-bloom-filter", "true")
                .buildOrThrow();
    }

    /**
     * The Iceberg tables of {@link IcebergLake} registered in catalog {@value #ICEBERG}, at the metadata files written.
     */
    private static void registerIcebergTables(DistributedQueryRunner runner, CountingProxy proxy)
    {
        progress("registering the Iceberg tables in Trino's Iceberg connector");
        runner.installPlugin(new IcebergPlugin());
        runner.createCatalog(ICEBERG, "iceberg", icebergProperties(proxy));
        runner.execute("CREATE SCHEMA iceberg.telemetry WITH (location = 's3://%s/bench-metastore/iceberg-telemetry')".formatted(BUCKET));
        icebergMetadataFiles.forEach((table, metadataFile) -> runner.execute("CALL iceberg.system.register_table(schema_name => 'telemetry', table_name => '%s', table_location => '%s', metadata_file_name => '%s')"
                .formatted(table, IcebergLake.location(BUCKET, table), metadataFile)));
    }

    private static Map<String, String> hiveProperties(CountingProxy proxy, boolean bloomFilters)
    {
        return ImmutableMap.<String, String>builder()
                .put("hive.metastore", "file")
                .put("hive.metastore.catalog.dir", "s3://" + BUCKET + "/bench-metastore")
                .putAll(nativeS3(proxy))
                .put("parquet.use-bloom-filter", String.valueOf(bloomFilters))
                .put("hive.timestamp-precision", "MICROSECONDS")
                .buildOrThrow();
    }

    /**
     * Trino's native S3 file system through {@code proxy}, as Hive and Iceberg catalogs configure it.
     */
    private static Map<String, String> nativeS3(CountingProxy proxy)
    {
        return ImmutableMap.<String, String>builder()
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", proxy.endpoint())
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", S3ProxyProcess.ACCESS_KEY)
                .put("s3.aws-secret-key", S3ProxyProcess.SECRET_KEY)
                .buildOrThrow();
    }

    private static List<String> writeKeys(S3Client client, Path work, DemoDataset.Scale scale)
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(100);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add(i % 2 == 0 ? DemoDataset.deviceId(random.nextInt(scale.devices())) : DemoDataset.deviceId(-2_000_000L - i));
        }
        MessageType schema = MessageTypeParser.parseMessageType("message keys { required binary device_id (STRING); }");
        Path file = work.resolve("keys.parquet");
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, schema, ParquetFixtureWriter.Options.rowsPerRowGroup(keys.size()))) {
            for (String key : keys) {
                writer.write(writer.newRow().append("device_id", key));
            }
        }
        client.putObject(request -> request.bucket(BUCKET).key(ROOT + "telemetry/keys/keys.parquet"), RequestBody.fromFile(file));
        return keys;
    }

    private static boolean sameRows(MaterializedResult left, MaterializedResult right)
    {
        List<String> a = left.getMaterializedRows().stream().map(Object::toString).sorted().toList();
        List<String> b = right.getMaterializedRows().stream().map(Object::toString).sorted().toList();
        return a.equals(b);
    }

    /**
     * Under faults: p50 and p95 of every workload and catalog, the faults its GETs met and, for ours, the retries
     * and throttled attempts per query.
     */
    static String faultsMarkdown(CountingProxy.FaultMix mix, List<Result> results)
    {
        StringBuilder table = new StringBuilder("faults injected into object GETs: %s%n%n".formatted(mix.name()));
        table.append("| workload | phase | catalog | p50 ms | p95 ms | GETs per query | faults met per query | retries per query | throttled attempts per query |\n");
        table.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Result result : results) {
            if (result.workload().equals("concurrency")) {
                continue;
            }
            FaultCounts faults = result.faults();
            table.append("| %s | %s | %s | %.0f | %.0f | %d | %.1f | %s | %s |%n".formatted(result.workload(), result.phase(), result.catalog(), result.p50(), result.p95(), result.gets(),
                    faults.injected(), faults.retries() < 0 ? "-" : "%.1f".formatted(faults.retries()), faults.throttled() < 0 ? "-" : "%.1f".formatted(faults.throttled())));
        }
        return table.toString();
    }

    static String markdown(List<Result> results)
    {
        StringBuilder table = new StringBuilder();
        table.append("| workload | phase | parquet_bloom GETs / MiB / p50 ms (LISTs) [files scheduled] | hive GETs / MiB / p50 ms (LISTs) | GETs hive/ours | bytes hive/ours | p50 hive/ours | hive, filters off: GETs / MiB / p50 ms | p50 hive off/ours |\n");
        table.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Result ours : results) {
            if (!ours.catalog().equals("parquet_bloom") || ours.workload().equals("concurrency")) {
                continue;
            }
            Optional<Result> hive = peer(results, "hive", ours);
            Optional<Result> hiveOff = peer(results, "hive_bloom_off", ours);
            table.append(String.format(Locale.ROOT, "| %s | %s | %d / %.1f / %.0f (%d) [%d] | %s | %s | %s | %s | %s | %s |%n",
                    ours.workload(), ours.phase(),
                    ours.gets(), ours.bytes() / 1048576.0, ours.p50(), ours.lists(), ours.filesScheduled(),
                    hive.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f (%d)", value.gets(), value.bytes() / 1048576.0, value.p50(), value.lists())).orElse("-"),
                    hive.map(value -> ratio(value.gets(), ours.gets())).orElse("-"),
                    hive.map(value -> ratio(value.bytes(), ours.bytes())).orElse("-"),
                    hive.map(value -> ratio(value.p50(), ours.p50())).orElse("-"),
                    hiveOff.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f", value.gets(), value.bytes() / 1048576.0, value.p50())).orElse("-"),
                    hiveOff.map(value -> ratio(value.p50(), ours.p50())).orElse("-")));
        }
        table.append("\n| concurrency | queries/s | p50 ms | p99 ms |\n|---|---|---|---|\n");
        for (Result result : results) {
            if (result.workload().equals("concurrency")) {
                table.append(String.format(Locale.ROOT, "| %s | %.1f | %.0f | %.0f |%n", result.catalog(), result.throughput(), result.p50(), result.p99()));
            }
        }
        return table.toString();
    }

    /**
     * Ours with the key index against ours without it (the per-file path) and Hive, where the run had both of ours.
     */
    static String keyIndexMarkdown(List<Result> results)
    {
        if (results.stream().noneMatch(result -> result.catalog().equals(NO_INDEX))) {
            return "";
        }
        StringBuilder table = new StringBuilder();
        table.append("| workload | phase | key index: GETs / MiB / p50 ms [files scheduled] | per-file path: GETs / MiB / p50 ms [files scheduled] | hive: GETs / MiB / p50 ms | p50 per-file/index | p50 hive/index |\n");
        table.append("|---|---|---|---|---|---|---|\n");
        for (Result ours : results) {
            if (!ours.catalog().equals("parquet_bloom") || ours.workload().equals("concurrency")) {
                continue;
            }
            Optional<Result> perFile = peer(results, NO_INDEX, ours);
            Optional<Result> hive = peer(results, "hive", ours);
            table.append(String.format(Locale.ROOT, "| %s | %s | %d / %.1f / %.0f [%d] | %s | %s | %s | %s |%n",
                    ours.workload(), ours.phase(), ours.gets(), ours.bytes() / 1048576.0, ours.p50(), ours.filesScheduled(),
                    perFile.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f [%d]", value.gets(), value.bytes() / 1048576.0, value.p50(), value.filesScheduled())).orElse("-"),
                    hive.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f", value.gets(), value.bytes() / 1048576.0, value.p50())).orElse("-"),
                    perFile.map(value -> ratio(value.p50(), ours.p50())).orElse("-"),
                    hive.map(value -> ratio(value.p50(), ours.p50())).orElse("-")));
        }
        return table.toString();
    }

    /**
     * Ours on the Iceberg tables, with the key index and without it (the per-file path), against Trino's Iceberg
     * connector, where the run had it ({@code --table-format iceberg}).
     */
    static String icebergMarkdown(List<Result> results)
    {
        if (results.stream().noneMatch(result -> result.catalog().equals(ICEBERG))) {
            return "";
        }
        StringBuilder table = new StringBuilder();
        table.append("| workload | phase | ours, key index: GETs / MiB / p50 ms | ours, per-file: GETs / MiB / p50 ms | Trino Iceberg: GETs / MiB / p50 ms | p50 Iceberg/index | p50 Iceberg/per-file | MiB Iceberg/index |\n");
        table.append("|---|---|---|---|---|---|---|---|\n");
        for (Result ours : results) {
            if (!ours.catalog().equals("parquet_bloom") || ours.workload().equals("concurrency")) {
                continue;
            }
            Optional<Result> perFile = peer(results, NO_INDEX, ours);
            Optional<Result> iceberg = peer(results, ICEBERG, ours);
            table.append(String.format(Locale.ROOT, "| %s | %s | %d / %.1f / %.0f | %s | %s | %s | %s | %s |%n",
                    ours.workload(), ours.phase(), ours.gets(), ours.bytes() / 1048576.0, ours.p50(),
                    perFile.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f", value.gets(), value.bytes() / 1048576.0, value.p50())).orElse("-"),
                    iceberg.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f", value.gets(), value.bytes() / 1048576.0, value.p50())).orElse("-"),
                    iceberg.map(value -> ratio(value.p50(), ours.p50())).orElse("-"),
                    iceberg.flatMap(value -> perFile.map(other -> ratio(value.p50(), other.p50()))).orElse("-"),
                    iceberg.map(value -> ratio(value.bytes(), ours.bytes())).orElse("-")));
        }
        return table.toString();
    }

    private static Optional<Result> peer(List<Result> results, String catalog, Result ours)
    {
        return results.stream().filter(other -> other.catalog().equals(catalog) && other.workload().equals(ours.workload()) && other.phase().equals(ours.phase())).findFirst();
    }

    private static String ratio(double hive, double ours)
    {
        if (ours == 0) {
            return hive == 0 ? "-" : "inf";
        }
        return String.format(Locale.ROOT, "%.1fx", hive / ours);
    }

    @JsonPropertyOrder({"writer", "files", "row_groups_per_file", "rows_per_row_group", "runs", "latency_ms", "concurrency_seconds", "clients"})
    record ScaleJson(
            String writer,
            int files,
            @JsonProperty("row_groups_per_file") int rowGroupsPerFile,
            @JsonProperty("rows_per_row_group") int rowsPerRowGroup,
            int runs,
            @JsonProperty("latency_ms") long latencyMillis,
            @JsonProperty("concurrency_seconds") int concurrencySeconds,
            int clients) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"workload", "catalog", "phase", "runs", "gets", "bytes", "lists", "p50_ms", "p95_ms", "p99_ms", "rows", "files_scheduled", "throughput_qps"})
    record ResultJson(
            String workload,
            String catalog,
            String phase,
            int runs,
            long gets,
            long bytes,
            long lists,
            @JsonProperty("p50_ms") double p50,
            @JsonProperty("p95_ms") double p95,
            @JsonProperty("p99_ms") double p99,
            long rows,
            @JsonProperty("files_scheduled") Long filesScheduled,
            @JsonProperty("throughput_qps") Double throughput)
    {
        static ResultJson of(Result result)
        {
            return new ResultJson(result.workload(), result.catalog(), result.phase(), result.runs(), result.gets(), result.bytes(), result.lists(),
                    BenchmarkReports.tenths(result.p50()), BenchmarkReports.tenths(result.p95()), BenchmarkReports.tenths(result.p99()), result.rows(),
                    result.filesScheduled() >= 0 ? result.filesScheduled() : null,
                    result.workload().equals("concurrency") ? Math.round(result.throughput() * 100) / 100.0 : null);
        }
    }

    @JsonPropertyOrder({"catalog", "clients", "seconds", "completed", "throughput_qps", "p50_ms", "p95_ms", "p99_ms", "errors", "cut", "heap_max_mb", "heap_after_gc_mb", "threads_max", "s3_connections_max", "first_error", "idle_after_ms", "memory_pool_reserved_after_mb", "open_files_max", "open_files_after"})
    record LoadJson(
            String catalog,
            int clients,
            int seconds,
            int completed,
            @JsonProperty("throughput_qps") double throughput,
            @JsonProperty("p50_ms") double p50,
            @JsonProperty("p95_ms") double p95,
            @JsonProperty("p99_ms") double p99,
            int errors,
            int cut,
            @JsonProperty("heap_max_mb") long heapMaxMb,
            @JsonProperty("heap_after_gc_mb") long heapAfterGcMb,
            @JsonProperty("threads_max") int threadsMax,
            @JsonProperty("s3_connections_max") int s3ConnectionsMax,
            @JsonProperty("first_error") String firstError,
            @JsonProperty("idle_after_ms") long idleAfterMillis,
            @JsonProperty("memory_pool_reserved_after_mb") long poolReservedAfterMb,
            @JsonProperty("open_files_max") long openFilesMax,
            @JsonProperty("open_files_after") long openFilesAfter)
    {
        static LoadJson of(LoadLevels.LoadResult result)
        {
            return new LoadJson(result.catalog(), result.clients(), result.seconds(), result.completed(), Math.round(result.throughput() * 100) / 100.0,
                    BenchmarkReports.tenths(result.p50()), BenchmarkReports.tenths(result.p95()), BenchmarkReports.tenths(result.p99()), result.errors(), result.cut(),
                    result.heapMaxMb(), result.heapAfterGcMb(), result.threadsMax(), result.s3ConnectionsMax(), result.firstError().orElse(null),
                    result.idleMillis(), result.poolReservedAfterMb(), result.openFilesMax(), result.openFilesAfter());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record ReportJson(String command, ScaleJson scale, List<ResultJson> results, List<LoadJson> load, Map<String, Object> budgets, List<String> keyIndex) {}

    static String json(Options options, List<Result> results)
    {
        ScaleJson scale = new ScaleJson(options.writer(), options.files(), options.rowGroups(), options.rowsPerRowGroup(), options.runs(), options.latencyMillis(), options.concurrencySeconds(), options.clients());
        return BenchmarkReports.json(new ReportJson(System.getProperty("parquetbloom.bench.command", ""), scale, results.stream().map(ResultJson::of).toList(), loads.stream().map(LoadJson::of).toList(),
                budgets.map(MetadataBudgets::describeJson).orElse(Map.of()), keyIndexBench.rows()));
    }

    private static String quoted(List<String> values)
    {
        return values.stream().map(value -> "'" + value + "'").collect(Collectors.joining(","));
    }

    private static void progress(String message)
    {
        System.out.println("[bench] " + message);
    }

    static int port(String endpoint)
    {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
