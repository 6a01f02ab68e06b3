package io.parquetbloom.benchmarks;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.testing.DistributedQueryRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.parquetbloom.testing.TestingLake.tableKey;

/**
 * {@code ./run bench fairness [--big-files N] [--small-files N] [--runs N] [--latency-ms N]}: how much one query that
 * plans a table of many files delays another query's lookup over a small table. Both plan cold (no metadata cache),
 * every S3 request takes {@code latency-ms}; the small lookup's p50 is measured alone and while big lookups run back
 * to back.
 */
@Command(name = "./run bench fairness", mixinStandardHelpOptions = true, sortOptions = false,
        description = "A small table's lookup p50 alone and while another query plans a table of many files")
public final class FairnessBenchmark
        implements Callable<Integer>
{
    @Option(names = "--big-files", defaultValue = "5000", description = "files of the table planned meanwhile (default: ${DEFAULT-VALUE})")
    private int bigFiles;

    @Option(names = "--small-files", defaultValue = "64", description = "files of the looked-up table (default: ${DEFAULT-VALUE})")
    private int smallFiles;

    @Option(names = "--runs", defaultValue = "15", description = "lookups per phase (default: ${DEFAULT-VALUE})")
    private int runs;

    @Option(names = "--latency-ms", defaultValue = "20", description = "added to every S3 request (default: ${DEFAULT-VALUE})")
    private long latencyMillis;

    public static void main(String[] args)
    {
        System.exit(new CommandLine(new FairnessBenchmark()).execute(args));
    }

    @Override
    public Integer call()
            throws Exception
    {
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
        return 0;
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
        return (long) BenchmarkReports.percentile(values.stream().map(Long::doubleValue).toList(), 50);
    }
}
