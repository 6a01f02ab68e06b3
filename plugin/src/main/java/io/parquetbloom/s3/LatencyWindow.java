package io.parquetbloom.s3;

import com.google.errorprone.annotations.concurrent.GuardedBy;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The durations of the most recent GETs of one size class, and their 95th percentile: how long a GET may run before a
 * second one is worth sending. No percentile until enough GETs were seen, so a cold node does not hedge on guesses.
 */
final class LatencyWindow
{
    static final int CAPACITY = 256;
    static final int MIN_SAMPLES = 32;
    // the percentile is recomputed after this many new samples, not on every GET
    private static final int RECOMPUTE_EVERY = 16;

    @GuardedBy("this")
    private final long[] nanos = new long[CAPACITY];
    @GuardedBy("this")
    private long recorded;
    @GuardedBy("this")
    private long p95 = -1;

    synchronized void record(long durationNanos)
    {
        nanos[(int) (recorded % CAPACITY)] = durationNanos;
        recorded++;
        if (recorded >= MIN_SAMPLES && (recorded % RECOMPUTE_EVERY == 0 || p95 < 0)) {
            long[] recent = Arrays.copyOf(nanos, (int) Math.min(recorded, CAPACITY));
            Arrays.sort(recent);
            p95 = recent[(int) Math.ceil(recent.length * 0.95) - 1];
        }
    }

    synchronized OptionalLong hedgeDelayNanos()
    {
        return p95 < 0 ? OptionalLong.empty() : OptionalLong.of(p95);
    }
}
