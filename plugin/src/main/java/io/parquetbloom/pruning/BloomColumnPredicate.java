package io.parquetbloom.pruning;

import io.parquetbloom.hash.ParquetValueHasher;
import io.parquetbloom.hash.ValueHash;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import org.apache.parquet.column.ColumnDescriptor;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The bloom filter question for one file column: "might the chunk hold any of these hashes?". Built once per file
 * column (each value hashed once in the column's physical representation), then probed against every row group.
 *
 * @param hashes hashes of every representable value; empty when no value can be stored in the column
 * @param nullAllowed the predicate also accepts NULL, which bloom filters do not record
 */
public record BloomColumnPredicate(ColumnDescriptor column, long[] hashes, boolean nullAllowed)
{
    public BloomColumnPredicate
    {
        requireNonNull(column, "column is null");
        requireNonNull(hashes, "hashes is null");
    }

    /**
     * @return empty when the domain is not a discrete set, has more than {@code maxValues} values, or holds a value
     * whose hash cannot be decided: the filter must not be consulted for this column
     */
    public static Optional<BloomColumnPredicate> create(ColumnDescriptor column, Domain domain, int maxValues)
    {
        return create(column, domain, maxValues, false);
    }

    /**
     * The hashes a key index holds for the domain's values: one per value ({@link ValueHash.Hashes#canonical()}),
     * where a bloom filter needs every encoding a writer may have stored.
     */
    public static Optional<BloomColumnPredicate> createForKeyIndex(ColumnDescriptor column, Domain domain, int maxValues)
    {
        return create(column, domain, maxValues, true);
    }

    private static Optional<BloomColumnPredicate> create(ColumnDescriptor column, Domain domain, int maxValues, boolean canonical)
    {
        ValueSet values = domain.getValues();
        if (values.isNone() || values.isAll() || !values.isDiscreteSet()) {
            return Optional.empty();
        }
        if (values.isDiscreteSet() && countDiscreteValues(values) > maxValues) {
            return Optional.empty();
        }
        List<Object> discrete = values.getDiscreteSet();
        long[] hashes = new long[discrete.size()];
        int count = 0;
        for (Object value : discrete) {
            if (value == null) {
                return Optional.empty();
            }
            ValueHash hash = ParquetValueHasher.hash(domain.getType(), value, column.getPrimitiveType());
            switch (hash) {
                case ValueHash.Unknown _ -> {
                    return Optional.empty();
                }
                case ValueHash.Absent _ -> {
                    // the column cannot hold this value: it contributes nothing to probe
                }
                case ValueHash.Hashes found -> {
                    long[] candidates = canonical ? new long[] {found.canonical()} : found.hashes();
                    if (count + candidates.length > hashes.length) {
                        hashes = Arrays.copyOf(hashes, Math.max(hashes.length * 2, count + candidates.length));
                    }
                    System.arraycopy(candidates, 0, hashes, count, candidates.length);
                    count += candidates.length;
                }
            }
        }
        return Optional.of(new BloomColumnPredicate(column, Arrays.copyOf(hashes, count), domain.isNullAllowed()));
    }

    private static long countDiscreteValues(ValueSet values)
    {
        if (values instanceof io.trino.spi.predicate.SortedRangeSet ranges) {
            return ranges.getRangeCount();
        }
        if (values instanceof io.trino.spi.predicate.EquatableValueSet equatable) {
            return equatable.getValuesCount();
        }
        return values.getDiscreteSet().size();
    }
}
