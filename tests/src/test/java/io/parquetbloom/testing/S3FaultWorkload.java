package io.parquetbloom.testing;

import com.google.common.collect.ImmutableMap;
import io.trino.Session;
import io.trino.server.BasicQueryInfo;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryFailedException;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Lookups of {@code telemetry.events} (present key, absent key, IN list, join) while the S3 front injects a fault mix;
 * each query must return the oracle's answer or fail with a {@code PARQUET_BLOOM_*} error that names the object, and
 * none may hang. Used by the test (tens of queries per mix) and the fault benchmark (hundreds).
 */
public final class S3FaultWorkload
{
    public static final long HANG_SECONDS = 120;

    /**
     * The catalog the fault runs use: every query reads metadata from S3 (no metadata cache, no no-match cache), a
     * stalled read gives up after a second, and the SDK makes up to three attempts.
     */
    public static final Map<String, String> CATALOG_PROPERTIES = Map.of(
            "metadata-cache.max-size", "0B",
            "no-match-cache.enabled", "false",
            "s3.socket-read-timeout", "1s",
            "s3.connect-timeout", "1s");

    public static final Map<String, String> HEDGED_CATALOG_PROPERTIES = ImmutableMap.<String, String>builder()
            .putAll(CATALOG_PROPERTIES)
            .put("s3.hedged-reads.enabled", "true")
            .buildOrThrow();

    /**
     * The mixes of the test and the benchmark: each fault on its own, then everything at once.
     */
    public static List<CountingProxy.FaultMix> mixes(long stallMillis)
    {
        return List.of(
                new CountingProxy.FaultMix("slow_down", Map.of(CountingProxy.Fault.SLOW_DOWN, 0.15), 1, 0),
                new CountingProxy.FaultMix("internal_error", Map.of(CountingProxy.Fault.INTERNAL_ERROR, 0.15), 2, 0),
                new CountingProxy.FaultMix("cut_body_and_stall", Map.of(CountingProxy.Fault.CUT_BODY, 0.08, CountingProxy.Fault.STALL, 0.04), 3, stallMillis),
                new CountingProxy.FaultMix("deleted_or_rewritten", Map.of(CountingProxy.Fault.DELETED, 0.05, CountingProxy.Fault.REWRITTEN, 0.05), 4, 0),
                new CountingProxy.FaultMix("everything", Map.of(
                        CountingProxy.Fault.SLOW_DOWN, 0.05,
                        CountingProxy.Fault.INTERNAL_ERROR, 0.05,
                        CountingProxy.Fault.CUT_BODY, 0.03,
                        CountingProxy.Fault.STALL, 0.02,
                        CountingProxy.Fault.DELETED, 0.01,
                        CountingProxy.Fault.REWRITTEN, 0.01), 5, stallMillis));
    }

    /**
     * @param failures failed queries by error code, each of which named the object
     * @param unnamed failures that were not a {@code PARQUET_BLOOM_*} error naming an object (must be none)
     * @param wrong queries whose rows differ from the oracle (must be none)
     * @param hung queries that did not end within {@link #HANG_SECONDS} (must be none)
     */
    public record Outcome(
            String mix,
            int queries,
            int correct,
            Map<String, Integer> failures,
            List<String> failureExamples,
            List<String> unnamed,
            int wrong,
            int hung,
            long retries,
            long throttledAttempts,
            long failedAttempts,
            long hedgedGets,
            long hedgesWon,
            Map<CountingProxy.Fault, Long> injected,
            long p50Millis,
            long maxMillis)
    {
        public String summary()
        {
            return "%s: %d queries, %d correct, failed %s, wrong %d, hung %d, unnamed %d; S3 retries %d (throttled attempts %d, failed attempts %d); hedged GETs %d (won %d); injected %s; p50 %d ms, max %d ms"
                    .formatted(mix, queries, correct, failures, wrong, hung, unnamed.size(), retries, throttledAttempts, failedAttempts, hedgedGets, hedgesWon, injected, p50Millis, maxMillis);
        }
    }

    private final DistributedQueryRunner runner;
    private final Session session;
    private final TestingLake lake;
    private final List<String> joinKeys;
    private final CountingProxy proxy;
    private final ExecutorService executor = Executors.newCachedThreadPool();

    /**
     * What the fault test and the fault benchmark run on: the testing lake's events and join keys, a
     * {@link CountingProxy} (the fault injector) in front of the S3 server, and catalogs {@code lake} and
     * {@code faulty} ({@link #CATALOG_PROPERTIES}) and {@code faulty_hedged} (the same with hedged reads) through it.
     * The caller closes the proxy and the runner.
     */
    public record Setup(List<String> joinKeys, CountingProxy proxy, DistributedQueryRunner runner) {}

    public static Setup setUp(TestingS3 s3, TestingLake lake)
            throws Exception
    {
        List<String> joinKeys;
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, s3.work());
            joinKeys = lake.writeKeys(client, s3.work(), 10, 4);
        }
        CountingProxy proxy = CountingProxy.inFrontOf(s3.endpoint(), 0);
        try {
            DistributedQueryRunner runner = ParquetBloomQueryRunner.builder()
                    .withEndpoint(proxy.endpoint())
                    .withCatalog("faulty", CATALOG_PROPERTIES)
                    .withCatalog("faulty_hedged", HEDGED_CATALOG_PROPERTIES)
                    .build();
            return new Setup(joinKeys, proxy, runner);
        }
        catch (Exception e) {
            proxy.close();
            throw e;
        }
    }

    public S3FaultWorkload(DistributedQueryRunner runner, Session session, TestingLake lake, List<String> joinKeys, CountingProxy proxy)
    {
        this.runner = requireNonNull(runner, "runner is null");
        this.session = requireNonNull(session, "session is null");
        this.lake = requireNonNull(lake, "lake is null");
        this.joinKeys = List.copyOf(joinKeys);
        this.proxy = requireNonNull(proxy, "proxy is null");
    }

    public Outcome run(CountingProxy.FaultMix mix, int queries)
    {
        SplittableRandom random = new SplittableRandom(mix.seed());
        Map<String, Integer> failures = new TreeMap<>();
        List<String> examples = new ArrayList<>();
        List<String> unnamed = new ArrayList<>();
        List<Long> latencies = new ArrayList<>();
        int correct = 0;
        int wrong = 0;
        int hung = 0;
        long retries = 0;
        long throttled = 0;
        long failedAttempts = 0;
        long hedgedGets = 0;
        long hedgesWon = 0;
        Map<CountingProxy.Fault, Long> before = proxy.injectedFaults();
        proxy.injectFaults(mix);
        try {
            for (int i = 0; i < queries; i++) {
                Lookup lookup = nextLookup(random);
                long start = System.nanoTime();
                Future<io.trino.testing.QueryRunner.MaterializedResultWithPlan> result = executor.submit(() -> runner.executeWithPlan(session, lookup.sql()));
                try {
                    MaterializedResult rows = result.get(HANG_SECONDS, TimeUnit.SECONDS).result();
                    QueryMetrics metrics = QueryMetrics.of(runner, result.get().queryId());
                    retries += metrics.get("s3Retries") + metrics.get("s3PlanningRetries");
                    throttled += metrics.get("s3ThrottledAttempts") + metrics.get("s3PlanningThrottledAttempts");
                    failedAttempts += metrics.get("s3FailedAttempts") + metrics.get("s3PlanningFailedAttempts");
                    hedgedGets += metrics.get("s3HedgedGets") + metrics.get("s3PlanningHedgedGets");
                    hedgesWon += metrics.get("s3HedgesWon") + metrics.get("s3PlanningHedgesWon");
                    if (lookup.expected().equals(rows.getMaterializedRows().getFirst())) {
                        correct++;
                    }
                    else {
                        wrong++;
                        examples.add("WRONG %s: got %s, expected %s".formatted(lookup.sql(), rows.getMaterializedRows(), lookup.expected()));
                    }
                }
                catch (TimeoutException e) {
                    hung++;
                    result.cancel(true);
                }
                catch (ExecutionException e) {
                    String code = "none";
                    String message = String.valueOf(e.getCause());
                    if (e.getCause() instanceof QueryFailedException failed && failed.getQueryId() != null) {
                        BasicQueryInfo info = runner.getCoordinator().getDispatchManager().getQueryInfo(failed.getQueryId());
                        code = info.getErrorCode() == null ? "none" : info.getErrorCode().getName();
                        message = failed.getMessage();
                    }
                    if (code.startsWith("PARQUET_BLOOM_") && message.contains("s3://")) {
                        failures.merge(code, 1, Integer::sum);
                        if (examples.size() < 8) {
                            examples.add("%s: %s".formatted(code, message));
                        }
                    }
                    else {
                        unnamed.add("%s: %s".formatted(code, message));
                    }
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RuntimeException(e);
                }
                latencies.add((System.nanoTime() - start) / 1_000_000);
            }
        }
        finally {
            proxy.injectFaults(CountingProxy.FaultMix.none());
        }
        Map<CountingProxy.Fault, Long> injected = new TreeMap<>();
        proxy.injectedFaults().forEach((fault, count) -> {
            long delta = count - before.getOrDefault(fault, 0L);
            if (delta > 0) {
                injected.put(fault, delta);
            }
        });
        latencies.sort(Long::compare);
        return new Outcome(mix.name(), queries, correct, failures, examples, unnamed, wrong, hung, retries, throttled, failedAttempts, hedgedGets, hedgesWon, injected,
                latencies.get(latencies.size() / 2), latencies.getLast());
    }

    private record Lookup(String sql, MaterializedRow expected) {}

    private Lookup nextLookup(SplittableRandom random)
    {
        int kind = random.nextInt(100);
        String aggregates = "count(*), coalesce(sum(e.seq % 1000), 0), min(e.seq), max(e.seq)";
        if (kind < 40) {
            String key = lake.devices().get(random.nextInt(lake.devices().size()));
            return lookup("SELECT %s FROM events e WHERE e.device_id = '%s'".formatted(aggregates, key), row -> row.deviceId().equals(key));
        }
        if (kind < 65) {
            String key = new UUID(random.nextLong(), random.nextLong()).toString();
            return lookup("SELECT %s FROM events e WHERE e.device_id = '%s'".formatted(aggregates, key), row -> row.deviceId().equals(key));
        }
        if (kind < 85) {
            Set<String> keys = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                keys.add(i < 3 ? lake.devices().get(random.nextInt(lake.devices().size())) : new UUID(random.nextLong(), random.nextLong()).toString());
            }
            String list = keys.stream().map(key -> "'" + key + "'").collect(Collectors.joining(", "));
            return lookup("SELECT %s FROM events e WHERE e.device_id IN (%s)".formatted(aggregates, list), row -> keys.contains(row.deviceId()));
        }
        List<TelemetryRow> joined = new ArrayList<>();
        for (TelemetryRow row : lake.events()) {
            for (String key : joinKeys) {
                if (row.deviceId().equals(key)) {
                    joined.add(row);
                }
            }
        }
        return new Lookup("SELECT %s FROM events e JOIN keys k ON e.device_id = k.device_id".formatted(aggregates), expected(joined));
    }

    private Lookup lookup(String sql, Predicate<TelemetryRow> predicate)
    {
        return new Lookup(sql, expected(lake.events().stream().filter(predicate).toList()));
    }

    private static MaterializedRow expected(List<TelemetryRow> rows)
    {
        List<Object> values = new ArrayList<>();
        values.add((long) rows.size());
        values.add(rows.stream().mapToLong(row -> row.seq() % 1000).sum());
        values.add(rows.stream().mapToLong(TelemetryRow::seq).boxed().min(Long::compare).orElse(null));
        values.add(rows.stream().mapToLong(TelemetryRow::seq).boxed().max(Long::compare).orElse(null));
        return new MaterializedRow(values);
    }

    public void close()
    {
        executor.shutdownNow();
    }

}
