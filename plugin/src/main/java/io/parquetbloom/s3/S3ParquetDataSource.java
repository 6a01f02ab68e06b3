package io.parquetbloom.s3;

import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import static java.util.Objects.requireNonNull;

/**
 * trino-parquet's view of one version of an S3 object: every read is one ranged GET pinned to the listed ETag, counted in the page source's stats.
 */
public class S3ParquetDataSource
        extends AbstractParquetDataSource
{
    private final S3ObjectStore store;
    private final S3ObjectInfo object;
    private final S3RequestStats stats;

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options)
    {
        super(new ParquetDataSourceId(object.location().toString()), object.size(), options);
        this.store = requireNonNull(store, "store is null");
        this.object = requireNonNull(object, "object is null");
        this.stats = requireNonNull(stats, "stats is null");
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
    {
        byte[] bytes = store.read(object, position, bufferLength, stats);
        System.arraycopy(bytes, 0, buffer, bufferOffset, bufferLength);
    }
}
