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
 * @param keyPages per row group, the key column's data pages the entries tell apart (its offset index's pages), or 1
 * where they name the row group only (no usable offset index, an index of format version 1)
 */
public record IndexedFile(String path, long size, String etag, boolean indexed, long[] rowCounts, long[] compressedSizes, int[] keyPages)
{
    private static final int INSTANCE_SIZE = instanceSize(IndexedFile.class);

    public IndexedFile
    {
        requireNonNull(path, "path is null");
        requireNonNull(etag, "etag is null");
        requireNonNull(rowCounts, "rowCounts is null");
        requireNonNull(compressedSizes, "compressedSizes is null");
        requireNonNull(keyPages, "keyPages is null");
        if (rowCounts.length != compressedSizes.length || rowCounts.length != keyPages.length) {
            throw new IllegalArgumentException("row counts, compressed sizes and key pages differ in length");
        }
        if (Arrays.stream(keyPages).anyMatch(pages -> pages < 1)) {
            throw new IllegalArgumentException("a row group has fewer than one key page");
        }
        rowCounts = rowCounts.clone();
        compressedSizes = compressedSizes.clone();
        keyPages = keyPages.clone();
    }

    /**
     * A file whose entries name row groups only.
     */
    public IndexedFile(String path, long size, String etag, boolean indexed, long[] rowCounts, long[] compressedSizes)
    {
        this(path, size, etag, indexed, rowCounts, compressedSizes, wholeRowGroups(rowCounts.length));
    }

    private static int[] wholeRowGroups(int rowGroups)
    {
        int[] pages = new int[rowGroups];
        Arrays.fill(pages, 1);
        return pages;
    }

    /**
     * The ordinals an entry's low bits take for this file: one per key page of each row group.
     */
    public long slots()
    {
        long slots = 0;
        for (int pages : keyPages) {
            slots += pages;
        }
        return slots;
    }

    /**
     * The slot (from the file's first) of a row group's key page, or of the row group where its pages are not told apart.
     *
     * @param page the page's ordinal in the chunk, or -1 for the row group
     */
    public long slotOf(int rowGroup, int page)
    {
        long slot = 0;
        for (int i = 0; i < rowGroup; i++) {
            slot += keyPages[i];
        }
        return slot + Math.max(0, page);
    }

    public int keyPages(int rowGroup)
    {
        return keyPages[rowGroup];
    }
    /**
     * Whether this records the listed {@code file} at the version listed: same path, size and ETag (a file listed
     * without an ETag is never the same version; a table format's file, never rewritten at its path, is recorded with
     * {@link S3ObjectInfo#IMMUTABLE} and is the same version at the same path and size).
     */
    public boolean isVersionOf(LakeFile file)
    {
        S3ObjectInfo object = file.object();
        return file.relativePath().equals(path) && object.identifiesVersion() && object.size() == size && object.etag().equals(etag);
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
        return INSTANCE_SIZE + estimatedSizeOf(path) + estimatedSizeOf(etag) + sizeOf(rowCounts) + sizeOf(compressedSizes) + sizeOf(keyPages);
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
                && Arrays.equals(compressedSizes, other.compressedSizes)
                && Arrays.equals(keyPages, other.keyPages);
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
