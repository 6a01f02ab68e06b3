package io.parquetbloom.health;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Work over a table's files is streamed: results come in input order, at most a window of them exist at once, and a
 * consumer that stops leaves nothing queued. Per-row-group measures are sampled, so a column of 20,000 row groups
 * keeps a bounded number of values, and the sampled overlap estimates the exact one.
 */
final class TestInOrderWindow
{
    @Test
    void resultsInInputOrderWithABoundedWindow()
    {
        List<Integer> inputs = IntStream.range(0, 20_000).boxed().toList();
        AtomicInteger started = new AtomicInteger();
        try (ExecutorService executor = Executors.newFixedThreadPool(4);
                InOrderWindow<Integer, Integer> window = new InOrderWindow<>(inputs, input -> {
                    started.incrementAndGet();
                    return input * 2;
                }, executor, 16)) {
            List<Integer> results = new ArrayList<>();
            while (window.hasNext()) {
                results.add(window.next());
                assertThat(started.get()).isLessThanOrEqualTo(results.size() + 16);
            }
            assertThat(results).isEqualTo(inputs.stream().map(input -> input * 2).toList());
            assertThat(window.maxInFlight()).isEqualTo(16);
        }
    }

    @Test
    void closingEarlyStartsNothingMore()
    {
        AtomicInteger started = new AtomicInteger();
        List<Runnable> queued = new ArrayList<>();
        InOrderWindow<Integer, Integer> window = new InOrderWindow<>(IntStream.range(0, 1_000).boxed().toList(), input -> {
            started.incrementAndGet();
            return input;
        }, queued::add, 8);
        queued.removeFirst().run();
        assertThat(window.next()).isZero();
        window.close();
        queued.forEach(Runnable::run);
        // the one consumed, and none of the 8 queued when it closed
        assertThat(started).hasValue(1);
        assertThat(window.hasNext()).isFalse();
    }

    @Test
    void overlapOfManyRowGroupsIsSampledAndClose()
    {
        SplittableRandom random = new SplittableRandom(7);
        MinMaxOverlap<Long> exact = new MinMaxOverlap<>(Long::compare);
        MinMaxOverlap<Long> sampled = new MinMaxOverlap<>(Long::compare, ColumnAccumulator.SAMPLE);
        for (int rowGroup = 0; rowGroup < 20_000; rowGroup++) {
            // half clustered (narrow ranges in order), half random keys (wide ranges)
            long min = rowGroup % 2 == 0 ? rowGroup * 1_000L : random.nextLong(0, 10_000_000);
            long max = min + (rowGroup % 2 == 0 ? 999 : random.nextLong(0, 10_000_000));
            exact.add(min, max);
            sampled.add(min, max);
        }
        assertThat(sampled.ranges()).isEqualTo(20_000);
        assertThat(sampled.overlap().orElseThrow()).isCloseTo(exact.overlap().orElseThrow(), within(0.02));
    }

    @Test
    void reservoirKeepsAtMostItsCapacity()
    {
        Reservoir<Integer> reservoir = new Reservoir<>(100);
        for (int i = 0; i < 20_000; i++) {
            reservoir.add(i);
        }
        assertThat(reservoir.values()).hasSize(100).doesNotHaveDuplicates().allMatch(value -> value >= 0 && value < 20_000);
        assertThat(reservoir.added()).isEqualTo(20_000);
        // a uniform sample: about as many from the second half as from the first
        assertThat(reservoir.values().stream().filter(value -> value >= 10_000).count()).isBetween(30L, 70L);
    }
}
