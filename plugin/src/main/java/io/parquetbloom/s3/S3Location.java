package io.parquetbloom.s3;

import static java.util.Objects.requireNonNull;

/**
 * A bucket and a key (or key prefix). Printed as {@code s3://bucket/key}, the form users see in errors.
 */
public record S3Location(String bucket, String key)
{
    public S3Location
    {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(key, "key is null");
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket is empty");
        }
    }

    /**
     * Parses {@code s3://bucket/key} (or {@code s3a://}).
     */
    public static S3Location parse(String location)
    {
        requireNonNull(location, "location is null");
        String rest;
        if (location.startsWith("s3://")) {
            rest = location.substring("s3://".length());
        }
        else if (location.startsWith("s3a://")) {
            rest = location.substring("s3a://".length());
        }
        else {
            throw new IllegalArgumentException("not an s3:// location: " + location);
        }
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return new S3Location(rest, "");
        }
        return new S3Location(rest.substring(0, slash), rest.substring(slash + 1));
    }

    /**
     * This location as a folder prefix: the key with a trailing slash (empty for the bucket root).
     */
    public S3Location asPrefix()
    {
        if (key.isEmpty() || key.endsWith("/")) {
            return this;
        }
        return new S3Location(bucket, key + "/");
    }

    public S3Location child(String name)
    {
        return new S3Location(bucket, asPrefix().key() + name);
    }

    @Override
    public String toString()
    {
        return "s3://" + bucket + "/" + key;
    }
}
