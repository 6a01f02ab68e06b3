package io.parquetbloom.sbbf;

import org.apache.parquet.format.BloomFilterAlgorithm;
import org.apache.parquet.format.BloomFilterCompression;
import org.apache.parquet.format.BloomFilterHash;
import org.apache.parquet.format.SplitBlockAlgorithm;
import org.apache.parquet.format.Uncompressed;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.XxHash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Filters as writers store them, for tests: parquet-format's header followed by the bitset.
 */
public final class TestingBloomFilters
{
    private TestingBloomFilters() {}

    /**
     * The header parquet-format writes for a bitset of {@code numBytes} (BLOCK, XXHASH, UNCOMPRESSED); any value,
     * even one the spec forbids, so tests can damage it.
     */
    public static byte[] header(int numBytes)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Util.writeBloomFilterHeader(new org.apache.parquet.format.BloomFilterHeader(
                    numBytes,
                    BloomFilterAlgorithm.BLOCK(new SplitBlockAlgorithm()),
                    BloomFilterHash.XXHASH(new XxHash()),
                    BloomFilterCompression.UNCOMPRESSED(new Uncompressed())), out);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Header and bitset, exactly as they appear at a column chunk's {@code bloom_filter_offset}.
     */
    public static byte[] serialize(SplitBlockBloomFilter filter)
    {
        byte[] header = header(filter.sizeInBytes());
        byte[] bitset = filter.bitset();
        byte[] result = new byte[header.length + bitset.length];
        System.arraycopy(header, 0, result, 0, header.length);
        System.arraycopy(bitset, 0, result, header.length, bitset.length);
        return result;
    }

    /**
     * Estimated number of distinct values inserted, from the fraction of bits set; infinite when saturated.
     */
    public static double estimatedDistinctValues(SplitBlockBloomFilter filter)
    {
        return BloomFilterMath.estimateDistinctValues(filter.bitsSet(), filter.sizeInBytes() * 8L);
    }
}
