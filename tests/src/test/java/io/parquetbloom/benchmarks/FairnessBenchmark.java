package io.parquetbloom.benchmarks;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.testing.DistributedQueryRunner;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.parquetbloom.testing.TestingLake.tableKey;

/**
 * {@code ./run bench fairness [--big-files N] [--small-files N] [--runs N] [--latency-ms N]}: how much one query that
 * plans a table of many files delays another query's lookup over a small table. Both plan cold (no metadata cache),
 * every S3 request takes {@code latency-ms}; the small lookup's p50 is measured alone and while big lookups run back
 * to back.
 */
public final class FairnessBenchmark
{
    private FairnessBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        int bigFiles = 5_000;
        int smallFiles = 64;
        int runs = 15;
        long latencyMillis = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--big-files" -> bigFiles = Integer.parseInt(args[++i]);
                case "--small-files" -> smallFiles = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--latency-ms" -> latencyMillis = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument %s (known: --big-files N, --small-files N, --runs N, --latency-ms N)".formatted(args[i]));
            }
        }
        TestingLake lake = new TestingLake();
        try (TestingS3 s3 = TestingS3.start("fairness")) {
            Path work = s3.work();
            try (S3Client client = s3.client()) {
                lake.writeEvents(client, work);
                byte[] file = TestingLake.eventsFileBytes(work, "tiny.parquet", lake.events().subList(0, 50));
                System.out.println("[fairness] uploading %,d + %d files".formatted(bigFiles, smallFiles));
                for (int i = 0; i < Math.max(bigFiles, smallFiles); i++) {
                    if (i < bigFiles) {
                        TestingLake.upload(client, file, tableKey("fair", "big", "part-%06d.parquet".formatted(i)));
                    }
                    if (i < smallFiles) {
                        TestingLake.upload(client, file, tableKey("fair", "small", "part-%06d.parquet".formatted(i)));
                    }
                    if ((i + 1) % 1000 == 0) {
                        System.out.println("[fairness]   %,d files".formatted(i + 1));
                    }
                }
            }
            String endpoint = s3.endpoint();
            try (CountingProxy proxy = CountingProxy.inFrontOf(endpoint, latencyMillis);
                    DistributedQueryRunner runner = ParquetBloomQueryRunner.builder()
                            .withEndpoint(proxy.endpoint())
                            .withCatalog("cold", Map.of("metadata-cache.max-size", "0B", "no-match-cache.enabled", "false"))
                            .build()) {
                String small = "SELECT count(*) FROM cold.fair.small WHERE device_id = '%s'";
                String big = "SELECT count(*) FROM cold.fair.big WHERE device_id = '%s'";
                // warm the engine (plans, classes) once
                runner.execute(small.formatted(UUID.randomUUID()));

                List<Long> alone = measure(runner, small, runs);
                System.out.println("[fairness] small lookup (%d files) alone: p50 %d ms".formatted(smallFiles, p50(alone)));

                AtomicBoolean running = new AtomicBoolean(true);
                AtomicInteger bigQueries = new AtomicInteger();
                List<Long> bigLatencies = new ArrayList<>();
                Thread background = Thread.ofPlatform().daemon().start(() -> {
                    while (running.get()) {
                        long start = System.nanoTime();
                        runner.execute(big.formatted(UUID.randomUUID()));
                        synchronized (bigLatencies) {
                            bigLatencies.add((System.nanoTime() - start) / 1_000_000);
                        }
                        bigQueries.incrementAndGet();
                    }
                });
                // let the big plan get going
                Thread.sleep(2_000);
                List<Long> shared = measure(runner, small, runs);
                running.set(false);
                background.join();
                System.out.println("[fairness] small lookup (%d files) while a %,d-file table is planned: p50 %d ms (%.2fx alone); big lookups meanwhile: %d, p50 %d ms".formatted(smallFiles, bigFiles, p50(shared), p50(shared) / (double) p50(alone), bigQueries.get(), p50(bigLatencies)));
            }
        }
    }

    private static List<Long> measure(DistributedQueryRunner runner, String template, int runs)
    {
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            // a key nobody asked for: no cache of earlier answers helps
            runner.execute(template.formatted(UUID.randomUUID()));
            latencies.add((System.nanoTime() - start) / 1_000_000);
        }
        return latencies;
    }

    private static long p50(List<Long> values)
    {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }
}
