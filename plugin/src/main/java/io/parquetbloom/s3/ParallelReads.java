package io.parquetbloom.s3;

import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ParallelTasks;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Ranged GETs of one object that do not depend on each other, sent side by side: a few of them one after the other
 * would put each round trip, and each retry a fault costs, on the caller's critical path.
 */
public final class ParallelReads
{
    // GETs of one object in flight at a time; planning already reads many files side by side
    private static final int PARALLEL_GETS = 4;

    private ParallelReads() {}

    public record Range(long start, int length) {}

    /**
     * The bytes of each range, in order; the first failure is rethrown as the store threw it.
     */
    public static List<byte[]> read(S3ObjectStore store, S3ObjectInfo object, List<Range> ranges, S3RequestStats stats)
    {
        if (ranges.size() <= 1) {
            return ranges.stream().map(range -> store.read(object, range.start(), range.length(), stats)).toList();
        }
        List<Callable<byte[]>> reads = ranges.stream()
                .<Callable<byte[]>>map(range -> () -> store.read(object, range.start(), range.length(), stats))
                .toList();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // the calling thread reads too
            return ParallelTasks.runAll(reads, new BoundedExecutor(threads, PARALLEL_GETS - 1));
        }
    }
}
