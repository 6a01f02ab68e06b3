package io.parquetbloom.health;

import java.util.Optional;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * What the filters of one column are worth across a table: coverage, rates, sizes, distinct values, clustering.
 *
 * @param filesWithoutFilter files where at least one row group of the column has no filter, while it is the column's
 * only way to be skipped in the others (a compaction that dropped them)
 * @param rowGroupsDictionaryEncoded row groups whose chunk is entirely dictionary-encoded, which lookups prune by the
 * dictionary whether or not it has a filter
 * @param distinctValuesPerRowGroup median over row groups with a usable filter
 * @param maxDistinctValuesPerRowGroup the largest row group's: what a writer must size for
 * @param distinctValuesPerPartition median over partitions of the estimate from the OR of their filters (filters of one
 * size OR together); where that union saturates, the sum of its row groups' estimates
 * @param maxDistinctValuesPerPartition the largest partition's estimate
 * @param maxValuesPerPartition non-null values of the largest partition: an upper bound on its distinct values when
 * there is no filter to estimate them from
 * @param maxValuesPerRowGroup non-null values of the largest row group
 * @param filterBytesPerRowGroup median bitset size of the usable filters
 * @param minMaxOverlap see {@link MinMaxOverlap}
 */
public record ColumnHealth(
        String column,
        String physicalType,
        Optional<String> logicalType,
        int files,
        int filesWithoutFilter,
        long rowGroups,
        long rowGroupsWithUsableFilter,
        long rowGroupsWithUnusableFilter,
        long rowGroupsDictionaryEncoded,
        OptionalDouble medianFpp,
        OptionalDouble worstFpp,
        long filterBytes,
        long tableBytes,
        OptionalDouble distinctValuesPerRowGroup,
        OptionalDouble maxDistinctValuesPerRowGroup,
        OptionalDouble distinctValuesPerPartition,
        OptionalDouble maxDistinctValuesPerPartition,
        long maxValuesPerPartition,
        long maxValuesPerRowGroup,
        OptionalDouble filterBytesPerRowGroup,
        OptionalDouble minMaxOverlap)
{
    public ColumnHealth
    {
        requireNonNull(column, "column is null");
        requireNonNull(physicalType, "physicalType is null");
        requireNonNull(logicalType, "logicalType is null");
        requireNonNull(medianFpp, "medianFpp is null");
        requireNonNull(worstFpp, "worstFpp is null");
        requireNonNull(distinctValuesPerRowGroup, "distinctValuesPerRowGroup is null");
        requireNonNull(maxDistinctValuesPerRowGroup, "maxDistinctValuesPerRowGroup is null");
        requireNonNull(distinctValuesPerPartition, "distinctValuesPerPartition is null");
        requireNonNull(maxDistinctValuesPerPartition, "maxDistinctValuesPerPartition is null");
        requireNonNull(filterBytesPerRowGroup, "filterBytesPerRowGroup is null");
        requireNonNull(minMaxOverlap, "minMaxOverlap is null");
    }

    public boolean hasFilters()
    {
        return rowGroupsWithUsableFilter > 0;
    }

    public double filterByteShare()
    {
        return tableBytes == 0 ? 0 : filterBytes / (double) tableBytes;
    }
}
