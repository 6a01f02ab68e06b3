package io.parquetbloom.s3;

import static java.util.Objects.requireNonNull;

/**
 * An object as listed: its size and ETag identify the version read, so caches never serve a rewritten object and
 * every GET is conditional on that ETag. An empty ETag means the listing gave none: such an object is read
 * unconditionally and nothing about it is cached.
 */
public record S3ObjectInfo(S3Location location, long size, String etag)
{
    public S3ObjectInfo
    {
        requireNonNull(location, "location is null");
        requireNonNull(etag, "etag is null");
    }

    public boolean hasEtag()
    {
        return !etag.isEmpty();
    }
}
