package io.parquetbloom.connector.parquet;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.Math.toIntExact;

/**
 * Ranges of a file fetched ahead of its readers, by offset; a read is served when one range holds all of it.
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
     * Keeps of this file's ranges what {@code other} needs: the parts of its ranges that lie inside {@code [offset,
     * offset + length)}.
     */
    public void copyTo(HeldRanges other, long offset, long length)
    {
        slice(offset, toIntExact(length)).ifPresent(data -> other.add(offset, data));
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
