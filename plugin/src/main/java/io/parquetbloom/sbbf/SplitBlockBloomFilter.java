package io.parquetbloom.sbbf;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * A Parquet Split Block Bloom Filter (parquet-format BloomFilter.md): {@code z} blocks of eight little-endian
 * 32-bit words. Immutable once built; build with {@link SplitBlockBloomFilterBuilder} or read with
 * {@link SplitBlockBloomFilterReader}.
 */
public final class SplitBlockBloomFilter
{
    public static final int BYTES_PER_BLOCK = 32;
    public static final int WORDS_PER_BLOCK = 8;
    /**
     * Largest bitset we accept, as parquet-java and Arrow do: larger claims are treated as corrupt.
     */
    public static final int MAX_BYTES = 128 * 1024 * 1024;

    static final int[] SALT = {
            0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
            0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};

    private static final long INSTANCE_SIZE = 32;

    private final int[] words;
    private final int numBlocks;
    private final BlockProbe probe;

    SplitBlockBloomFilter(int[] words, BlockProbe probe)
    {
        requireNonNull(words, "words is null");
        if (words.length == 0 || words.length % WORDS_PER_BLOCK != 0) {
            throw new IllegalArgumentException("bitset must be a positive multiple of %d bytes: %d".formatted(BYTES_PER_BLOCK, words.length * 4L));
        }
        this.words = words;
        this.numBlocks = words.length / WORDS_PER_BLOCK;
        this.probe = requireNonNull(probe, "probe is null");
    }

    /**
     * Wraps a bitset (no header) of a positive multiple of 32 bytes, copying it.
     */
    public static SplitBlockBloomFilter fromBitset(byte[] bitset, int offset, int length)
    {
        if (length <= 0 || length % BYTES_PER_BLOCK != 0 || length > MAX_BYTES) {
            throw new IllegalArgumentException("bitset length must be a positive multiple of %d up to %d: %d".formatted(BYTES_PER_BLOCK, MAX_BYTES, length));
        }
        return new SplitBlockBloomFilter(Slices.wrappedBuffer(bitset, offset, length).getInts(0, length / Integer.BYTES), BlockProbes.best());
    }

    /**
     * The block of a filter of {@code numBlocks} blocks that {@code hash} falls in, as every probe computes it.
     */
    public static int blockOf(long hash, int numBlocks)
    {
        return BlockProbe.blockIndex(hash, numBlocks);
    }

    /**
     * The same filter answered by another probe implementation (tests and benchmarks).
     */
    public SplitBlockBloomFilter withProbe(BlockProbe probe)
    {
        return new SplitBlockBloomFilter(words, probe);
    }

    public BlockProbe probe()
    {
        return probe;
    }

    /**
     * False only when a value with this XXH64 hash was certainly never inserted.
     */
    public boolean mightContain(long hash)
    {
        return probe.mightContain(words, numBlocks, hash);
    }

    /**
     * Probes many hashes in one call; see {@link BlockProbe#mightContain(int[], int, long[], int, int, boolean[])}.
     */
    public int mightContain(long[] hashes, int offset, int length, boolean[] result)
    {
        checkRange(hashes.length, offset, length);
        if (result.length < length) {
            throw new IllegalArgumentException("result array shorter than length");
        }
        return probe.mightContain(words, numBlocks, hashes, offset, length, result);
    }

    /**
     * True when any of the hashes might be contained: the question an IN list or dynamic filter asks.
     */
    public boolean mightContainAny(long[] hashes, int offset, int length)
    {
        checkRange(hashes.length, offset, length);
        return probe.mightContainAny(words, numBlocks, hashes, offset, length);
    }

    public boolean mightContainAny(long[] hashes)
    {
        return mightContainAny(hashes, 0, hashes.length);
    }

    public int numBlocks()
    {
        return numBlocks;
    }

    public int sizeInBytes()
    {
        return numBlocks * BYTES_PER_BLOCK;
    }

    public long bitsSet()
    {
        long count = 0;
        for (int word : words) {
            count += Integer.bitCount(word);
        }
        return count;
    }

    /**
     * The bitset as the little-endian bytes a Parquet file stores.
     */
    public byte[] bitset()
    {
        Slice bytes = Slices.allocate(words.length * Integer.BYTES);
        bytes.setInts(0, words);
        return bytes.byteArray();
    }

    /**
     * Whether {@link #fold()} can halve this filter: an even number of blocks.
     */
    public boolean canFold()
    {
        return numBlocks % 2 == 0;
    }

    /**
     * A filter of half the blocks that answers "might contain" for every hash this one does (and, being denser, for
     * some more). Sound because the block index is a multiply-shift of the hash's upper 32 bits: with {@code z/2}
     * blocks a hash lands in block {@code floor(i / 2)} where it landed in block {@code i} of {@code z}, and its bits
     * within a block depend only on the lower 32 bits. So block {@code j} of the folded filter is the OR of blocks
     * {@code 2j} and {@code 2j + 1}. Lets a cache keep an oversized, nearly empty filter at a fraction of its size.
     */
    public SplitBlockBloomFilter fold()
    {
        if (!canFold()) {
            throw new IllegalStateException("cannot fold a filter of %d blocks".formatted(numBlocks));
        }
        int[] folded = new int[words.length / 2];
        for (int block = 0; block < numBlocks / 2; block++) {
            int target = block * WORDS_PER_BLOCK;
            int first = 2 * block * WORDS_PER_BLOCK;
            for (int word = 0; word < WORDS_PER_BLOCK; word++) {
                folded[target + word] = words[first + word] | words[first + WORDS_PER_BLOCK + word];
            }
        }
        return new SplitBlockBloomFilter(folded, probe);
    }

    /**
     * Direct access for probes and benchmarks; must not be modified.
     */
    int[] words()
    {
        return words;
    }

    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + 16 + (long) words.length * Integer.BYTES;
    }

    private static void checkRange(int arrayLength, int offset, int length)
    {
        if (offset < 0 || length < 0 || offset > arrayLength - length) {
            throw new IndexOutOfBoundsException("offset %d, length %d, array length %d".formatted(offset, length, arrayLength));
        }
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof SplitBlockBloomFilter other && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(words);
    }

    @Override
    public String toString()
    {
        return "SplitBlockBloomFilter{bytes=%d, probe=%s}".formatted(sizeInBytes(), probe.name());
    }
}
