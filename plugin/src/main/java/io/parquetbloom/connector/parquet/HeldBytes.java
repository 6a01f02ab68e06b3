package io.parquetbloom.connector.parquet;

import java.util.Optional;

/**
 * Bytes of the file already in memory (the tail a footer read brought, the pages a probe fetched): a read inside them
 * costs no GET.
 */
public interface HeldBytes
{
    boolean contains(long offset, long length);

    /**
     * A copy of {@code [offset, offset + length)} where it is held: the reader's buffers are released and re-used on
     * their own schedule, so they never share the held array.
     */
    Optional<byte[]> slice(long offset, int length);
}
