package io.parquetbloom.keyindex;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.PrimitiveIterator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestEntrySorter
{
    @TempDir
    Path spill;

    /**
     * A hashing task that outlives its failed build adds to a closed sorter: it fails at once. Before, with nothing
     * buffered it looped forever inside the sorter's lock, with something buffered it failed out of bounds.
     */
    @Test
    @Timeout(10)
    void addAfterCloseFailsInsteadOfSpinning()
            throws IOException
    {
        EntrySorter empty = new EntrySorter(1 << 20, spill);
        empty.close();
        assertThatThrownBy(() -> empty.add(new long[] {1, 2, 3}, 3))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("closed");

        EntrySorter buffered = new EntrySorter(1 << 20, spill);
        buffered.add(new long[] {5, 6}, 2);
        buffered.close();
        assertThatThrownBy(() -> buffered.add(new long[] {7}, 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void spillsRunsAndMergesThemDistinct()
            throws IOException
    {
        // 1,024 entries of memory: 5,000 entries spill several runs, sharing values across runs
        try (EntrySorter sorter = new EntrySorter(1024 * Long.BYTES, spill)) {
            long[] batch = new long[500];
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = (i * 7919L + round * 13L) % 3001;
                }
                sorter.add(batch, batch.length);
            }
            assertThat(sorter.runs()).isGreaterThan(1);
            PrimitiveIterator.OfLong sorted = sorter.sorted();
            long previous = -1;
            long count = 0;
            while (sorted.hasNext()) {
                long value = sorted.nextLong();
                assertThat(value).isGreaterThan(previous);
                previous = value;
                count++;
            }
            long expected = Stream.iterate(0, round -> round + 1).limit(10)
                    .flatMap(round -> Stream.iterate(0, i -> i + 1).limit(500).map(i -> (i * 7919L + round * 13L) % 3001))
                    .distinct().count();
            assertThat(count).isEqualTo(expected);
        }
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left).isEmpty();
        }
    }
}
