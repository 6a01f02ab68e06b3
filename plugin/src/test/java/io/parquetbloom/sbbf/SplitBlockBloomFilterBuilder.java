package io.parquetbloom.sbbf;

import static io.parquetbloom.sbbf.BlockProbe.blockIndex;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.BYTES_PER_BLOCK;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.MAX_BYTES;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.SALT;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.WORDS_PER_BLOCK;

/**
 * Builds a filter by inserting XXH64 hashes (of the values' plain encodings; see the hash package).
 */
public final class SplitBlockBloomFilterBuilder
{
    private final int[] words;
    private final int numBlocks;

    public SplitBlockBloomFilterBuilder(int numBytes)
    {
        if (numBytes <= 0 || numBytes % BYTES_PER_BLOCK != 0 || numBytes > MAX_BYTES) {
            throw new IllegalArgumentException("numBytes must be a positive multiple of %d up to %d: %d".formatted(BYTES_PER_BLOCK, MAX_BYTES, numBytes));
        }
        this.numBlocks = numBytes / BYTES_PER_BLOCK;
        this.words = new int[numBlocks * WORDS_PER_BLOCK];
    }

    /**
     * Sized with the exact SBBF formula so the filter really meets {@code fpp} at {@code distinctValues}.
     */
    public static SplitBlockBloomFilterBuilder forDistinctValues(long distinctValues, double fpp)
    {
        return new SplitBlockBloomFilterBuilder(BloomFilterMath.optimalNumBytes(distinctValues, fpp, false));
    }

    public SplitBlockBloomFilterBuilder insert(long hash)
    {
        int base = blockIndex(hash, numBlocks) * WORDS_PER_BLOCK;
        int x = (int) hash;
        for (int k = 0; k < WORDS_PER_BLOCK; k++) {
            words[base + k] |= 1 << ((x * SALT[k]) >>> 27);
        }
        return this;
    }

    public SplitBlockBloomFilterBuilder insertAll(long[] hashes)
    {
        for (long hash : hashes) {
            insert(hash);
        }
        return this;
    }

    public int sizeInBytes()
    {
        return numBlocks * BYTES_PER_BLOCK;
    }

    /**
     * A snapshot of the filter; later inserts do not change it.
     */
    public SplitBlockBloomFilter build()
    {
        return new SplitBlockBloomFilter(words.clone(), BlockProbes.best());
    }
}
