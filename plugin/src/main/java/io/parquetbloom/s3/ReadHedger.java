package io.parquetbloom.s3;

import io.trino.spi.TrinoException;

import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * Hedged GETs: once a GET has run past the recent 95th percentile of GETs of its size, a second GET of the same bytes
 * goes out, the first answer wins and the other is interrupted. A GET stuck on one slow S3 server or connection is a
 * property of that request, not of the object, so the second rarely meets it too. Each reader may hedge at most once
 * plus a fraction of its GETs, so hedges cannot multiply the load on a bucket that is slow for everyone.
 */
final class ReadHedger
{
    // latencies differ by size: a footer tail and a row group's chunks are not compared; above the last limit, no hedging
    private static final long[] SIZE_CLASS_LIMITS = {256 * 1024, 2 * 1024 * 1024, 16 * 1024 * 1024};

    // losers are abandoned, not awaited: a thread per GET, virtual so that a stalled one costs nothing
    private static final ExecutorService HEDGE_THREADS = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("parquet-bloom-hedge-", 0).factory());

    private final double maxHedgedFraction;
    private final S3Stats nodeStats;
    private final LatencyWindow[] windows = new LatencyWindow[SIZE_CLASS_LIMITS.length + 1];

    /**
     * @param maxHedgedFraction hedges a reader may send per GET it sent, beyond its first hedge
     */
    ReadHedger(double maxHedgedFraction, S3Stats nodeStats)
    {
        this.maxHedgedFraction = maxHedgedFraction;
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
        for (int i = 0; i < windows.length; i++) {
            windows[i] = new LatencyWindow();
        }
    }

    /**
     * Records how long a successful GET of {@code length} bytes took, retries included.
     */
    void recordLatency(int length, long nanos)
    {
        windows[sizeClass(length)].record(nanos);
    }

    /**
     * The bytes {@code get} returns, from a second call of it if the first is slower than its size's recent p95 and
     * the reader's hedge budget allows one; a failure is the one of the call that finished last.
     *
     * @param get a GET, given whether the race is decided: a GET interrupted after that lost, and did not fail
     * @param location what {@code get} reads, for errors
     */
    byte[] read(Function<BooleanSupplier, byte[]> get, int length, S3RequestStats stats, S3Location location)
    {
        OptionalLong delay = hedgeDelayNanos(length);
        if (delay.isEmpty()) {
            return get.apply(() -> false);
        }
        AtomicBoolean decided = new AtomicBoolean();
        Callable<byte[]> call = () -> get.apply(decided::get);
        ExecutorCompletionService<byte[]> race = new ExecutorCompletionService<>(HEDGE_THREADS);
        Future<byte[]> first = race.submit(call);
        Future<byte[]> second = null;
        try {
            Future<byte[]> done = race.poll(delay.getAsLong(), NANOSECONDS);
            if (done != null || !stats.tryReserveHedge(maxHedgedFraction)) {
                return result(first, location);
            }
            second = race.submit(call);
            nodeStats.recordHedge();
            Future<byte[]> winner = race.take();
            Future<byte[]> loser = winner == first ? second : first;
            if (failed(winner)) {
                return resultAfterFailure(winner, loser, location);
            }
            decided.set(true);
            loser.cancel(true);
            if (winner == second) {
                stats.recordHedgeWon();
                nodeStats.recordHedgeWon();
            }
            return result(winner, location);
        }
        catch (InterruptedException e) {
            decided.set(true);
            first.cancel(true);
            if (second != null) {
                second.cancel(true);
            }
            Thread.currentThread().interrupt();
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Interrupted while reading " + location, e);
        }
    }

    /**
     * No hedging for the largest GETs (a second buffer of that size is not worth a faster tail) nor before the size
     * class has a percentile.
     */
    private OptionalLong hedgeDelayNanos(int length)
    {
        int sizeClass = sizeClass(length);
        return sizeClass == SIZE_CLASS_LIMITS.length ? OptionalLong.empty() : windows[sizeClass].hedgeDelayNanos();
    }

    /**
     * The other GET's bytes; if it fails too, the more telling of the two failures: an object that changed or went
     * away says more than a GET that gave up.
     */
    private static byte[] resultAfterFailure(Future<byte[]> failed, Future<byte[]> other, S3Location location)
            throws InterruptedException
    {
        try {
            return result(other, location);
        }
        catch (TrinoException otherFailure) {
            if (failed.state() == Future.State.FAILED && failed.exceptionNow() instanceof TrinoException failure && failure.getErrorCode().equals(PARQUET_BLOOM_OBJECT_CHANGED.toErrorCode())) {
                throw failure;
            }
            throw otherFailure;
        }
    }

    private static boolean failed(Future<byte[]> done)
    {
        return done.state() != Future.State.SUCCESS;
    }

    private static byte[] result(Future<byte[]> future, S3Location location)
            throws InterruptedException
    {
        try {
            return future.get();
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Failed to read %s: %s".formatted(location, e.getCause().getMessage()), e.getCause());
        }
        catch (CancellationException e) {
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Read of %s cancelled".formatted(location), e);
        }
    }

    private static int sizeClass(long length)
    {
        for (int i = 0; i < SIZE_CLASS_LIMITS.length; i++) {
            if (length <= SIZE_CLASS_LIMITS[i]) {
                return i;
            }
        }
        return SIZE_CLASS_LIMITS.length;
    }
}
