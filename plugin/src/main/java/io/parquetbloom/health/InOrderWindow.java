package io.parquetbloom.health;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static java.util.Objects.requireNonNull;

/**
 * Applies a function to inputs on an executor, at most {@code window} at a time, and hands the results out in input
 * order as they are asked for: the results held at once are bounded by the window, not by the number of inputs (a
 * table's files), and a consumer that stops early ({@link #close}) leaves no work queued behind it.
 */
public final class InOrderWindow<T, R>
        implements Iterator<R>, AutoCloseable
{
    private final Iterator<T> inputs;
    private final Function<T, R> work;
    private final Executor executor;
    private final int window;
    private final ArrayDeque<CompletableFuture<R>> inFlight = new ArrayDeque<>();
    private int maxInFlight;

    public InOrderWindow(List<T> inputs, Function<T, R> work, Executor executor, int window)
    {
        this.inputs = List.copyOf(inputs).iterator();
        this.work = requireNonNull(work, "work is null");
        this.executor = requireNonNull(executor, "executor is null");
        if (window < 1) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.window = window;
        fill();
    }

    @Override
    public boolean hasNext()
    {
        return !inFlight.isEmpty();
    }

    @Override
    public R next()
    {
        if (inFlight.isEmpty()) {
            throw new NoSuchElementException();
        }
        CompletableFuture<R> head = inFlight.getFirst();
        R result;
        try {
            result = head.get();
        }
        catch (InterruptedException e) {
            // the query was cancelled: stop waiting, start nothing more
            close();
            Thread.currentThread().interrupt();
            throw new RuntimeException("interrupted", e);
        }
        catch (ExecutionException e) {
            close();
            throwIfUnchecked(e.getCause());
            throw new RuntimeException(e.getCause());
        }
        inFlight.removeFirst();
        fill();
        return result;
    }

    /**
     * The most inputs that were being worked on or waiting to be handed out at one time.
     */
    public int maxInFlight()
    {
        return maxInFlight;
    }

    @Override
    public void close()
    {
        // work not yet started never starts; work under way finishes and is dropped
        inFlight.forEach(future -> future.cancel(false));
        inFlight.clear();
        while (inputs.hasNext()) {
            inputs.next();
        }
    }

    private void fill()
    {
        while (inFlight.size() < window && inputs.hasNext()) {
            T input = inputs.next();
            inFlight.addLast(CompletableFuture.supplyAsync(() -> work.apply(input), executor));
        }
        maxInFlight = Math.max(maxInFlight, inFlight.size());
    }
}
