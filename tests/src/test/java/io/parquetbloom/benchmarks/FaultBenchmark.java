package io.parquetbloom.benchmarks;

import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.tests.CountingProxy;
import io.parquetbloom.tests.ParquetBloomQueryRunner;
import io.parquetbloom.tests.S3FaultWorkload;
import io.parquetbloom.tests.TestingLake;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * {@code ./run bench faults [--queries N] [--stall-ms N] [--json FILE]}: the fault workload of {@code TestS3Faults}
 * with hundreds of lookups per mix (present key, absent key, IN list, join against the oracle) on a real Trino
 * (coordinator and worker) with every S3 object GET going through the fault-injecting front.
 */
public final class FaultBenchmark
{
    private FaultBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        int queries = 300;
        long stallMillis = 3_000;
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--queries" -> queries = Integer.parseInt(args[++i]);
                case "--stall-ms" -> stallMillis = Long.parseLong(args[++i]);
                case "--json" -> json = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument %s (known: --queries N, --stall-ms N, --json FILE)".formatted(args[i]));
            }
        }
        Path work = Files.createTempDirectory("parquet-bloom-fault-bench");
        TestingLake lake = new TestingLake();
        try (S3ProxyProcess s3 = S3ProxyProcess.start(work.resolve("s3proxy"))) {
            List<String> joinKeys;
            try (S3Client client = s3.client()) {
                client.createBucket(request -> request.bucket(TestingLake.BUCKET));
                lake.writeEvents(client, work);
                joinKeys = lake.writeKeys(client, work, 10, 4);
            }
            String endpoint = s3.endpoint();
            try (CountingProxy proxy = CountingProxy.inFrontOf(endpoint, 0);
                    DistributedQueryRunner runner = ParquetBloomQueryRunner.create(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT)) {
                runner.createCatalog("faulty", "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT, S3FaultWorkload.CATALOG_PROPERTIES));
                Session session = testSessionBuilder().setCatalog("faulty").setSchema("telemetry").build();
                S3FaultWorkload workload = new S3FaultWorkload(runner, session, lake, joinKeys, proxy);
                List<String> results = new ArrayList<>();
                try {
                    for (CountingProxy.FaultMix mix : S3FaultWorkload.mixes(stallMillis)) {
                        System.out.println("[faults] %s: %d lookups, faults %s".formatted(mix.name(), queries, mix.fractions()));
                        S3FaultWorkload.Outcome outcome = workload.run(mix, queries);
                        System.out.println("[faults] " + outcome.summary());
                        outcome.failureExamples().stream().limit(4).forEach(example -> System.out.println("[faults]   " + example));
                        outcome.unnamed().forEach(example -> System.out.println("[faults]   UNNAMED " + example));
                        results.add("""
                                {"mix": "%s", "queries": %d, "correct": %d, "failed": %s, "wrong": %d, "hung": %d, "unnamed": %d, "s3_retries": %d, "throttled_attempts": %d, "failed_attempts": %d, "injected": "%s", "p50_ms": %d, "max_ms": %d}"""
                                .formatted(outcome.mix(), outcome.queries(), outcome.correct(), outcome.failures().entrySet().stream().map(entry -> "\"%s\": %d".formatted(entry.getKey(), entry.getValue())).toList().toString().replace('[', '{').replace(']', '}'),
                                        outcome.wrong(), outcome.hung(), outcome.unnamed().size(), outcome.retries(), outcome.throttledAttempts(), outcome.failedAttempts(), outcome.injected(), outcome.p50Millis(), outcome.maxMillis()));
                    }
                }
                finally {
                    workload.close();
                }
                if (json != null) {
                    Files.writeString(json, "[\n" + String.join(",\n", results) + "\n]\n");
                    System.out.println("[faults] JSON: " + json);
                }
            }
        }
    }
}
