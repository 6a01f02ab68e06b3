package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

import java.io.UncheckedIOException;
import java.util.Collection;

import static org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType.R_1;

/**
 * What the benchmarks share for their reports: JSON as {@code docs/benchmarks/*.json} hold it, and percentiles.
 */
final class BenchmarkReports
{
    private static final ObjectWriter JSON = JsonMapper.builder().build()
            .writer(new DefaultPrettyPrinter().withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

    private BenchmarkReports() {}

    static String json(Object report)
    {
        try {
            return JSON.writeValueAsString(report) + "\n";
        }
        catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The nearest-rank percentile (the smallest value at or above {@code percentile} percent of the values), 0 when
     * there are none.
     */
    static double percentile(Collection<Double> values, double percentile)
    {
        if (values.isEmpty()) {
            return 0;
        }
        return new Percentile().withEstimationType(R_1).evaluate(values.stream().mapToDouble(Double::doubleValue).toArray(), percentile);
    }

    /**
     * Milliseconds as reports show them: to a tenth.
     */
    static double tenths(double value)
    {
        return Math.round(value * 10) / 10.0;
    }
}
