package io.parquetbloom.sbbf;

import static io.parquetbloom.sbbf.SplitBlockBloomFilter.BYTES_PER_BLOCK;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.MAX_BYTES;

/**
 * Sizing maths for Split Block Bloom Filters. SBBFs confine each value to one 256-bit block, so their false
 * positive rate is higher than a classic Bloom filter's with the same bits: writers that size with the classic
 * k=8 formula get roughly 1.5x the FPP they asked for. Everything here uses the exact SBBF formula
 * (Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", eq. 3):
 * {@code FPP(c) = sum_i Poisson(i; 256/c) * (1 - (31/32)^i)^8} for {@code c} bits per distinct value.
 */
public final class BloomFilterMath
{
    private static final double LN_31_32 = Math.log(31.0 / 32.0);
    // inserts into one block beyond which every bit a probe tests is set to double precision: (1 - (31/32)^i)^8 = 1
    private static final double SATURATED_INSERTS = 1_200;

    private BloomFilterMath() {}

    /**
     * Exact SBBF false positive probability at {@code bitsPerValue} bits per distinct value.
     */
    public static double falsePositiveProbability(double bitsPerValue)
    {
        if (!(bitsPerValue > 0)) {
            throw new IllegalArgumentException("bitsPerValue must be positive: " + bitsPerValue);
        }
        if (Double.isInfinite(bitsPerValue)) {
            return 0;
        }
        // lambda: expected number of values per 256-bit block
        double lambda = 256.0 / bitsPerValue;
        int last = poissonTerms(lambda) - 1;
        if (last < 0) {
            return 1.0;
        }
        double logLambda = Math.log(lambda);
        double sum = 0;
        double logFactorial = 0;
        for (int i = 0; i <= last; i++) {
            if (i > 0) {
                logFactorial += Math.log(i);
            }
            double poisson = Math.exp(-lambda + i * logLambda - logFactorial);
            // probability that one given bit of a word is set after i inserts into its block
            double bitSet = -Math.expm1(i * LN_31_32);
            sum += poisson * Math.pow(bitSet, 8);
        }
        return Math.min(1.0, sum);
    }

    /**
     * Terms of the Poisson sum for {@code lambda} values per block: up to 20 standard deviations above the mean; none
     * when even 20 below it every probed bit is set to double precision (a filter far too small for its values, a
     * few bits per thousand values), where summing would take ~lambda steps (10^8 for a 32-byte filter of 10^8
     * values) to find an FPP of 1.
     */
    static int poissonTerms(double lambda)
    {
        if (lambda - 20 * Math.sqrt(lambda) - 40 > SATURATED_INSERTS) {
            return 0;
        }
        return (int) Math.ceil(lambda + 20 * Math.sqrt(lambda) + 40) + 1;
    }

    /**
     * Exact FPP of a filter of {@code numBytes} holding {@code distinctValues}.
     */
    public static double falsePositiveProbability(long numBytes, long distinctValues)
    {
        if (distinctValues <= 0) {
            return 0;
        }
        return falsePositiveProbability(numBytes * 8.0 / distinctValues);
    }

    /**
     * Fewest bits per distinct value for which the exact FPP is at most {@code fpp}.
     */
    public static double bitsPerValue(double fpp)
    {
        if (!(fpp > 0 && fpp < 1)) {
            throw new IllegalArgumentException("fpp must be in (0, 1): " + fpp);
        }
        double low = 0.01;
        double high = 1.0;
        while (falsePositiveProbability(high) > fpp) {
            high *= 2;
            if (high > 1 << 20) {
                throw new IllegalArgumentException("fpp too small: " + fpp);
            }
        }
        for (int i = 0; i < 100; i++) {
            double mid = (low + high) / 2;
            if (falsePositiveProbability(mid) > fpp) {
                low = mid;
            }
            else {
                high = mid;
            }
        }
        return high;
    }

    /**
     * Smallest bitset size (a multiple of 32 bytes, at most 128 MiB) whose exact FPP for {@code distinctValues} is at
     * most {@code fpp}. With {@code powerOfTwo}, rounds up to a power of two as parquet-java and Arrow do.
     */
    public static int optimalNumBytes(long distinctValues, double fpp, boolean powerOfTwo)
    {
        if (distinctValues < 0) {
            throw new IllegalArgumentException("distinctValues is negative: " + distinctValues);
        }
        double bits = Math.max(1, distinctValues) * bitsPerValue(fpp);
        double bytes = Math.ceil(bits / 8);
        long rounded = (long) Math.min(MAX_BYTES, Math.ceil(bytes / BYTES_PER_BLOCK) * BYTES_PER_BLOCK);
        rounded = Math.max(BYTES_PER_BLOCK, rounded);
        if (powerOfTwo) {
            rounded = Math.min(MAX_BYTES, Long.highestOneBit(rounded - 1) << 1);
            rounded = Math.max(BYTES_PER_BLOCK, rounded);
        }
        return (int) rounded;
    }

    /**
     * Estimated distinct values inserted from a bit occupancy: every insert sets one bit in each of 8 distinct
     * words, so a given bit stays clear with probability {@code (1 - 8/m)} per insert.
     *
     * @return the estimate; {@code +Infinity} when every bit is set
     */
    public static double estimateDistinctValues(long bitsSet, long totalBits)
    {
        if (totalBits < 256 || totalBits % 256 != 0 || bitsSet < 0 || bitsSet > totalBits) {
            throw new IllegalArgumentException("invalid occupancy %d of %d bits".formatted(bitsSet, totalBits));
        }
        if (bitsSet == totalBits) {
            return Double.POSITIVE_INFINITY;
        }
        double fractionSet = (double) bitsSet / totalBits;
        return Math.log1p(-fractionSet) / Math.log1p(-8.0 / totalBits);
    }
}
