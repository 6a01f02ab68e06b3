package io.parquetbloom.metadata;

import io.airlift.slice.Slices;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.Objects.requireNonNull;

/**
 * Reads a footer with one tail GET sized to usually hold it (a second GET only for larger footers), and keeps the
 * tail bytes for the bloom filters that writers put just before the footer.
 */
public final class FooterReader
{
    private static final byte[] MAGIC = "PAR1".getBytes(US_ASCII);
    private static final int POST_SCRIPT = 8;

    private FooterReader() {}

    public static ParquetFileMetadata readFooter(S3ObjectStore store, S3ObjectInfo object, int tailReadSize, S3RequestStats stats)
    {
        requireNonNull(object, "object is null");
        long size = object.size();
        if (size < MAGIC.length + POST_SCRIPT) {
            throw badData(object, "is not a Parquet file: %d bytes is too small".formatted(size));
        }
        int tailLength = (int) Math.min(size, Math.max(tailReadSize, POST_SCRIPT));
        long tailStart = size - tailLength;
        byte[] tail = store.read(object, tailStart, tailLength, stats);
        for (int i = 0; i < MAGIC.length; i++) {
            if (tail[tailLength - MAGIC.length + i] != MAGIC[i]) {
                throw badData(object, "is not a Parquet file (no PAR1 magic at its end; encrypted footers are not supported)");
            }
        }
        long footerLength = Integer.toUnsignedLong(Slices.wrappedBuffer(tail).getInt(tailLength - POST_SCRIPT));
        long complete = footerLength + POST_SCRIPT;
        if (complete > size - MAGIC.length) {
            throw badData(object, "has a corrupt footer: footer length %d exceeds the file size %d".formatted(footerLength, size));
        }
        if (complete > tailLength) {
            // the footer is larger than the first read: fetch the missing front part
            int missing = (int) (complete - tailLength);
            byte[] front = store.read(object, size - complete, missing, stats);
            byte[] joined = new byte[(int) complete];
            System.arraycopy(front, 0, joined, 0, missing);
            System.arraycopy(tail, 0, joined, missing, tailLength);
            tail = joined;
            tailStart = size - complete;
        }
        return parse(object, tailStart, tail);
    }

    /**
     * The footer of {@code object} from bytes ending at the end of the file (the footer, its length and magic, and
     * anything before them), parsed and checked as a tail read is.
     */
    public static ParquetFileMetadata parse(S3ObjectInfo object, long tailStart, byte[] tail)
    {
        ParquetFileMetadata file;
        try {
            ParquetMetadata metadata = MetadataReader.parseFooter(new ParquetDataSourceId(object.location().toString()), object.size(), Slices.wrappedBuffer(tail), Optional.empty(), Optional.empty());
            file = new ParquetFileMetadata(object, metadata, tailStart, tail);
            // parse the row groups now (once: the result is memoised), so corruption surfaces here with the file's name
            file.blocks();
        }
        catch (ParquetCorruptionException e) {
            throw badData(object, "has a corrupt footer: " + e.getMessage(), e);
        }
        catch (IOException | RuntimeException e) {
            throw badData(object, "has a corrupt footer: " + e, e);
        }
        return file;
    }

    private static TrinoException badData(S3ObjectInfo object, String message)
    {
        return new TrinoException(PARQUET_BLOOM_BAD_DATA, "Parquet file %s %s".formatted(object.location(), message));
    }

    private static TrinoException badData(S3ObjectInfo object, String message, Throwable cause)
    {
        return new TrinoException(PARQUET_BLOOM_BAD_DATA, "Parquet file %s %s".formatted(object.location(), message), cause);
    }
}
