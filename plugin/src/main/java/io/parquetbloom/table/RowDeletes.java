package io.parquetbloom.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Rows of a data file that a table format says are deleted, and where to read which: a position delete file (Parquet
 * rows of {@code file_path} and {@code pos}, possibly for many data files) or a deletion vector (a bitmap of
 * positions at {@code offset} in a Puffin file). Positions are absolute in the data file.
 *
 * @param cardinality the rows it deletes as its table format records them (of every data file, for a position file)
 */
public record RowDeletes(Kind kind, String path, long fileSize, long offset, long length, long cardinality)
{
    public enum Kind
    {
        POSITION_FILE,
        DELETION_VECTOR,
    }

    public RowDeletes
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(path, "path is null");
        checkArgument(fileSize >= 0 && offset >= 0 && length >= 0 && cardinality >= 0, "negative size, offset, length or cardinality");
    }
}
