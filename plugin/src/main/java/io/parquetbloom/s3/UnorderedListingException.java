package io.parquetbloom.s3;

import io.trino.spi.TrinoException;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;

/**
 * A listing whose keys did not arrive strictly increasing in S3's order (UTF-8 bytes): listing by key ranges with
 * {@code start-after} and an early stop would miss or repeat objects there, so callers list such a store serially.
 * S3 general-purpose buckets always sort; S3 Express One Zone directory buckets and some S3-compatible stores do not.
 */
public final class UnorderedListingException
        extends TrinoException
{
    public UnorderedListingException(S3Location folder, String previousKey, String key)
    {
        super(PARQUET_BLOOM_S3_ERROR, "Listing %s in bucket %s returned key '%s' after '%s': the store does not list keys in order (as S3 Express One Zone directory buckets do not)".formatted(
                folder, folder.bucket(), key, previousKey));
    }
}
