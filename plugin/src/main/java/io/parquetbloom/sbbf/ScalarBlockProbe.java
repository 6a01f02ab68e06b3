package io.parquetbloom.sbbf;

import static io.parquetbloom.sbbf.BlockProbe.blockIndex;

/**
 * Portable probe. Branch-free over the eight words: a hit costs the same as a miss, so misses (the common case
 * when pruning) do not pay for mispredicted early exits.
 */
public final class ScalarBlockProbe
        implements BlockProbe
{
    public static final ScalarBlockProbe INSTANCE = new ScalarBlockProbe();

    private static final int S0 = SplitBlockBloomFilter.SALT[0];
    private static final int S1 = SplitBlockBloomFilter.SALT[1];
    private static final int S2 = SplitBlockBloomFilter.SALT[2];
    private static final int S3 = SplitBlockBloomFilter.SALT[3];
    private static final int S4 = SplitBlockBloomFilter.SALT[4];
    private static final int S5 = SplitBlockBloomFilter.SALT[5];
    private static final int S6 = SplitBlockBloomFilter.SALT[6];
    private static final int S7 = SplitBlockBloomFilter.SALT[7];

    private ScalarBlockProbe() {}

    @Override
    public boolean mightContain(int[] words, int numBlocks, long hash)
    {
        int base = blockIndex(hash, numBlocks) << 3;
        int x = (int) hash;
        int missing = (~words[base] & (1 << ((x * S0) >>> 27)))
                | (~words[base + 1] & (1 << ((x * S1) >>> 27)))
                | (~words[base + 2] & (1 << ((x * S2) >>> 27)))
                | (~words[base + 3] & (1 << ((x * S3) >>> 27)))
                | (~words[base + 4] & (1 << ((x * S4) >>> 27)))
                | (~words[base + 5] & (1 << ((x * S5) >>> 27)))
                | (~words[base + 6] & (1 << ((x * S6) >>> 27)))
                | (~words[base + 7] & (1 << ((x * S7) >>> 27)));
        return missing == 0;
    }

    @Override
    public String name()
    {
        return "scalar";
    }
}
