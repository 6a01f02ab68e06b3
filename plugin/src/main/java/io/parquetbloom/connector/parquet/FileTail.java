package io.parquetbloom.connector.parquet;

import java.util.Arrays;
import java.util.Optional;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The bytes at the end of a file that its footer read brought, from {@code start} on: for a small file read whole in
 * one GET, its data chunks too, which the reader then takes from here instead of fetching them again.
 */
public record FileTail(long start, byte[] bytes)
        implements HeldBytes
{
    public static final FileTail NONE = new FileTail(0, new byte[0]);

    public FileTail
    {
        requireNonNull(bytes, "bytes is null");
    }

    @Override
    public boolean contains(long offset, long length)
    {
        return bytes.length > 0 && length > 0 && offset >= start && offset + length <= start + bytes.length;
    }

    @Override
    public Optional<byte[]> slice(long offset, int length)
    {
        if (!contains(offset, length)) {
            return Optional.empty();
        }
        int from = toIntExact(offset - start);
        return Optional.of(Arrays.copyOfRange(bytes, from, from + length));
    }
}
