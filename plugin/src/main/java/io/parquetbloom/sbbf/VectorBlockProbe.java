package io.parquetbloom.sbbf;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

import static io.parquetbloom.sbbf.BlockProbe.blockIndex;
import static jdk.incubator.vector.VectorOperators.AND_NOT;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

/**
 * One 256-bit lane op per step: a block is exactly one {@code IntVector} of 8 ints. Only loaded (by
 * {@link BlockProbes}) after checking that the {@code jdk.incubator.vector} module is present, so the rest of the
 * plugin never links against it.
 */
final class VectorBlockProbe
        implements BlockProbe
{
    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_256;

    private static final IntVector SALT = IntVector.fromArray(SPECIES, SplitBlockBloomFilter.SALT, 0);
    private static final IntVector ONE = IntVector.broadcast(SPECIES, 1);

    static final VectorBlockProbe INSTANCE = new VectorBlockProbe();

    private VectorBlockProbe() {}

    /**
     * @return null when 256-bit integer vectors are not native on this CPU (they would be emulated, slower
     * than the scalar probe)
     */
    static String unsupportedReason()
    {
        int preferredBits = IntVector.SPECIES_PREFERRED.vectorBitSize();
        if (preferredBits < 256) {
            return "CPU prefers %d-bit integer vectors, 256 needed".formatted(preferredBits);
        }
        return null;
    }

    @Override
    public boolean mightContain(int[] words, int numBlocks, long hash)
    {
        IntVector mask = ONE.lanewise(LSHL, IntVector.broadcast(SPECIES, (int) hash).mul(SALT).lanewise(LSHR, 27));
        IntVector block = IntVector.fromArray(SPECIES, words, blockIndex(hash, numBlocks) << 3);
        // bits of the mask that are not set in the block; none means "might contain"
        return mask.lanewise(AND_NOT, block).eq(0).allTrue();
    }

    // the loops repeat the kernel so the JIT sees one straight-line body with the constants hoisted
    @Override
    public int mightContain(int[] words, int numBlocks, long[] hashes, int offset, int length, boolean[] result)
    {
        int count = 0;
        for (int i = 0; i < length; i++) {
            long hash = hashes[offset + i];
            IntVector mask = ONE.lanewise(LSHL, IntVector.broadcast(SPECIES, (int) hash).mul(SALT).lanewise(LSHR, 27));
            IntVector block = IntVector.fromArray(SPECIES, words, blockIndex(hash, numBlocks) << 3);
            boolean present = mask.lanewise(AND_NOT, block).eq(0).allTrue();
            result[i] = present;
            count += present ? 1 : 0;
        }
        return count;
    }

    @Override
    public boolean mightContainAny(int[] words, int numBlocks, long[] hashes, int offset, int length)
    {
        for (int i = offset; i < offset + length; i++) {
            long hash = hashes[i];
            IntVector mask = ONE.lanewise(LSHL, IntVector.broadcast(SPECIES, (int) hash).mul(SALT).lanewise(LSHR, 27));
            IntVector block = IntVector.fromArray(SPECIES, words, blockIndex(hash, numBlocks) << 3);
            if (mask.lanewise(AND_NOT, block).eq(0).allTrue()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String name()
    {
        return "vector-256";
    }
}
