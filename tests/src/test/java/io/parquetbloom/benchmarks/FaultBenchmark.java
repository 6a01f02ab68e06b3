package io.parquetbloom.benchmarks;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.S3FaultWorkload;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;

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
        TestingLake lake = new TestingLake();
        try (TestingS3 s3 = TestingS3.start("fault-bench")) {
            S3FaultWorkload.Setup setup = S3FaultWorkload.setUp(s3, lake);
            List<String> joinKeys = setup.joinKeys();
            try (CountingProxy proxy = setup.proxy();
                    DistributedQueryRunner runner = setup.runner()) {
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
