package io.parquetbloom.health;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What each pruning path says about one row group for a looked-up value, and whether a lookup reads it: a row of
 * {@code bloom_probe}. A file that cannot be planned row group by row group (a partition that excludes the value, a
 * footer that cannot be read) is one row without a row group.
 *
 * @param statistics {@code excludes} or {@code may contain} (min/max and null counts)
 * @param bloomFilter {@code excludes}, {@code may contain}, {@code no filter} or {@code unusable: <why>}
 * @param dictionary {@code excludes}, {@code may contain}, {@code not dictionary-encoded}, {@code too large: <why>} or
 * {@code unusable: <why>}
 * @param noMatchCache {@code no match recorded} when an earlier read of this row group found no row with the value
 * @param read whether a query with this session's settings reads the row group
 * @param skippedBy what skips it when it is not read: {@code partition}, {@code statistics}, {@code no-match cache}
 * {@code bloom filter} or {@code dictionary}, in the order a query applies them
 */
public record BloomProbeRow(
        String file,
        Optional<String> partition,
        OptionalInt rowGroup,
        OptionalLong rowCount,
        Optional<String> statistics,
        Optional<String> bloomFilter,
        Optional<String> dictionary,
        Optional<String> noMatchCache,
        boolean read,
        Optional<String> skippedBy)
{
    public static final String EXCLUDES = "excludes";
    public static final String MAY_CONTAIN = "may contain";

    public BloomProbeRow
    {
        requireNonNull(file, "file is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(rowGroup, "rowGroup is null");
        requireNonNull(rowCount, "rowCount is null");
        requireNonNull(statistics, "statistics is null");
        requireNonNull(bloomFilter, "bloomFilter is null");
        requireNonNull(dictionary, "dictionary is null");
        requireNonNull(noMatchCache, "noMatchCache is null");
        requireNonNull(skippedBy, "skippedBy is null");
    }
}
