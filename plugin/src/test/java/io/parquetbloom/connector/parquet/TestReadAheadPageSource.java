package io.parquetbloom.connector.parquet;

import io.parquetbloom.connector.ParquetBloomSplit;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestReadAheadPageSource
{
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown()
    {
        executor.shutdownNow();
    }

    @Test
    void readsEverySplitInOrderAndMergesWhatTheyReport()
            throws Exception
    {
        Opener opener = new Opener(Map.of());
        ReadAheadPageSource source = new ReadAheadPageSource(splits(5), opener, executor, 2);

        List<Integer> rows = drain(source);

        // split i returns i + 1 pages of i + 1 rows
        assertThat(rows).containsExactlyElementsOf(IntStream.range(0, 5).boxed().flatMap(i -> IntStream.range(0, i + 1).mapToObj(_ -> i + 1)).toList());
        assertThat(source.getCompletedPositions()).hasValue(1 + 4 + 9 + 16 + 25);
        assertThat(source.getCompletedBytes()).isEqualTo(5 * 100);
        assertThat(((LongCount) source.getMetrics().getMetrics().get("opened")).getTotal()).isEqualTo(5);
        assertThat(((LongCount) source.getMetrics().getMetrics().get("splitsReadInGroups")).getTotal()).isEqualTo(5);
        source.close();
        assertThat(opener.closed).hasSize(5);
    }

    @Test
    void opensAtMostReadAheadSplitsBeyondTheCurrentOne()
            throws Exception
    {
        CountDownLatch release = new CountDownLatch(1);
        Opener opener = new Opener(Map.of(3, release));
        ReadAheadPageSource source = new ReadAheadPageSource(splits(8), opener, executor, 2);

        // read until the source waits for split 3: splits 0, 1 and 2 read (1 + 2 + 3 pages)
        List<Integer> seen = new ArrayList<>();
        while (true) {
            try {
                source.isBlocked().get(2, TimeUnit.SECONDS);
            }
            catch (TimeoutException e) {
                break;
            }
            SourcePage page = source.getNextSourcePage();
            if (page != null) {
                seen.add(page.getPositionCount());
            }
        }
        assertThat(seen).containsExactly(1, 2, 2, 3, 3, 3);
        // besides the three read: split 3 opening and split 4 opened ahead, no more
        assertThat(opener.started.get()).isEqualTo(5);
        assertThat(source.isFinished()).isFalse();
        release.countDown();
        drain(source);
        assertThat(opener.opened.get()).isEqualTo(8);
        source.close();
    }

    @Test
    void splitsOpenedAheadReadAtMostTheReadAheadBytes()
            throws Exception
    {
        CountDownLatch release = new CountDownLatch(1);
        Opener opener = new Opener(Map.of(0, release, 1, release, 2, release));
        long length = 6L << 20;
        ReadAheadPageSource source = new ReadAheadPageSource(splits(5, length), opener, executor, 4);

        Thread.sleep(200);
        // two splits of 6 MiB fit in 16 MiB, a third does not
        assertThat(opener.started.get()).isEqualTo(2);
        release.countDown();
        assertThat(drain(source)).hasSize(1 + 2 + 3 + 4 + 5);
        source.close();
    }

    @Test
    void aSplitThatFailsToOpenFailsTheReadWhenItsTurnComes()
            throws Exception
    {
        Opener opener = new Opener(Map.of());
        opener.failing = 2;
        ReadAheadPageSource source = new ReadAheadPageSource(splits(4), opener, executor, 3);

        List<Integer> rows = new ArrayList<>();
        assertThatThrownBy(() -> {
            while (!source.isFinished()) {
                source.isBlocked().get(10, TimeUnit.SECONDS);
                SourcePage page = source.getNextSourcePage();
                if (page != null) {
                    rows.add(page.getPositionCount());
                }
            }
        }).isInstanceOf(TrinoException.class).hasMessageContaining("cannot open split 2");
        // the two splits before it were read whole
        assertThat(rows).containsExactly(1, 2, 2);
        source.close();
    }

    @Test
    void closingEarlyClosesWhatWasOpenedAhead()
            throws Exception
    {
        Opener opener = new Opener(Map.of());
        ReadAheadPageSource source = new ReadAheadPageSource(splits(6), opener, executor, 3);
        source.isBlocked().get(10, TimeUnit.SECONDS);
        assertThat(source.getNextSourcePage()).isNotNull();

        source.close();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (opener.closed.size() < opener.opened.get() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(opener.closed).hasSize(opener.opened.get());
        // never more than the current one and three ahead
        assertThat(opener.opened.get()).isLessThanOrEqualTo(4);
        assertThat(source.isFinished()).isTrue();
        assertThat(source.getNextSourcePage()).isNull();
    }

    private static List<Integer> drain(ReadAheadPageSource source)
            throws Exception
    {
        List<Integer> rows = new ArrayList<>();
        while (!source.isFinished()) {
            source.isBlocked().get(10, TimeUnit.SECONDS);
            SourcePage page = source.getNextSourcePage();
            if (page != null) {
                rows.add(page.getPositionCount());
            }
        }
        return rows;
    }

    private static List<ParquetBloomSplit> splits(int count)
    {
        return splits(count, 100);
    }

    private static List<ParquetBloomSplit> splits(int count, long length)
    {
        return IntStream.range(0, count)
                .mapToObj(i -> new ParquetBloomSplit(String.valueOf(i), length, "etag", 0, length, Map.of(), Optional.empty(), 0))
                .toList();
    }

    /**
     * Opens split {@code i} as a source of {@code i + 1} pages of {@code i + 1} rows; a split with a latch waits for it.
     */
    private static final class Opener
            implements Function<ParquetBloomSplit, ConnectorPageSource>
    {
        private final Map<Integer, CountDownLatch> waits;
        private final AtomicInteger started = new AtomicInteger();
        private final AtomicInteger opened = new AtomicInteger();
        private final Map<Integer, Boolean> closed = new ConcurrentHashMap<>();
        private volatile int failing = -1;

        private Opener(Map<Integer, CountDownLatch> waits)
        {
            this.waits = waits;
        }

        @Override
        public ConnectorPageSource apply(ParquetBloomSplit split)
        {
            int index = Integer.parseInt(split.path());
            started.incrementAndGet();
            if (index == failing) {
                throw new TrinoException(GENERIC_INTERNAL_ERROR, "cannot open split " + index);
            }
            CountDownLatch wait = waits.get(index);
            if (wait != null) {
                try {
                    wait.await();
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            opened.incrementAndGet();
            return new Pages(index, closed);
        }
    }

    private static final class Pages
            implements ConnectorPageSource
    {
        private final int index;
        private final Map<Integer, Boolean> closed;
        private int returned;

        private Pages(int index, Map<Integer, Boolean> closed)
        {
            this.index = index;
            this.closed = closed;
        }

        @Override
        public long getCompletedBytes()
        {
            return isFinished() ? 100 : 0;
        }

        @Override
        public OptionalLong getCompletedPositions()
        {
            return OptionalLong.of((long) returned * (index + 1));
        }

        @Override
        public long getReadTimeNanos()
        {
            return 0;
        }

        @Override
        public boolean isFinished()
        {
            return returned > index;
        }

        @Override
        public SourcePage getNextSourcePage()
        {
            if (isFinished()) {
                return null;
            }
            returned++;
            return SourcePage.create(index + 1);
        }

        @Override
        public Metrics getMetrics()
        {
            return new Metrics(Map.of("opened", new LongCount(1)));
        }

        @Override
        public void close()
        {
            closed.put(index, true);
        }
    }
}
