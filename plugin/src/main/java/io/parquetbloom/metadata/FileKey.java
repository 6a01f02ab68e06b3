package io.parquetbloom.metadata;

import io.parquetbloom.s3.S3ObjectInfo;

import static java.util.Objects.requireNonNull;

/**
 * Identifies one version of an object: a rewritten object has another size or ETag, so cached metadata of the old
 * version is never served for it.
 */
public record FileKey(String location, long size, String etag)
{
    public FileKey
    {
        requireNonNull(location, "location is null");
        requireNonNull(etag, "etag is null");
    }

    /**
     * Whether anything may be cached under this key: without an ETag a same-size rewrite would look the same.
     */
    public boolean cacheable()
    {
        return !etag.isEmpty();
    }

    public static FileKey of(S3ObjectInfo object)
    {
        return new FileKey(object.location().toString(), object.size(), object.etag());
    }
}
