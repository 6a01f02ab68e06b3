package io.parquetbloom.benchmarks;

import io.parquetbloom.testing.CountingProxy;
import io.trino.dispatcher.DispatchManager;
import io.trino.server.BasicQueryInfo;
import io.trino.testing.DistributedQueryRunner;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * The load of {@code ./run bench reference}: closed-loop clients, each sending the next query as soon as its last one
 * answered, at fixed levels of concurrency, each level for a fixed time. At the end of a level the queries still
 * running are cancelled through the coordinator (counted as cut, not as errors), so that one level's backlog never
 * runs into the next. Sampled every second: the JVM's used heap and live threads, and the S3 connections the
 * catalog's proxy has open (the S3 client's pool, idle connections included).
 */
final class LoadLevels
{
    private LoadLevels() {}

    /**
     * @param cut queries still running at the end of the level, cancelled
     * @param firstError the first error's message, if any query failed
     */
    record LoadResult(String catalog, int clients, int seconds, int completed, int errors, int cut, double throughput,
            double p50, double p95, double p99, long heapMaxMb, long heapAfterGcMb, int threadsMax, int s3ConnectionsMax, Optional<String> firstError, String largestThreadGroups,
            long idleMillis, long poolReservedAfterMb, long openFilesMax, long openFilesAfter) {}

    /**
     * @param query the SQL of a client's {@code n}-th query, a new key every time
     */
    static LoadResult run(DistributedQueryRunner runner, String catalog, int clients, int seconds, CountingProxy proxy, IntFunction<String> query)
            throws InterruptedException
    {
        ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger cut = new AtomicInteger();
        AtomicReference<String> firstError = new AtomicReference<>();
        AtomicInteger sequence = new AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        proxy.takePeakConnections();
        Sampler sampler = Sampler.start();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        for (int client = 0; client < clients; client++) {
            pool.execute(() -> {
                while (System.nanoTime() < deadline) {
                    long start = System.nanoTime();
                    try {
                        runner.execute(query.apply(sequence.getAndIncrement()));
                        latencies.add((System.nanoTime() - start) / 1e6);
                    }
                    catch (RuntimeException e) {
                        if (System.nanoTime() >= deadline) {
                            cut.incrementAndGet();
                        }
                        else {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, String.valueOf(e.getMessage()));
                        }
                    }
                }
            });
        }
        pool.shutdown();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, deadline - System.nanoTime()));
        cancelRunningQueries(runner);
        if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("clients of %s at %d did not stop within 120 s of their level's end".formatted(catalog, clients));
        }
        Sampler.Peaks peaks = sampler.stop();
        long idleStart = System.nanoTime();
        awaitIdle(runner);
        long idleMillis = (System.nanoTime() - idleStart) / 1_000_000;
        // what the node's query memory pool still holds once no query runs: anything but 0 is memory never released
        long poolReserved = runner.getCoordinator().getLocalMemoryManager().getMemoryPool().getReservedBytes();
        List<Double> all = new ArrayList<>(latencies);
        return new LoadResult(catalog, clients, seconds, all.size(), errors.get(), cut.get(), all.size() / (double) seconds,
                BenchmarkReports.percentile(all, 50), BenchmarkReports.percentile(all, 95), BenchmarkReports.percentile(all, 99),
                peaks.heapMaxBytes() >> 20, usedHeapAfterGc() >> 20, peaks.threadsMax(), proxy.takePeakConnections(), Optional.ofNullable(firstError.get()), largestThreadGroups(), idleMillis, poolReserved >> 20, peaks.openFilesMax(), openFiles());
    }

    /**
     * Waits (up to two minutes) until the coordinator runs no query and the engine's threads have wound down, so that
     * the cancelled queries' work does not run into the next level.
     */
    private static void awaitIdle(DistributedQueryRunner runner)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            boolean running = runner.getCoordinator().getDispatchManager().getQueries().stream().anyMatch(query -> !query.getState().isDone());
            long splitRunners = Thread.getAllStackTraces().keySet().stream().filter(thread -> thread.getName().startsWith("SplitRunner-")).count();
            if (!running && splitRunners <= 64) {
                return;
            }
            TimeUnit.SECONDS.sleep(1);
        }
        System.out.println("[bench]   not idle two minutes after the level: where the busiest threads are, by their top frames: " + busiestFrames());
    }

    /**
     * The five most common top frames (three deep) of the engine's and the connector's threads.
     */
    private static String busiestFrames()
    {
        Map<String, Long> frames = Thread.getAllStackTraces().entrySet().stream()
                .filter(entry -> entry.getKey().getName().startsWith("SplitRunner-") || entry.getKey().getName().startsWith("parquet-bloom") || entry.getKey().getName().startsWith("query-execution"))
                .filter(entry -> entry.getValue().length > 0)
                .collect(Collectors.groupingBy(entry -> entry.getKey().getName().replaceAll("[0-9]+", "#") + " at " + Arrays.stream(entry.getValue()).limit(3).map(String::valueOf).collect(Collectors.joining(" < ")), Collectors.counting()));
        return frames.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(5)
                .map(entry -> entry.getValue() + " x " + entry.getKey())
                .collect(Collectors.joining("; "));
    }

    private static void cancelRunningQueries(DistributedQueryRunner runner)
    {
        DispatchManager dispatch = runner.getCoordinator().getDispatchManager();
        for (BasicQueryInfo query : dispatch.getQueries()) {
            if (!query.getState().isDone()) {
                dispatch.cancelQuery(query.getQueryId());
            }
        }
    }

    /**
     * The five largest groups of live threads, by name with its numbers taken out: where threads pile up.
     */
    static String largestThreadGroups()
    {
        Map<String, Long> groups = Thread.getAllStackTraces().keySet().stream()
                .collect(Collectors.groupingBy(thread -> thread.getName().replaceAll("[0-9]+", "#"), Collectors.counting()));
        return groups.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(5)
                .map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining(", "));
    }

    /**
     * File descriptors this JVM has open (sockets included), where the OS shows them; -1 elsewhere.
     */
    static long openFiles()
    {
        String[] descriptors = new File("/proc/self/fd").list();
        return descriptors == null ? -1 : descriptors.length;
    }

    static long usedHeapAfterGc()
    {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static final class Sampler
    {
        record Peaks(long heapMaxBytes, int threadsMax, long openFilesMax) {}

        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        private final AtomicLong heapMax = new AtomicLong();
        private final AtomicInteger threadsMax = new AtomicInteger();
        private final AtomicLong openFilesMax = new AtomicLong();

        static Sampler start()
        {
            Sampler sampler = new Sampler();
            sampler.executor.scheduleAtFixedRate(sampler::sample, 0, 1, TimeUnit.SECONDS);
            return sampler;
        }

        private void sample()
        {
            heapMax.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
            threadsMax.accumulateAndGet(ManagementFactory.getThreadMXBean().getThreadCount(), Math::max);
            openFilesMax.accumulateAndGet(openFiles(), Math::max);
        }

        Peaks stop()
                throws InterruptedException
        {
            executor.shutdown();
            executor.awaitTermination(10, TimeUnit.SECONDS);
            return new Peaks(heapMax.get(), threadsMax.get(), openFilesMax.get());
        }
    }

    static String markdown(List<LoadResult> results)
    {
        if (results.isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder("| catalog | clients | seconds | completed | queries/s | p50 ms | p95 ms | p99 ms | errors | cut at the end | heap max / after GC MB | threads max | S3 connections max |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (LoadResult result : results) {
            table.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.2f | %.0f | %.0f | %.0f | %d | %d | %d / %d | %d | %d |%n",
                    result.catalog(), result.clients(), result.seconds(), result.completed(), result.throughput(), result.p50(), result.p95(), result.p99(),
                    result.errors(), result.cut(), result.heapMaxMb(), result.heapAfterGcMb(), result.threadsMax(), result.s3ConnectionsMax()));
        }
        results.stream().filter(result -> result.firstError().isPresent()).forEach(result ->
                table.append("%n%s at %d clients, first error: %s%n".formatted(result.catalog(), result.clients(), result.firstError().get())));
        return table.toString();
    }
}
