package io.parquetbloom.benchmarks;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs the probe and hash benchmarks and prints a markdown table of medians (over all measurement iterations of all
 * forks) with JMH's 99.9% error, and the ratio of parquet-java to our vector probe.
 * <p>
 * Arguments: {@code --quick} (1 fork, short iterations: a smoke run, numbers not to be quoted),
 * {@code --sizes 32768,1048576}, {@code --out FILE} (also write the table there).
 */
public final class BenchmarkReport
{
    private BenchmarkReport() {}

    public static void main(String[] args)
            throws RunnerException, IOException
    {
        boolean quick = false;
        String sizes = null;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--sizes" -> sizes = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(BenchmarkSbbfProbe.class.getName())
                .include(BenchmarkXxHash64.class.getName())
                .shouldFailOnError(true);
        if (sizes != null) {
            options.param("filterBytes", sizes.split(","));
        }
        if (quick) {
            options.forks(1)
                    .warmupIterations(1).warmupTime(TimeValue.milliseconds(300))
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(300));
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        String table = table(results, quick);
        System.out.println();
        System.out.println(table);
        if (out != null) {
            Files.writeString(out, table);
            System.out.println("written to " + out);
        }
    }

    private record Cell(double median, double error) {}

    static String table(Collection<RunResult> results, boolean quick)
    {
        // (size, probes, shape) -> implementation -> cell
        Map<String, Map<String, Cell>> rows = new TreeMap<>();
        List<String> hashRows = new ArrayList<>();
        for (RunResult result : results) {
            String benchmark = result.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            Cell cell = new Cell(median(result), result.getPrimaryResult().getScoreError());
            if (benchmark.contains("XxHash64")) {
                hashRows.add("| XXH64 %s | %s |".formatted(method.equals("uuidString") ? "36-byte UUID string" : "long", format(cell)));
                continue;
            }
            int size = Integer.parseInt(result.getParams().getParam("filterBytes"));
            String key = "%012d|%s|%s".formatted(size, result.getParams().getParam("probes"), method);
            rows.computeIfAbsent(key, _ -> new TreeMap<>()).put(result.getParams().getParam("implementation"), cell);
        }
        StringBuilder table = new StringBuilder();
        if (quick) {
            table.append("(quick smoke run: 1 fork, short iterations; do not quote these numbers)\n\n");
        }
        table.append("| filter | probes | shape | vector ns/probe | scalar ns/probe | parquet-java ns/probe | parquet-java / vector |\n");
        table.append("|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, Map<String, Cell>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\\|");
            Map<String, Cell> cells = row.getValue();
            Cell vector = cells.get("vector");
            Cell parquetJava = cells.get("parquet-java");
            String ratio = vector != null && parquetJava != null ? String.format(Locale.ROOT, "%.1fx", parquetJava.median() / vector.median()) : "-";
            table.append("| %s | %s | %s | %s | %s | %s | %s |\n".formatted(
                    humanSize(Long.parseLong(key[0])), key[1], key[2], format(vector), format(cells.get("scalar")), format(parquetJava), ratio));
        }
        if (!hashRows.isEmpty()) {
            table.append("\n| hash | ns/value |\n|---|---|\n");
            hashRows.forEach(row -> table.append(row).append('\n'));
        }
        return table.toString();
    }

    private static double median(RunResult result)
    {
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult benchmark : result.getBenchmarkResults()) {
            for (IterationResult iteration : benchmark.getIterationResults()) {
                scores.add(iteration.getPrimaryResult().getScore());
            }
        }
        scores.sort(Double::compare);
        int n = scores.size();
        return n % 2 == 1 ? scores.get(n / 2) : (scores.get(n / 2 - 1) + scores.get(n / 2)) / 2;
    }

    private static String format(Cell cell)
    {
        if (cell == null) {
            return "-";
        }
        return Double.isNaN(cell.error()) ? String.format(Locale.ROOT, "%.2f", cell.median()) : String.format(Locale.ROOT, "%.2f ± %.2f", cell.median(), cell.error());
    }

    private static String humanSize(long bytes)
    {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
    }
}
