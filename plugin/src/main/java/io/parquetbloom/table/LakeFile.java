package io.parquetbloom.table;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.s3.S3ObjectInfo;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A data file of a table as its listing found it: the object, its key relative to the table's folder (how key index
 * directories record it), the raw values of its {@code key=value} partition folders by partition column name in
 * table order (empty for {@code __HIVE_DEFAULT_PARTITION__}), when it was written, and the rows a table format deleted
 * from it.
 */
public record LakeFile(S3ObjectInfo object, String relativePath, Map<String, Optional<String>> partitionValues, Instant lastModified, List<RowDeletes> deletes)
{
    /**
     * Newest last: by the time the object was written, then by key, so that files written in the same second (S3
     * keeps seconds) still order the way writers name them (a sequence number or a timestamp).
     */
    /**
     * Where a table format's reading puts a file's partition as a path ({@code day=2026-01-01/region=eu}) among its
     * partition values, for the {@code $partition} hidden column: a name no column of a table has.
     */
    public static final String PARTITION_PATH = "$partition";

    public static final Comparator<LakeFile> WRITE_ORDER = Comparator.comparing(LakeFile::lastModified)
            .thenComparing(file -> file.object().location().key());

    public LakeFile
    {
        requireNonNull(object, "object is null");
        requireNonNull(relativePath, "relativePath is null");
        // ImmutableMap keeps the table's order of partition columns
        partitionValues = ImmutableMap.copyOf(requireNonNull(partitionValues, "partitionValues is null"));
        requireNonNull(lastModified, "lastModified is null");
        deletes = List.copyOf(deletes);
    }

    /**
     * A file whose every row is live: a folder table's.
     */
    public LakeFile(S3ObjectInfo object, String relativePath, Map<String, Optional<String>> partitionValues, Instant lastModified)
    {
        this(object, relativePath, partitionValues, lastModified, List.of());
    }

    /**
     * The file's value of a partition column: empty for a NULL partition or a column the table does not have.
     */
    public Optional<String> partitionValue(String column)
    {
        return partitionValues.getOrDefault(column, Optional.empty());
    }
}
