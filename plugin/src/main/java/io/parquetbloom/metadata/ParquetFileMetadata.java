package io.parquetbloom.metadata;

import com.google.common.base.Suppliers;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A file's parsed footer plus the raw tail bytes it came from: writers such as Trino place the bloom filters right
 * before the footer, so they are often already in the tail and cost no further GET.
 *
 * @param tailStart file offset of {@code tail[0]}
 */
public record ParquetFileMetadata(S3ObjectInfo object, ParquetMetadata metadata, long tailStart, byte[] tail, Supplier<List<BlockMetadata>> blocksSupplier)
{
    public ParquetFileMetadata
    {
        requireNonNull(object, "object is null");
        requireNonNull(metadata, "metadata is null");
        requireNonNull(tail, "tail is null");
        requireNonNull(blocksSupplier, "blocksSupplier is null");
    }

    public ParquetFileMetadata(S3ObjectInfo object, ParquetMetadata metadata, long tailStart, byte[] tail)
    {
        this(object, metadata, tailStart, tail, Suppliers.memoize(() -> {
            try {
                return List.copyOf(metadata.getBlocks());
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
    }

    /**
     * The row groups, parsed from the footer once per cached file rather than once per query (trino-parquet parses
     * them on every call).
     */
    public List<BlockMetadata> blocks()
            throws IOException
    {
        try {
            return blocksSupplier.get();
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * File offset where the Thrift footer starts.
     */
    public long footerStart()
    {
        return object.size() - 8 - footerLength();
    }

    /**
     * Length of the Thrift footer (without the trailing length and magic).
     */
    public int footerLength()
    {
        int n = tail.length;
        return (tail[n - 8] & 0xFF) | (tail[n - 7] & 0xFF) << 8 | (tail[n - 6] & 0xFF) << 16 | (tail[n - 5] & 0xFF) << 24;
    }

    /**
     * True when {@code [offset, offset + length)} lies in the bytes already read.
     */
    public boolean tailContains(long offset, long length)
    {
        return offset >= tailStart && offset + length <= tailStart + tail.length;
    }
}
