package io.parquetbloom.hash;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * What a bloom filter can learn about one predicate value in one file column.
 */
public sealed interface ValueHash
{
    /**
     * The value is stored as one of these encodings (usually exactly one); the row group may hold it only if the
     * filter might contain at least one of these hashes.
     */
    record Hashes(long[] hashes)
            implements ValueHash
    {
        public Hashes
        {
            requireNonNull(hashes, "hashes is null");
            if (hashes.length == 0) {
                throw new IllegalArgumentException("hashes is empty");
            }
        }

        /**
         * The one encoding a key index records for the value: the first (the minimal, or the unpadded). An index
         * hashes values as the reader returns them, never as a file stores them, so one encoding per value is enough,
         * where a bloom filter written from stored bytes needs every candidate probed.
         */
        public long canonical()
        {
            return hashes[0];
        }

        @Override
        public boolean equals(Object o)
        {
            return o instanceof Hashes other && Arrays.equals(hashes, other.hashes);
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(hashes);
        }

        @Override
        public String toString()
        {
            return "Hashes" + Arrays.toString(hashes);
        }
    }

    /**
     * The column's representation cannot hold the value (e.g. a BIGINT beyond INT32 range, a decimal with more
     * fractional digits than the column's scale): no row of this column equals it.
     */
    record Absent(String reason)
            implements ValueHash {}

    /**
     * No safe conclusion (NaN, signed zero, INT96, an unsupported type pairing): the filter must not be consulted.
     */
    record Unknown(String reason)
            implements ValueHash {}

    static ValueHash of(long hash)
    {
        return new Hashes(new long[] {hash});
    }
}
