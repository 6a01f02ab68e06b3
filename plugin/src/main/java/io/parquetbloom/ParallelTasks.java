package io.parquetbloom;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static io.trino.plugin.base.util.ExecutorUtil.processWithAdditionalThreads;

/**
 * Runs independent tasks side by side and returns their results in order: trino-plugin-toolkit's
 * {@code processWithAdditionalThreads} (the calling thread works too, so a saturated executor cannot starve it; on the
 * first failure the others are cancelled), with the task's own exception rethrown as it was (an {@link IOException} as
 * an {@link UncheckedIOException}).
 */
public final class ParallelTasks
{
    private ParallelTasks() {}

    public static <T> List<T> runAll(Collection<Callable<T>> tasks, Executor executor)
    {
        try {
            return processWithAdditionalThreads(tasks, executor);
        }
        catch (ExecutionException e) {
            throwIfUnchecked(e.getCause());
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new RuntimeException(e.getCause());
        }
    }
}
