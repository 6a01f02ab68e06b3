package io.parquetbloom.sbbf;

/**
 * The OR of filters of one size: exactly the filter a writer would have built from all their values together, because
 * a value's block and bits depend only on its hash and the number of blocks. Its occupancy estimates the distinct
 * values of the union (a partition's), which no single row group's filter can.
 */
public final class BloomFilterUnion
{
    private final int[] words;
    private int filters;

    public BloomFilterUnion(int sizeInBytes)
    {
        if (sizeInBytes <= 0 || sizeInBytes % SplitBlockBloomFilter.BYTES_PER_BLOCK != 0) {
            throw new IllegalArgumentException("size must be a positive multiple of %d bytes: %d".formatted(SplitBlockBloomFilter.BYTES_PER_BLOCK, sizeInBytes));
        }
        this.words = new int[sizeInBytes / Integer.BYTES];
    }

    public void add(SplitBlockBloomFilter filter)
    {
        int[] other = filter.words();
        if (other.length != words.length) {
            throw new IllegalArgumentException("cannot OR a filter of %d bytes into a union of %d".formatted(filter.sizeInBytes(), words.length * Integer.BYTES));
        }
        for (int i = 0; i < words.length; i++) {
            words[i] |= other[i];
        }
        filters++;
    }

    public int filters()
    {
        return filters;
    }

    public long totalBits()
    {
        return words.length * (long) Integer.SIZE;
    }

    public long bitsSet()
    {
        long count = 0;
        for (int word : words) {
            count += Integer.bitCount(word);
        }
        return count;
    }
}
