package io.parquetbloom.sbbf;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

final class TestBloomFilterUnion
{
    @Test
    void unionEstimatesTheDistinctValuesOfAllItsFilters()
    {
        // 8 row groups of 5,000 values drawn from 12,000 keys: many values repeat across row groups
        SplittableRandom random = new SplittableRandom(7);
        long[] keys = new long[12_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextLong();
        }
        BloomFilterUnion union = new BloomFilterUnion(64 * 1024);
        Set<Long> distinct = new HashSet<>();
        for (int rowGroup = 0; rowGroup < 8; rowGroup++) {
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(64 * 1024);
            Set<Long> inRowGroup = new HashSet<>();
            for (int i = 0; i < 5_000; i++) {
                long key = keys[random.nextInt(keys.length)];
                builder.insert(key);
                inRowGroup.add(key);
                distinct.add(key);
            }
            SplitBlockBloomFilter filter = builder.build();
            assertThat(BloomFilterMath.estimateDistinctValues(filter.bitsSet(), filter.sizeInBytes() * 8L)).isCloseTo(inRowGroup.size(), withinPercentage(3));
            union.add(filter);
        }
        assertThat(union.filters()).isEqualTo(8);
        assertThat(BloomFilterMath.estimateDistinctValues(union.bitsSet(), union.totalBits())).isCloseTo(distinct.size(), withinPercentage(3));
    }

    @Test
    void unionIsTheFilterOfAllValues()
    {
        SplitBlockBloomFilterBuilder all = new SplitBlockBloomFilterBuilder(1024);
        BloomFilterUnion union = new BloomFilterUnion(1024);
        for (int part = 0; part < 3; part++) {
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(1024);
            for (long value = part * 100; value < part * 100 + 100; value++) {
                builder.insert(value * 0x9E3779B97F4A7C15L);
                all.insert(value * 0x9E3779B97F4A7C15L);
            }
            union.add(builder.build());
        }
        assertThat(union.bitsSet()).isEqualTo(all.build().bitsSet());
    }

    @Test
    void filtersOfAnotherSizeDoNotMix()
    {
        BloomFilterUnion union = new BloomFilterUnion(1024);
        assertThatThrownBy(() -> union.add(new SplitBlockBloomFilterBuilder(2048).build()))
                .hasMessageContaining("2048");
    }
}
