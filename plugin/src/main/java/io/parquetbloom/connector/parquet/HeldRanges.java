package io.parquetbloom.connector.parquet;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.Math.toIntExact;

/**
 * Ranges of a file fetched ahead of its readers, by offset; a read is served when one range holds all of it. The
 * bytes held are reported to the reader's memory context by whoever holds them.
 */
public final class HeldRanges
        implements HeldBytes
{
    private final TreeMap<Long, byte[]> ranges = new TreeMap<>();
    private long bytes;

    public void add(long offset, byte[] data)
    {
        checkArgument(offset >= 0, "offset is negative");
        if (data.length > 0 && !contains(offset, data.length)) {
            ranges.put(offset, data);
            bytes += data.length;
        }
    }

    @Override
    public boolean contains(long offset, long length)
    {
        return holder(offset, length).isPresent();
    }

    @Override
    public Optional<byte[]> slice(long offset, int length)
    {
        return holder(offset, length).map(entry -> {
            int from = toIntExact(offset - entry.getKey());
            return Arrays.copyOfRange(entry.getValue(), from, from + length);
        });
    }

    /**
     * The bytes {@code [offset, offset + length)} where one range holds them all, not copied.
     */
    public Optional<Slice> view(long offset, int length)
    {
        return holder(offset, length).map(entry -> Slices.wrappedBuffer(entry.getValue(), toIntExact(offset - entry.getKey()), length));
    }

    /**
     * Keeps of this file's ranges what {@code other} needs: the parts of its ranges that lie inside {@code [offset,
     * offset + length)}.
     */
    public void copyTo(HeldRanges other, long offset, long length)
    {
        long end = offset + length;
        Long first = ranges.floorKey(offset);
        for (Map.Entry<Long, byte[]> entry : ranges.subMap(first == null ? offset : first, true, end, false).entrySet()) {
            // each range's part on its own: a range read in pieces stays in the same pieces
            long from = Math.max(offset, entry.getKey());
            long to = Math.min(end, entry.getKey() + entry.getValue().length);
            if (from < to) {
                other.add(from, Arrays.copyOfRange(entry.getValue(), toIntExact(from - entry.getKey()), toIntExact(to - entry.getKey())));
            }
        }
    }

    public long bytes()
    {
        return bytes;
    }

    private Optional<Map.Entry<Long, byte[]>> holder(long offset, long length)
    {
        if (length <= 0) {
            return Optional.empty();
        }
        Map.Entry<Long, byte[]> entry = ranges.floorEntry(offset);
        if (entry == null || offset + length > entry.getKey() + entry.getValue().length) {
            return Optional.empty();
        }
        return Optional.of(entry);
    }
}
