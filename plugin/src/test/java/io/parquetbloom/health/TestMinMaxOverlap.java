package io.parquetbloom.health;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

final class TestMinMaxOverlap
{
    @Test
    void sortedRangesDoNotOverlap()
    {
        MinMaxOverlap<Long> overlap = new MinMaxOverlap<>(Comparator.<Long>naturalOrder());
        for (long i = 0; i < 100; i++) {
            overlap.add(i * 10, i * 10 + 9);
        }
        assertThat(overlap.overlap().getAsDouble()).isZero();
    }

    @Test
    void touchingRangesOverlapTheirNeighbours()
    {
        MinMaxOverlap<Long> overlap = new MinMaxOverlap<>(Comparator.<Long>naturalOrder());
        overlap.add(0L, 10L);
        overlap.add(10L, 20L);
        overlap.add(20L, 30L);
        // the middle range meets both others, each end range one of two
        assertThat(overlap.overlap().getAsDouble()).isCloseTo((0.5 + 1 + 0.5) / 3, within(1e-12));
    }

    @Test
    void randomKeysOverlapAlmostEverything()
    {
        SplittableRandom random = new SplittableRandom(1);
        MinMaxOverlap<Long> overlap = new MinMaxOverlap<>(Comparator.<Long>naturalOrder());
        for (int rowGroup = 0; rowGroup < 200; rowGroup++) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < 1_000; i++) {
                long value = random.nextLong();
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
            overlap.add(min, max);
        }
        assertThat(overlap.overlap().getAsDouble()).isGreaterThan(0.99);
    }

    @Test
    void oneRangeHasNoOverlapToMeasure()
    {
        MinMaxOverlap<Long> overlap = new MinMaxOverlap<>(Comparator.<Long>naturalOrder());
        overlap.add(1L, 2L);
        assertThat(overlap.overlap()).isEmpty();
    }
}
