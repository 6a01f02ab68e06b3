package io.parquetbloom.sbbf;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.OptionalInt;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

final class TestSplitBlockBloomFilterProperties
{
    @Test
    void noFalseNegativesForAnySize()
    {
        SplittableRandom random = new SplittableRandom(1);
        for (int trial = 0; trial < 200; trial++) {
            // any block count, not only powers of two
            int numBytes = 32 * random.nextInt(1, 5_000);
            int values = random.nextInt(1, 20_000);
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(numBytes);
            long[] hashes = random.longs(values).toArray();
            builder.insertAll(hashes);
            SplitBlockBloomFilter filter = builder.build();
            for (BlockProbe probe : TestParquetJavaCompatibility.probes()) {
                SplitBlockBloomFilter probed = filter.withProbe(probe);
                for (long hash : hashes) {
                    assertThat(probed.mightContain(hash)).isTrue();
                }
                boolean[] result = new boolean[hashes.length];
                assertThat(probed.mightContain(hashes, 0, hashes.length, result)).isEqualTo(hashes.length);
                assertThat(probed.mightContainAny(hashes, hashes.length - 1, 1)).isTrue();
            }
        }
    }

    @Test
    void foldingNeverLosesAValue()
    {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 100; trial++) {
            // even block counts, powers of two or not
            int numBytes = 64 * random.nextInt(1, 2_000);
            long[] hashes = random.longs(random.nextInt(1, 5_000)).toArray();
            SplitBlockBloomFilter filter = new SplitBlockBloomFilterBuilder(numBytes).insertAll(hashes).build();
            SplitBlockBloomFilter folded = filter.fold();
            assertThat(folded.sizeInBytes()).isEqualTo(numBytes / 2);
            for (long hash : hashes) {
                assertThat(folded.mightContain(hash)).isTrue();
            }
            // every hash the original might contain, the folded one might contain too, inserted or not
            for (int probe = 0; probe < 20_000; probe++) {
                long hash = random.nextLong();
                if (filter.mightContain(hash)) {
                    assertThat(folded.mightContain(hash)).isTrue();
                }
            }
            // and folding equals building the half-size filter from the same values
            assertThat(folded).isEqualTo(new SplitBlockBloomFilterBuilder(numBytes / 2).insertAll(hashes).build());
        }
        assertThat(new SplitBlockBloomFilterBuilder(96).build().canFold()).isFalse();
    }

    @Test
    void exactFormulaReproducesSpecTable()
    {
        // parquet-format BloomFilter.md / Putze et al.; the classic k=8 formula would give 8.65%, 2.55%, 0.85%, ...
        assertThat(BloomFilterMath.falsePositiveProbability(6)).isCloseTo(0.0993, within(0.00005));
        assertThat(BloomFilterMath.falsePositiveProbability(8)).isCloseTo(0.0332, within(0.00005));
        assertThat(BloomFilterMath.falsePositiveProbability(10)).isCloseTo(0.0126, within(0.00005));
        assertThat(BloomFilterMath.falsePositiveProbability(12)).isCloseTo(0.0054, within(0.00005));
        assertThat(BloomFilterMath.falsePositiveProbability(16)).isCloseTo(0.00132, within(0.000005));
        assertThat(BloomFilterMath.falsePositiveProbability(20)).isCloseTo(0.00042, within(0.000005));
    }

    @Test
    void saturatedFilterHasCertainFalsePositivesInBoundedWork()
    {
        // a 32-byte filter of 10^8 values and a 1 KiB filter of 10^9: an FPP of 1, from a bounded number of terms
        assertThat(BloomFilterMath.falsePositiveProbability(32, 100_000_000)).isEqualTo(1.0);
        assertThat(BloomFilterMath.falsePositiveProbability(1024, 1_000_000_000)).isEqualTo(1.0);
        for (double bitsPerValue = 1e-9; bitsPerValue < 1e3; bitsPerValue *= 1.7) {
            assertThat(BloomFilterMath.poissonTerms(256 / bitsPerValue)).as("terms at %s bits/value", bitsPerValue).isLessThan(4_000);
        }
        // on both sides of the short cut the sum is 1 to double precision
        double atCut = 256 / 2_200.0;
        assertThat(BloomFilterMath.poissonTerms(256 / atCut)).isZero();
        assertThat(BloomFilterMath.falsePositiveProbability(atCut * 1.1)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void sizingInvertsTheFormula()
    {
        assertThat(BloomFilterMath.bitsPerValue(0.01)).isCloseTo(10.53, within(0.01));
        assertThat(BloomFilterMath.bitsPerValue(0.05)).isCloseTo(7.23, within(0.01));
        assertThat(BloomFilterMath.bitsPerValue(0.001)).isCloseTo(16.9, within(0.05));
        for (double fpp : new double[] {0.2, 0.05, 0.01, 0.001, 0.0001}) {
            assertThat(BloomFilterMath.falsePositiveProbability(BloomFilterMath.bitsPerValue(fpp))).isCloseTo(fpp, within(fpp * 1e-6));
        }
        int numBytes = BloomFilterMath.optimalNumBytes(250_000, 0.01, false);
        assertThat(numBytes % 32).isZero();
        assertThat(BloomFilterMath.falsePositiveProbability(numBytes, 250_000)).isLessThanOrEqualTo(0.01);
        assertThat(BloomFilterMath.falsePositiveProbability(numBytes - 32, 250_000)).isGreaterThan(0.01);
        assertThat(BloomFilterMath.optimalNumBytes(250_000, 0.01, true)).isEqualTo(512 * 1024);
        assertThat(BloomFilterMath.optimalNumBytes(0, 0.01, false)).isEqualTo(32);
        assertThat(BloomFilterMath.optimalNumBytes(Long.MAX_VALUE / 1024, 0.01, false)).isEqualTo(SplitBlockBloomFilter.MAX_BYTES);
    }

    @Test
    void measuredFalsePositiveRateMatchesExactFormula()
    {
        SplittableRandom random = new SplittableRandom(2);
        int distinctValues = 50_000;
        int misses = 2_000_000;
        for (int bitsPerValue : new int[] {6, 8, 10, 12, 16}) {
            int numBytes = distinctValues * bitsPerValue / 8 / 32 * 32;
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(numBytes);
            random.longs(distinctValues).forEach(builder::insert);
            SplitBlockBloomFilter filter = builder.build();
            int positives = 0;
            for (int i = 0; i < misses; i++) {
                positives += filter.mightContain(random.nextLong()) ? 1 : 0;
            }
            double measured = (double) positives / misses;
            double expected = BloomFilterMath.falsePositiveProbability(numBytes, distinctValues);
            // 5 standard errors of the measurement plus 3% for the variance of one random filter
            double band = 5 * Math.sqrt(expected * (1 - expected) / misses) + 0.03 * expected;
            assertThat(measured).as("FPP at %d bits/value", bitsPerValue).isCloseTo(expected, within(band));
            double classic = Math.pow(1 - Math.exp(-8.0 / (numBytes * 8.0 / distinctValues)), 8);
            assertThat(Math.abs(classic - measured)).as("the classic formula is measurably wrong at %d bits/value", bitsPerValue).isGreaterThan(band);
        }
    }

    @Test
    void distinctValuesEstimatedFromOccupancy()
    {
        SplittableRandom random = new SplittableRandom(3);
        for (int values : new int[] {100, 10_000, 200_000}) {
            SplitBlockBloomFilterBuilder builder = SplitBlockBloomFilterBuilder.forDistinctValues(values, 0.01);
            random.longs(values).forEach(builder::insert);
            assertThat(TestingBloomFilters.estimatedDistinctValues(builder.build())).isCloseTo(values, within(values * 0.05 + 3));
        }
        SplitBlockBloomFilterBuilder saturated = new SplitBlockBloomFilterBuilder(32);
        random.longs(100_000).forEach(saturated::insert);
        assertThat(TestingBloomFilters.estimatedDistinctValues(saturated.build())).isInfinite();
        assertThat(TestingBloomFilters.estimatedDistinctValues(new SplitBlockBloomFilterBuilder(64).build())).isZero();
    }

    @Test
    void scalarAndVectorAgree()
    {
        SplittableRandom random = new SplittableRandom(4);
        BlockProbe scalar = BlockProbes.scalar();
        BlockProbe vector = BlockProbes.vector();
        long pairs = 0;
        while (pairs < 4_000_000) {
            int numBytes = 32 * random.nextInt(1, 3_000);
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(numBytes);
            // densities from nearly empty to saturated
            random.longs(random.nextInt(0, numBytes / 2)).forEach(builder::insert);
            SplitBlockBloomFilter filter = builder.build();
            long[] hashes = random.longs(20_000).toArray();
            boolean[] scalarResult = new boolean[hashes.length];
            boolean[] vectorResult = new boolean[hashes.length];
            int scalarCount = filter.withProbe(scalar).mightContain(hashes, 0, hashes.length, scalarResult);
            int vectorCount = filter.withProbe(vector).mightContain(hashes, 0, hashes.length, vectorResult);
            assertThat(vectorResult).isEqualTo(scalarResult);
            assertThat(vectorCount).isEqualTo(scalarCount);
            for (int i = 0; i < 1000; i++) {
                assertThat(filter.withProbe(vector).mightContain(hashes[i])).isEqualTo(scalarResult[i]);
            }
            pairs += hashes.length;
        }
    }

    @Test
    void vectorProbeIsChosenWhereNative()
    {
        BlockProbes.Selection selection = BlockProbes.selection();
        assertThat(selection.reason()).isNotBlank();
        // the test JVM runs with --add-modules=jdk.incubator.vector; on a CPU with AVX2 the vector probe must win
        if (jdk.incubator.vector.IntVector.SPECIES_PREFERRED.vectorBitSize() >= 256) {
            assertThat(selection.probe().name()).isEqualTo("vector-256");
        }
        else {
            assertThat(selection.probe().name()).isEqualTo("scalar");
        }
    }

    @Test
    void malformedBytesNeverThrowAndNeverDropInsertedValues()
    {
        SplittableRandom random = new SplittableRandom(5);
        // pure garbage
        for (int trial = 0; trial < 200_000; trial++) {
            byte[] bytes = new byte[random.nextInt(0, 80)];
            random.nextBytes(bytes);
            OptionalInt declared = random.nextBoolean() ? OptionalInt.empty() : OptionalInt.of(random.nextInt(-5, 100));
            SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(bytes, 0, bytes.length, declared);
            switch (result) {
                case SplitBlockBloomFilterReader.Result.Unusable unusable -> assertThat(unusable.reason()).isNotBlank();
                case SplitBlockBloomFilterReader.Result.Usable usable -> {
                    // whatever garbage passes must describe a filter that lies within the bytes it was given
                    assertThat(usable.filter().sizeInBytes()).isPositive().isEqualTo(usable.filter().numBlocks() * 32);
                    assertThat(usable.totalLength()).isLessThanOrEqualTo(bytes.length).isGreaterThan(usable.filter().sizeInBytes());
                    if (declared.isPresent()) {
                        assertThat(usable.totalLength()).isEqualTo(declared.getAsInt());
                    }
                }
            }
        }

        // mutations of real filters: whatever survives parsing must still contain every inserted value
        long[] inserted = random.longs(300).toArray();
        int unusable = 0;
        for (int trial = 0; trial < 50_000; trial++) {
            int numBytes = 32 << random.nextInt(0, 8);
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(numBytes);
            builder.insertAll(inserted);
            byte[] bytes = TestingBloomFilters.serialize(builder.build());
            int headerLength = bytes.length - numBytes;
            int mutations = random.nextInt(1, 4);
            boolean bitsetMutated = false;
            for (int i = 0; i < mutations; i++) {
                // mostly in the header, sometimes anywhere
                int position = random.nextInt(4) == 0 ? random.nextInt(bytes.length) : random.nextInt(headerLength);
                bitsetMutated |= position >= headerLength;
                bytes[position] = (byte) random.nextInt(256);
            }
            int available = random.nextInt(5) == 0 ? random.nextInt(bytes.length + 1) : bytes.length;
            // the reader always knows a filter's extent: bloom_filter_length, or, without it, the distance to the next
            // filter or the footer, which header and bitset must fill exactly
            SplitBlockBloomFilterReader.Result result = random.nextBoolean()
                    ? SplitBlockBloomFilterReader.read(bytes, 0, available, OptionalInt.of(bytes.length))
                    : SplitBlockBloomFilterReader.readFilling(bytes, 0, available);
            if (result instanceof SplitBlockBloomFilterReader.Result.Usable usable) {
                assertThat(usable.totalLength()).isEqualTo(bytes.length);
                if (!bitsetMutated) {
                    // a damaged header may be accepted only if it still describes the same bitset
                    assertThat(usable.filter().sizeInBytes()).isEqualTo(numBytes);
                    for (long hash : inserted) {
                        assertThat(usable.filter().mightContain(hash)).isTrue();
                    }
                }
            }
            else {
                unusable++;
            }
        }
        assertThat(unusable).isPositive();
    }

    @Test
    void rejectsWhatTheSpecDoesNotDefine()
    {
        byte[] valid = TestingBloomFilters.serialize(new SplitBlockBloomFilterBuilder(64).build());
        assertUsable(valid, OptionalInt.empty());
        assertUsable(valid, OptionalInt.of(valid.length));
        assertUnusable(valid, valid.length - 1, OptionalInt.empty(), "truncated bitset");
        assertUnusable(valid, 5, OptionalInt.empty(), "truncated header");
        assertUnusable(valid, valid.length, OptionalInt.of(valid.length + 1), "exceeds");
        assertUnusable(valid, valid.length, OptionalInt.of(valid.length - 32), "disagrees");

        // no bloom_filter_length: a header damaged from 256 to 128 bytes is only caught when the extent must be filled
        byte[] shrunk = TestingBloomFilters.serialize(new SplitBlockBloomFilterBuilder(256).build());
        byte[] smallerHeader = TestingBloomFilters.header(128);
        assertThat(smallerHeader.length).isEqualTo(shrunk.length - 256);
        System.arraycopy(smallerHeader, 0, shrunk, 0, smallerHeader.length);
        assertThat(SplitBlockBloomFilterReader.read(shrunk, 0, shrunk.length, OptionalInt.empty())).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
        SplitBlockBloomFilterReader.Result filling = SplitBlockBloomFilterReader.readFilling(shrunk, 0, shrunk.length);
        assertThat(filling).isInstanceOf(SplitBlockBloomFilterReader.Result.Unusable.class);
        assertThat(((SplitBlockBloomFilterReader.Result.Unusable) filling).reason()).contains("does not fill");
        assertThat(SplitBlockBloomFilterReader.readFilling(valid, 0, valid.length)).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);

        // numBytes 40 (not a multiple of 32), 0, negative, 256 MiB
        for (int numBytes : new int[] {40, 0, -32, 256 * 1024 * 1024}) {
            byte[] header = TestingBloomFilters.header(numBytes);
            byte[] bytes = Arrays.copyOf(header, header.length + 64);
            assertUnusable(bytes, bytes.length, OptionalInt.empty(), "numBytes");
        }

        // algorithm union member 2 (unknown), hash union member 2, compression member 2
        for (int field = 2; field <= 4; field++) {
            byte[] bytes = valid.clone();
            // header = 0x15, numBytes varint, 4 bytes per union, STOP
            int varintLength = bytes.length - 64 - 14;
            int unionStart = 1 + varintLength + (field - 2) * 4;
            assertThat(bytes[unionStart]).isEqualTo((byte) 0x1C);
            bytes[unionStart + 1] = 0x2C; // member field id 2 instead of 1
            assertUnusable(bytes, bytes.length, OptionalInt.empty(), "unknown");
        }
    }

    private static void assertUsable(byte[] bytes, OptionalInt declared)
    {
        assertThat(SplitBlockBloomFilterReader.read(bytes, 0, bytes.length, declared)).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
    }

    private static void assertUnusable(byte[] bytes, int length, OptionalInt declared, String reason)
    {
        SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(bytes, 0, length, declared);
        assertThat(result).isInstanceOf(SplitBlockBloomFilterReader.Result.Unusable.class);
        assertThat(((SplitBlockBloomFilterReader.Result.Unusable) result).reason()).contains(reason);
    }
}
