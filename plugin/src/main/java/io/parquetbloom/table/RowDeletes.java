package io.parquetbloom.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Rows of a data file that a table format says are deleted, and where to read which: an Iceberg position delete file
 * (Parquet rows of {@code file_path} and {@code pos}, possibly for many data files), an Iceberg deletion vector (a
 * bitmap of positions at {@code offset} in a Puffin file), or a Delta Lake deletion vector (a RoaringBitmapArray of
 * {@code length} bytes, framed by its size and checksum at {@code offset} of its file, or inline in the log, when
 * {@code path} holds its Base85 text). Positions are absolute in the data file.
 *
 * @param fileSize the size of the file at {@code path}; for a Delta Lake vector (whose log does not say) the least it
 * can be, its vector's end
 * @param cardinality the rows it deletes as its table format records them (of every data file, for a position file)
 */
public record RowDeletes(Kind kind, String path, long fileSize, long offset, long length, long cardinality)
{
    public enum Kind
    {
        POSITION_FILE,
        DELETION_VECTOR,
        DELTA_DELETION_VECTOR,
        DELTA_INLINE_DELETION_VECTOR,
    }

    public RowDeletes
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(path, "path is null");
        checkArgument(fileSize >= 0 && offset >= 0 && length >= 0 && cardinality >= 0, "negative size, offset, length or cardinality");
    }
}
