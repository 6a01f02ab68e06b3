package io.parquetbloom.connector.parquet;

import io.parquetbloom.connector.ParquetBloomSplit;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Reads the splits of a {@link io.parquetbloom.connector.ParquetBloomSplitGroup} one after another, each through the
 * page source it would have alone, while up to {@code readAhead} of the next ones are opened on other threads: their
 * footers, filters and first column chunks are fetched while the driver reads the current one, so a driver keeps
 * several GETs in flight instead of one. While the next split is still opening, {@link #isBlocked()} lets the engine
 * run other drivers. An error opening a split is raised when its turn comes, as it would be alone.
 */
final class ReadAheadPageSource
        implements ConnectorPageSource
{
    /**
     * Most bytes the splits opened ahead may read: what a driver holds beyond its current split, about what Trino's
     * Parquet reader holds for one large chunk, whatever the number of splits.
     */
    static final long READ_AHEAD_BYTES = 16L << 20;

    private final Deque<ParquetBloomSplit> unopened;
    private final Deque<CompletableFuture<ConnectorPageSource>> opening = new ArrayDeque<>();
    private final Deque<Long> openingBytes = new ArrayDeque<>();
    private final Function<ParquetBloomSplit, ConnectorPageSource> opener;
    private final Executor executor;
    private final int readAhead;
    private final ClassLoader classLoader = ReadAheadPageSource.class.getClassLoader();

    private ConnectorPageSource current;
    private long finishedBytes;
    private long finishedPositions;
    private long finishedReadNanos;
    private Metrics finishedMetrics = Metrics.EMPTY;
    private long splitsTaken;
    private final MetricsSnapshot metrics = new MetricsSnapshot();
    private volatile boolean closed;

    /**
     * @param opener opens one split's page source, as for a split alone; called on {@code executor}
     * @param readAhead splits opened beyond the one being read
     */
    ReadAheadPageSource(List<ParquetBloomSplit> splits, Function<ParquetBloomSplit, ConnectorPageSource> opener, Executor executor, int readAhead)
    {
        this.unopened = new ArrayDeque<>(requireNonNull(splits, "splits is null"));
        this.opener = requireNonNull(opener, "opener is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.readAhead = readAhead;
        startOpening();
    }

    @Override
    public synchronized SourcePage getNextSourcePage()
    {
        while (!closed) {
            if (current == null && !takeOpened()) {
                return null;
            }
            SourcePage page = current.getNextSourcePage();
            if (page != null || !current.isFinished()) {
                return page;
            }
            finishCurrent();
        }
        return null;
    }

    /**
     * Makes the next opened split current; false when it is still opening or none is left.
     */
    private boolean takeOpened()
    {
        CompletableFuture<ConnectorPageSource> next = opening.peekFirst();
        if (next == null || !next.isDone()) {
            return false;
        }
        opening.pollFirst();
        openingBytes.pollFirst();
        current = opened(next);
        splitsTaken++;
        startOpening();
        return true;
    }

    private static ConnectorPageSource opened(CompletableFuture<ConnectorPageSource> future)
    {
        try {
            return future.join();
        }
        catch (CompletionException e) {
            if (e.getCause() instanceof TrinoException trinoException) {
                throw trinoException;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    private void finishCurrent()
    {
        finishedBytes += current.getCompletedBytes();
        finishedPositions += current.getCompletedPositions().orElse(0);
        finishedReadNanos += current.getReadTimeNanos();
        finishedMetrics = finishedMetrics.mergeWith(current.getMetrics());
        closeQuietly(current);
        current = null;
    }

    /**
     * Opens the next splits while fewer than {@code readAhead} are open or opening and their reads fit in
     * {@link #READ_AHEAD_BYTES}; the next split always, when none is.
     */
    private void startOpening()
    {
        long bytes = openingBytes.stream().mapToLong(Long::longValue).sum();
        while (!unopened.isEmpty() && opening.size() < Math.max(1, readAhead) && (opening.isEmpty() || bytes + unopened.peek().length() <= READ_AHEAD_BYTES)) {
            ParquetBloomSplit split = unopened.poll();
            opening.add(CompletableFuture.supplyAsync(() -> open(split), executor));
            openingBytes.add(split.length());
            bytes += split.length();
        }
    }

    private ConnectorPageSource open(ParquetBloomSplit split)
    {
        if (closed) {
            // a LIMIT met or the query gone: nothing more is fetched
            return new EmptyPageSource();
        }
        try (ThreadContextClassLoader _ = new ThreadContextClassLoader(classLoader)) {
            return opener.apply(split);
        }
    }

    @Override
    public synchronized boolean isFinished()
    {
        return closed || (current == null && opening.isEmpty() && unopened.isEmpty());
    }

    @Override
    public synchronized CompletableFuture<?> isBlocked()
    {
        if (current != null) {
            return current.isBlocked();
        }
        CompletableFuture<ConnectorPageSource> next = opening.peekFirst();
        if (next == null || next.isDone()) {
            return NOT_BLOCKED;
        }
        // woken either way: a failure to open is raised by getNextSourcePage
        return next.handle((_, _) -> null);
    }

    @Override
    public synchronized long getCompletedBytes()
    {
        return finishedBytes + (current == null ? 0 : current.getCompletedBytes());
    }

    @Override
    public synchronized OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(finishedPositions + (current == null ? 0 : current.getCompletedPositions().orElse(0)));
    }

    @Override
    public synchronized long getReadTimeNanos()
    {
        return finishedReadNanos + (current == null ? 0 : current.getReadTimeNanos());
    }

    @Override
    public synchronized long getMemoryUsage()
    {
        long bytes = current == null ? 0 : current.getMemoryUsage();
        for (CompletableFuture<ConnectorPageSource> future : opening) {
            if (future.isDone() && !future.isCompletedExceptionally()) {
                bytes += future.join().getMemoryUsage();
            }
        }
        return bytes;
    }

    @Override
    public synchronized Metrics getMetrics()
    {
        return metrics.get(isFinished(), this::currentMetrics);
    }

    private Metrics currentMetrics()
    {
        Metrics own = new Metrics(Map.of("splitsReadInGroups", new LongCount(splitsTaken)));
        Metrics members = current == null ? finishedMetrics : finishedMetrics.mergeWith(current.getMetrics());
        return members.mergeWith(own);
    }

    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        if (current != null) {
            finishCurrent();
        }
        unopened.clear();
        // splits opened ahead and never read are closed as soon as they are open
        for (CompletableFuture<ConnectorPageSource> future : opening) {
            future.thenAccept(ReadAheadPageSource::closeQuietly);
        }
        opening.clear();
        openingBytes.clear();
    }

    private static void closeQuietly(ConnectorPageSource source)
    {
        try {
            source.close();
        }
        catch (IOException | RuntimeException ignored) {
            // closing releases buffers; a failure to do so changes no answer
        }
    }
}
