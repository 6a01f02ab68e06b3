package io.parquetbloom.s3;

import static java.util.Objects.requireNonNull;

/**
 * An object as listed: its size and ETag identify the version read, so caches never serve a rewritten object and
 * every GET is conditional on that ETag. An empty ETag means the listing gave none: such an object is read
 * unconditionally and nothing about it is cached. {@link #IMMUTABLE} stands for the ETag of an object a table format
 * never rewrites at its path (Iceberg's data and delete files): read unconditionally, cached by path and size.
 */
public record S3ObjectInfo(S3Location location, long size, String etag)
{
    /**
     * Not an ETag S3 gives (those are quoted hex digits, a dash and a part count at most).
     */
    public static final String IMMUTABLE = "*immutable*";

    public S3ObjectInfo
    {
        requireNonNull(location, "location is null");
        requireNonNull(etag, "etag is null");
    }

    /**
     * An object never rewritten at its path, as its table format guarantees.
     */
    public static S3ObjectInfo immutable(S3Location location, long size)
    {
        return new S3ObjectInfo(location, size, IMMUTABLE);
    }

    /**
     * Whether reads are conditional on an ETag the listing gave.
     */
    public boolean hasEtag()
    {
        return !etag.isEmpty() && !etag.equals(IMMUTABLE);
    }

    /**
     * Whether the size and ETag (or the path alone, for an {@link #immutable} object) identify one version.
     */
    public boolean identifiesVersion()
    {
        return !etag.isEmpty();
    }
}
