package io.parquetbloom.iceberg;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static java.util.Objects.requireNonNull;

/**
 * Iceberg's file access over this connector's S3 client, for one query: its retries, credentials, SSE settings and
 * request statistics. Read-only: this connector never writes an Iceberg table. The files Iceberg reads through it
 * (metadata, manifest lists, manifests) are immutable by path, so their bytes are shared between queries
 * ({@link IcebergFileCache}).
 */
final class S3FileIo
        implements FileIO
{
    // an Iceberg metadata or manifest file larger than this is refused, not held: metadata of tables with very long
    // histories reaches tens of megabytes, manifests a few
    static final int MAX_FILE_BYTES = 512 << 20;

    private final transient S3ObjectStore store;
    private final transient IcebergFileCache cache;
    private final transient S3RequestStats stats;

    S3FileIo(S3ObjectStore store, IcebergFileCache cache, S3RequestStats stats)
    {
        this.store = requireNonNull(store, "store is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.stats = requireNonNull(stats, "stats is null");
    }

    @Override
    public InputFile newInputFile(String path)
    {
        return new S3InputFile(this, path);
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        throw new UnsupportedOperationException("This connector never writes Iceberg tables: " + path);
    }

    @Override
    public void deleteFile(String path)
    {
        throw new UnsupportedOperationException("This connector never writes Iceberg tables: " + path);
    }

    /**
     * The whole file at {@code path}, from the cache or read now; empty where there is no such object.
     */
    Optional<byte[]> read(String path)
    {
        return cache.get(path, () -> store.readWhole(location(path), MAX_FILE_BYTES, "too large for an Iceberg metadata or manifest file this connector reads", stats)
                .map(S3ObjectStore.StoredObject::bytes));
    }

    static S3Location location(String path)
    {
        String normalized = path.startsWith("s3n://") ? "s3://" + path.substring("s3n://".length()) : path;
        try {
            return S3Location.parse(normalized);
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg file %s is not in S3 (s3://, s3a:// or s3n://); this connector reads S3 only".formatted(path), e);
        }
    }
}
