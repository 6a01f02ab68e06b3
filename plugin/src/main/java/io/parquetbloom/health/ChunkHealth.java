package io.parquetbloom.health;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One column chunk's bloom filter as the file holds it: a row of {@code "t$bloom_filters"}.
 *
 * @param partition the file's partition folder ({@code k=v/...}), empty for an unpartitioned table
 * @param status usable, missing (the writer made none), unusable (and why), or not cached (when only cached filters were asked for)
 * @param filterBytes the filter's bitset in the file (without its header)
 * @param distinctValues distinct values estimated from the filter's bit occupancy, at most the chunk's non-null values
 * @param falsePositiveRate the exact SBBF false positive rate of a filter of {@code filterBytes} at
 * {@code distinctValues}
 * @param position {@code before footer}, {@code after row group} or {@code inside data}
 * @param dictionaryEncoded every value of the chunk is in its dictionary: lookups prune the row group by it
 * @param dictionaryBytes the dictionary page's bytes, where the footer records them
 */
public record ChunkHealth(
        String file,
        Optional<String> partition,
        int rowGroup,
        String column,
        String physicalType,
        Optional<String> logicalType,
        long rowCount,
        OptionalLong nullCount,
        boolean hasFilter,
        FilterStatus status,
        OptionalLong filterBytes,
        OptionalDouble distinctValues,
        OptionalDouble bitsPerValue,
        OptionalDouble falsePositiveRate,
        Optional<String> createdBy,
        Optional<String> position,
        boolean hasFilterLength,
        boolean dictionaryEncoded,
        OptionalLong dictionaryBytes)
{
    public ChunkHealth
    {
        requireNonNull(file, "file is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(column, "column is null");
        requireNonNull(physicalType, "physicalType is null");
        requireNonNull(logicalType, "logicalType is null");
        requireNonNull(nullCount, "nullCount is null");
        requireNonNull(status, "status is null");
        requireNonNull(filterBytes, "filterBytes is null");
        requireNonNull(distinctValues, "distinctValues is null");
        requireNonNull(bitsPerValue, "bitsPerValue is null");
        requireNonNull(falsePositiveRate, "falsePositiveRate is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(position, "position is null");
        requireNonNull(dictionaryBytes, "dictionaryBytes is null");
    }

    public boolean usable()
    {
        return status instanceof FilterStatus.Usable;
    }
}
