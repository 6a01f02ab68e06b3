package io.parquetbloom.metadata;

import io.parquetbloom.s3.S3RequestStats;

import static java.util.Objects.requireNonNull;

/**
 * What one reader (a page source, or the split source of one query) spent on metadata: S3 requests and cache use.
 */
public record ReadStats(S3RequestStats requests, MetadataCacheStats cache)
{
    public ReadStats
    {
        requireNonNull(requests, "requests is null");
        requireNonNull(cache, "cache is null");
    }

    public ReadStats()
    {
        this(new S3RequestStats(), new MetadataCacheStats());
    }
}
