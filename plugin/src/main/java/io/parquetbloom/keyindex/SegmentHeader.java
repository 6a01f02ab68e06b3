package io.parquetbloom.keyindex;

import static java.util.Objects.requireNonNull;

/**
 * What a segment says about itself.
 *
 * @param column the Trino column name the segment indexes
 * @param trinoType the column's Trino type when the values were read (a lookup of another type ignores the segment)
 * @param columnType the Parquet type (as in a schema, e.g. {@code optional binary device_id (STRING)}) whose plain
 * encoding was hashed: lookups hash their values for this type, exactly as a bloom filter of such a column is probed
 * @param hashBits the leading bits of each value's XXH64 kept per entry
 * @param rowGroupBits the bits of the row-group ordinal (over the segment's file directory) in each entry
 */
public record SegmentHeader(String column, String trinoType, String columnType, int hashBits, int rowGroupBits, long builtAtMillis, long buildMillis)
{
    public SegmentHeader
    {
        requireNonNull(column, "column is null");
        requireNonNull(trinoType, "trinoType is null");
        requireNonNull(columnType, "columnType is null");
        if (hashBits < 1 || rowGroupBits < 1 || hashBits + rowGroupBits > KeyIndexFormat.PACKED_BITS) {
            throw new IllegalArgumentException("bad bit widths: %d hash bits, %d row-group bits".formatted(hashBits, rowGroupBits));
        }
    }
}
