package io.parquetbloom.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tiny run of the lookup harness, so it cannot rot: all catalogs answer every workload with the same rows (the
 * harness fails otherwise) and the report has every row it should.
 */
final class TestLookupBenchmarkSmoke
{
    @Test
    void smokeRun()
            throws Exception
    {
        LookupBenchmark.Options options = LookupBenchmark.parse(new String[] {"--smoke"});
        List<LookupBenchmark.Result> results = LookupBenchmark.run(options);
        Set<String> workloads = results.stream().map(LookupBenchmark.Result::workload).collect(Collectors.toSet());
        assertThat(workloads).containsExactlyInAnyOrder("absent_key", "present_key", "in_10", "in_2000", "join_dynamic_filter", "range_control", "concurrency");
        // 6 workloads x 3 catalogs (ours, Hive with and without filters) x cold/warm, and concurrency for ours and Hive
        assertThat(results).hasSize(6 * 3 * 2 + 2);
        // warm absent key: the coordinator's cache answers, no object is read
        LookupBenchmark.Result warmAbsent = results.stream()
                .filter(result -> result.workload().equals("absent_key") && result.catalog().equals("parquet_bloom") && result.phase().equals("warm"))
                .findFirst().orElseThrow();
        assertThat(warmAbsent.gets()).isZero();
        // and the coordinator pruned every file before splitting
        assertThat(warmAbsent.filesScheduled()).isZero();
        assertThat(LookupBenchmark.markdown(results)).contains("| absent_key | warm |");
        assertThat(LookupBenchmark.json(options, results)).contains("\"workload\": \"in_2000\"", "\"catalog\": \"hive\"", "\"catalog\": \"hive_bloom_off\"", "\"phase\": \"cold\"");
    }
}
