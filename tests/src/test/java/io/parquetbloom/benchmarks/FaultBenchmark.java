package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.S3FaultWorkload;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * {@code ./run bench faults [--queries N] [--stall-ms N] [--json FILE]}: the fault workload of {@code TestS3Faults}
 * with hundreds of lookups per mix (present key, absent key, IN list, join against the oracle) on a real Trino
 * (coordinator and worker) with every S3 object GET going through the fault-injecting front.
 */
@Command(name = "./run bench faults", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Lookups against the oracle while the S3 front injects throttling, 500s, cut bodies, stalls and changed objects")
public final class FaultBenchmark
        implements Callable<Integer>
{
    @Option(names = "--queries", defaultValue = "300", description = "lookups per fault mix (default: ${DEFAULT-VALUE})")
    private int queries;

    @Option(names = "--stall-ms", defaultValue = "3000", description = "how long a stalled response stalls (default: ${DEFAULT-VALUE})")
    private long stallMillis;

    @Option(names = "--json", description = "also write the results to this file")
    private Path json;

    @JsonPropertyOrder({"mix", "queries", "correct", "failed", "wrong", "hung", "unnamed", "s3_retries", "throttled_attempts", "failed_attempts", "injected", "p50_ms", "max_ms"})
    record MixJson(
            String mix,
            int queries,
            int correct,
            Map<String, Integer> failed,
            int wrong,
            int hung,
            int unnamed,
            @JsonProperty("s3_retries") long retries,
            @JsonProperty("throttled_attempts") long throttledAttempts,
            @JsonProperty("failed_attempts") long failedAttempts,
            String injected,
            @JsonProperty("p50_ms") long p50Millis,
            @JsonProperty("max_ms") long maxMillis)
    {
        static MixJson of(S3FaultWorkload.Outcome outcome)
        {
            return new MixJson(outcome.mix(), outcome.queries(), outcome.correct(), outcome.failures(), outcome.wrong(), outcome.hung(), outcome.unnamed().size(),
                    outcome.retries(), outcome.throttledAttempts(), outcome.failedAttempts(), String.valueOf(outcome.injected()), outcome.p50Millis(), outcome.maxMillis());
        }
    }

    public static void main(String[] args)
    {
        System.exit(new CommandLine(new FaultBenchmark()).execute(args));
    }

    @Override
    public Integer call()
            throws Exception
    {
        TestingLake lake = new TestingLake();
        try (TestingS3 s3 = TestingS3.start("fault-bench")) {
            S3FaultWorkload.Setup setup = S3FaultWorkload.setUp(s3, lake);
            List<String> joinKeys = setup.joinKeys();
            try (CountingProxy proxy = setup.proxy();
                    DistributedQueryRunner runner = setup.runner()) {
                Session session = testSessionBuilder().setCatalog("faulty").setSchema("telemetry").build();
                S3FaultWorkload workload = new S3FaultWorkload(runner, session, lake, joinKeys, proxy);
                List<MixJson> results = new ArrayList<>();
                try {
                    for (CountingProxy.FaultMix mix : S3FaultWorkload.mixes(stallMillis)) {
                        System.out.println("[faults] %s: %d lookups, faults %s".formatted(mix.name(), queries, mix.fractions()));
                        S3FaultWorkload.Outcome outcome = workload.run(mix, queries);
                        System.out.println("[faults] " + outcome.summary());
                        outcome.failureExamples().stream().limit(4).forEach(example -> System.out.println("[faults]   " + example));
                        outcome.unnamed().forEach(example -> System.out.println("[faults]   UNNAMED " + example));
                        results.add(MixJson.of(outcome));
                    }
                }
                finally {
                    workload.close();
                }
                if (json != null) {
                    Files.writeString(json, BenchmarkReports.json(results));
                    System.out.println("[faults] JSON: " + json);
                }
            }
        }
        return 0;
    }
}
