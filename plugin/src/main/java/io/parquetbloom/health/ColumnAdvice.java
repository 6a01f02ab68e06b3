package io.parquetbloom.health;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A row of {@code "t$bloom_filter_advice"}: a column's filter health, the verdict and how to apply it.
 *
 * @param queryShare share of the table's queries in the window that constrained the column; empty when the window
 * holds no query on the table
 * @param recommendedDistinctValues distinct values per row group to size for
 * @param recommendedBytes bitset size (a power of two) that gives the target rate at that many values
 * @param settings writer settings that apply the verdict; empty for {@code keep}
 */
public record ColumnAdvice(
        ColumnHealth health,
        int queriesSeen,
        OptionalDouble queryShare,
        Verdict verdict,
        String reason,
        OptionalLong recommendedDistinctValues,
        OptionalLong recommendedBytes,
        Optional<WriterSettings> settings)
{
    public enum Verdict
    {
        ADD("add"),
        KEEP("keep"),
        RESIZE("resize"),
        DROP_CLUSTERED("drop: clustered"),
        DROP_RARELY_QUERIED("drop: rarely queried"),
        DROP_LOW_CARDINALITY("drop: low cardinality");

        private final String label;

        Verdict(String label)
        {
            this.label = label;
        }

        public String label()
        {
            return label;
        }
    }

    public ColumnAdvice
    {
        requireNonNull(health, "health is null");
        requireNonNull(queryShare, "queryShare is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(recommendedDistinctValues, "recommendedDistinctValues is null");
        requireNonNull(recommendedBytes, "recommendedBytes is null");
        requireNonNull(settings, "settings is null");
    }
}
