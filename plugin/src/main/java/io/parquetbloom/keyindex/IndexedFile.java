package io.parquetbloom.keyindex;

import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.table.LakeFile;

import java.util.Arrays;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * One data file in an index segment's file directory: the object version it was read at (a listed file is covered
 * only when path, size and ETag all equal these) and its row groups' row counts and compressed sizes, from which
 * planning makes splits without reading the file's footer.
 *
 * @param path the object key relative to the table's folder
 * @param indexed whether the file's keys are in the segment; a file whose values could not all be hashed is listed
 * with {@code false}, keeps its row-group ordinals, and is never covered
 */
public record IndexedFile(String path, long size, String etag, boolean indexed, long[] rowCounts, long[] compressedSizes)
{
    private static final int INSTANCE_SIZE = instanceSize(IndexedFile.class);

    public IndexedFile
    {
        requireNonNull(path, "path is null");
        requireNonNull(etag, "etag is null");
        requireNonNull(rowCounts, "rowCounts is null");
        requireNonNull(compressedSizes, "compressedSizes is null");
        if (rowCounts.length != compressedSizes.length) {
            throw new IllegalArgumentException("row counts and compressed sizes differ in length");
        }
        rowCounts = rowCounts.clone();
        compressedSizes = compressedSizes.clone();
    }

    /**
     * Whether this records the listed {@code file} at the version listed: same path, size and ETag (a file listed
     * without an ETag is never the same version).
     */
    public boolean isVersionOf(LakeFile file)
    {
        S3ObjectInfo object = file.object();
        return file.relativePath().equals(path) && object.hasEtag() && object.size() == size && object.etag().equals(etag);
    }

    public int rowGroups()
    {
        return rowCounts.length;
    }

    public long compressedSize(int rowGroup)
    {
        return compressedSizes[rowGroup];
    }

    public long rows()
    {
        return Arrays.stream(rowCounts).sum();
    }

    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + estimatedSizeOf(path) + estimatedSizeOf(etag) + sizeOf(rowCounts) + sizeOf(compressedSizes);
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof IndexedFile other
                && path.equals(other.path)
                && size == other.size
                && etag.equals(other.etag)
                && indexed == other.indexed
                && Arrays.equals(rowCounts, other.rowCounts)
                && Arrays.equals(compressedSizes, other.compressedSizes);
    }

    @Override
    public int hashCode()
    {
        return path.hashCode() * 31 + etag.hashCode();
    }

    @Override
    public String toString()
    {
        return "IndexedFile[%s, %d bytes, %s, %d row groups%s]".formatted(path, size, etag, rowCounts.length, indexed ? "" : ", not indexed");
    }
}
