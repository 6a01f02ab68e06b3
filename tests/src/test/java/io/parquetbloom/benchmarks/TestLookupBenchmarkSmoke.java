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
        assertThat(workloads).containsExactlyInAnyOrder("absent_key", "present_key", "in_10", "in_2000", "in_2000_spread", "in_2000_absent", "join_dynamic_filter", "range_control", "full_scan", "filter_advice", "concurrency", "serial_absent", "serial_present", "reference_query");
        // 12 workloads x 3 catalogs (ours, Hive with and without filters) x cold/warm/repeat, the advice on ours, and
        // concurrency for ours and Hive
        assertThat(results).hasSize(12 * 3 * 3 + 3 + 2);
        // a new absent serial on a dictionary column without filters: the cached dictionaries answer, no GET
        assertThat(result(results, "serial_absent", "warm").gets()).isZero();
        assertThat(result(results, "serial_absent", "warm").filesScheduled()).isZero();
        // the advice reads every tail cold, nothing warm, and never schedules a split
        assertThat(result(results, "filter_advice", "cold").gets()).isPositive();
        assertThat(result(results, "filter_advice", "warm").gets()).isZero();
        assertThat(result(results, "filter_advice", "warm").filesScheduled()).isZero();
        // the same absent key again: the coordinator's cache answers (filters, and no-match facts for any false
        // positive of the first run), no object is read and no file is scheduled
        LookupBenchmark.Result repeatAbsent = result(results, "absent_key", "repeat");
        assertThat(repeatAbsent.gets()).isZero();
        assertThat(repeatAbsent.filesScheduled()).isZero();
        // with every pruning path off, every file is scheduled whatever the phase
        assertThat(result(results, "full_scan", "warm").filesScheduled()).isEqualTo(result(results, "full_scan", "cold").filesScheduled()).isPositive();
        assertThat(LookupBenchmark.markdown(results)).contains("| absent_key | warm |", "| absent_key | repeat |", "| full_scan | cold |");
        assertThat(LookupBenchmark.json(options, results)).contains("\"workload\": \"in_2000\"", "\"catalog\": \"hive\"", "\"catalog\": \"hive_bloom_off\"", "\"phase\": \"cold\"", "\"phase\": \"repeat\"");
    }

    @Test
    void smokeRunUnderFaults()
            throws Exception
    {
        // the harness fails if ours and Hive answer differently; every GET of either may meet a SlowDown or a cut body
        LookupBenchmark.Options options = LookupBenchmark.parse(new String[] {"--smoke", "--faults", "0.05,0.02", "--catalogs", "parquet_bloom,hive", "--workloads", "absent_key,present_key,in_10"});
        List<LookupBenchmark.Result> results = LookupBenchmark.run(options);
        assertThat(results).hasSize(3 * 2 * 3);
        assertThat(results.stream().mapToDouble(result -> result.faults().injected()).sum()).isPositive();
        // Hive's retries are not in its metrics: only the faults its GETs met are reported
        assertThat(results).filteredOn(result -> result.catalog().equals("hive")).allMatch(result -> result.faults().retries() < 0);
        assertThat(results).filteredOn(result -> result.catalog().equals("parquet_bloom")).allMatch(result -> result.faults().retries() >= 0);
        assertThat(LookupBenchmark.faultsMarkdown(options.faults().orElseThrow(), results)).contains("slowdown 0.05, cut 0.02", "| present_key | warm | hive |");
    }

    @Test
    void smokeRunWithKeyIndex()
            throws Exception
    {
        // ours with the index built before the workloads (by CALL, then again by the worker with ALTER TABLE EXECUTE),
        // beside ours without it; then a refresh after 2 files added
        LookupBenchmark.Options options = LookupBenchmark.parse(new String[] {"--smoke", "--key-index", "--key-index-by-cluster", "--workers", "1", "--key-index-refresh-files", "2", "--catalogs", "parquet_bloom,parquet_bloom_no_index", "--workloads", "absent_key,in_2000_absent"});
        List<LookupBenchmark.Result> results = LookupBenchmark.run(options);
        assertThat(results).hasSize(2 * 2 * 3);
        // absent keys: no file scheduled with the index, in any phase
        assertThat(results).filteredOn(result -> result.catalog().equals("parquet_bloom")).allMatch(result -> result.filesScheduled() == 0);
        assertThat(LookupBenchmark.keyIndexMarkdown(results)).contains("| in_2000_absent | cold |");
    }

    @Test
    void smokeRunOfTheReferenceBenchmark()
            throws Exception
    {
        // ./run bench reference's steps, tiny: the reference writer, the key index, the per-file path at the scaled
        // budget with the disk tier, Hive, then two load levels on each
        LookupBenchmark.Options options = LookupBenchmark.parse(new String[] {"--smoke", "--writer", "reference", "--workloads", "reference_query,in_2000_spread",
                "--catalogs", "parquet_bloom,parquet_bloom@scaled+disk,hive", "--scaled-budget", "--key-index", "--key-index-without-yardstick", "--key-index-refresh-files", "1",
                "--load-levels", "1,4", "--load-seconds", "2"});
        List<LookupBenchmark.Result> results = LookupBenchmark.run(options);
        assertThat(results).hasSize(2 * 3 * 3);
        assertThat(LookupBenchmark.loads).hasSize(3 * 2);
        assertThat(LookupBenchmark.loads).allSatisfy(load -> {
            assertThat(load.errors()).as("errors of %s at %d clients: %s", load.catalog(), load.clients(), load.firstError()).isZero();
            assertThat(load.threadsMax()).isPositive();
        });
        // the per-file catalog runs without the index: every lookup schedules files
        assertThat(results).filteredOn(result -> result.catalog().equals("parquet_bloom@scaled+disk") && result.workload().equals("reference_query"))
                .allMatch(result -> result.filesScheduled() > 0);
        assertThat(LoadLevels.markdown(LookupBenchmark.loads)).contains("| parquet_bloom | 4 | 2 |", "| hive | 1 | 2 |");
        assertThat(LookupBenchmark.json(options, results)).contains("\"load\"", "\"clients\": 4", "\"scaled_budget_bytes\"");
    }

    @Test
    void smokeRunOfTheListingBenchmark()
            throws Exception
    {
        // 1,344 objects: once the table's shape is known, a one-day lookup lists that day only, in fewer LISTs than the
        // whole table takes
        ListingBenchmark.Flags flags = new ListingBenchmark.Flags();
        flags.months = 1;
        flags.filesPerHour = 2;
        flags.runs = 1;
        flags.latencyMillis = 0;
        // pages of 100 keys: the table takes more than 8, so more than one round of pages side by side
        flags.listPageSize = 100;
        List<ListingBenchmark.Run> runs = ListingBenchmark.run(flags);
        assertThat(runs).hasSize(3).allMatch(run -> run.rows() == 0);
        ListingBenchmark.Run known = runs.get(1);
        ListingBenchmark.Run everyQuery = runs.get(2);
        // the table's folder (2), its years, months and days (3), the day's 48 objects (1), the key index folder (1)
        assertThat(known.lists()).isEqualTo(7);
        assertThat(everyQuery.lists()).isGreaterThan(known.lists());
        assertThat(ListingBenchmark.markdown(runs)).contains("| lake | shape known |");
    }

    private static LookupBenchmark.Result result(List<LookupBenchmark.Result> results, String workload, String phase)
    {
        return results.stream()
                .filter(result -> result.workload().equals(workload) && result.catalog().equals("parquet_bloom") && result.phase().equals(phase))
                .findFirst().orElseThrow();
    }
}
