package io.parquetbloom.keyindex;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.PriorityQueue;

import static java.util.Objects.requireNonNull;

/**
 * Sorts a build's packed entries in bounded memory: entries gather in one array (grown up to {@code memoryBytes}); a
 * full array is sorted, made distinct and spilled to a run file in {@code spillDirectory}; the sorted output merges
 * the runs. Memory stays at the array plus one small buffer per run, whatever the number of entries.
 */
public final class EntrySorter
        implements Closeable
{
    private static final int RUN_BUFFER_BYTES = 64 * 1024;

    private static final int INITIAL_ENTRIES = 64 * 1024;

    private final Path spillDirectory;
    private final int maxEntries;
    private final List<Path> runs = new ArrayList<>();
    private final List<DataInputStream> openRuns = new ArrayList<>();
    private long[] buffer;
    private int size;
    private long spilledBytes;
    private boolean closed;

    public EntrySorter(long memoryBytes, Path spillDirectory)
    {
        this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
        this.maxEntries = (int) Math.max(1024, Math.min(Integer.MAX_VALUE - 16, memoryBytes / Long.BYTES));
        // grown as entries come, so a small build does not take the whole budget
        this.buffer = new long[Math.min(INITIAL_ENTRIES, maxEntries)];
    }

    public synchronized void add(long[] entries, int count)
            throws IOException
    {
        if (closed) {
            // a hashing task still running after the build failed and closed the sorter: its entries go nowhere
            throw new IOException("the key index build's sorter is closed");
        }
        int offset = 0;
        while (offset < count) {
            if (size == buffer.length && buffer.length < maxEntries) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(maxEntries, buffer.length * 2L));
            }
            int length = Math.min(count - offset, buffer.length - size);
            System.arraycopy(entries, offset, buffer, size, length);
            size += length;
            offset += length;
            if (size == maxEntries) {
                spill();
            }
        }
    }

    public Path spillDirectory()
    {
        return spillDirectory;
    }

    public synchronized long spilledBytes()
    {
        return spilledBytes;
    }

    public synchronized int runs()
    {
        return runs.size();
    }

    /**
     * Every entry added, ascending and distinct. Call once, after the last {@link #add}.
     */
    public synchronized PrimitiveIterator.OfLong sorted()
            throws IOException
    {
        if (runs.isEmpty()) {
            int distinct = sortDistinct();
            long[] sorted = buffer;
            return Arrays.stream(sorted, 0, distinct).iterator();
        }
        if (size > 0) {
            spill();
        }
        buffer = new long[0];
        PriorityQueue<RunCursor> queue = new PriorityQueue<>();
        for (Path run : runs) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), RUN_BUFFER_BYTES));
            openRuns.add(in);
            RunCursor cursor = new RunCursor(in);
            if (cursor.advance()) {
                queue.add(cursor);
            }
        }
        return new MergingIterator(queue);
    }

    private int sortDistinct()
    {
        Arrays.sort(buffer, 0, size);
        int distinct = 0;
        for (int i = 0; i < size; i++) {
            if (distinct == 0 || buffer[i] != buffer[distinct - 1]) {
                buffer[distinct++] = buffer[i];
            }
        }
        return distinct;
    }

    private void spill()
            throws IOException
    {
        int distinct = sortDistinct();
        Path run = Files.createTempFile(spillDirectory, "key-index-run-", ".bin");
        runs.add(run);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), RUN_BUFFER_BYTES))) {
            for (int i = 0; i < distinct; i++) {
                out.writeLong(buffer[i]);
            }
        }
        spilledBytes += (long) distinct * Long.BYTES;
        size = 0;
    }

    @Override
    public synchronized void close()
            throws IOException
    {
        for (DataInputStream in : openRuns) {
            in.close();
        }
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
        runs.clear();
        buffer = new long[0];
        size = 0;
        closed = true;
    }

    private static final class RunCursor
            implements Comparable<RunCursor>
    {
        private final DataInputStream in;
        private long current;

        RunCursor(DataInputStream in)
        {
            this.in = in;
        }

        boolean advance()
        {
            try {
                current = in.readLong();
                return true;
            }
            catch (EOFException e) {
                return false;
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public int compareTo(RunCursor other)
        {
            return Long.compare(current, other.current);
        }
    }

    private static final class MergingIterator
            implements PrimitiveIterator.OfLong
    {
        private final PriorityQueue<RunCursor> queue;
        private boolean started;
        private long last;

        MergingIterator(PriorityQueue<RunCursor> queue)
        {
            this.queue = queue;
        }

        @Override
        public boolean hasNext()
        {
            // runs are each distinct, but the same entry may be in several
            while (!queue.isEmpty() && started && queue.peek().current == last) {
                pop();
            }
            return !queue.isEmpty();
        }

        @Override
        public long nextLong()
        {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            last = pop();
            started = true;
            return last;
        }

        private long pop()
        {
            RunCursor cursor = queue.poll();
            long value = cursor.current;
            if (cursor.advance()) {
                queue.add(cursor);
            }
            return value;
        }
    }
}
