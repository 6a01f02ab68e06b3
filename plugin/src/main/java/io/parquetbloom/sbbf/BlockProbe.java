package io.parquetbloom.sbbf;

/**
 * Tests hashes against the blocks of a Split Block Bloom Filter. Implementations differ only in speed:
 * every implementation must give bit-identical answers.
 */
public interface BlockProbe
{
    /**
     * @param words the filter's bitset as little-endian 32-bit words, 8 per block
     * @param numBlocks number of 32-byte blocks in {@code words}
     */
    boolean mightContain(int[] words, int numBlocks, long hash);

    /**
     * Probes {@code hashes[offset..offset+length)} and writes one answer per hash into {@code result[0..length)}.
     *
     * @return how many hashes might be contained
     */
    default int mightContain(int[] words, int numBlocks, long[] hashes, int offset, int length, boolean[] result)
    {
        int count = 0;
        for (int i = 0; i < length; i++) {
            boolean present = mightContain(words, numBlocks, hashes[offset + i]);
            result[i] = present;
            count += present ? 1 : 0;
        }
        return count;
    }

    /**
     * True when at least one of {@code hashes[offset..offset+length)} might be contained; stops at the first.
     */
    default boolean mightContainAny(int[] words, int numBlocks, long[] hashes, int offset, int length)
    {
        for (int i = offset; i < offset + length; i++) {
            if (mightContain(words, numBlocks, hashes[i])) {
                return true;
            }
        }
        return false;
    }

    /**
     * Name shown in logs and metrics, e.g. {@code vector-256} or {@code scalar}.
     */
    String name();

    /**
     * Block index by multiply-shift of the upper 32 bits (spec), valid for any block count, not only powers of two.
     */
    static int blockIndex(long hash, int numBlocks)
    {
        return (int) (((hash >>> 32) * numBlocks) >>> 32);
    }
}
