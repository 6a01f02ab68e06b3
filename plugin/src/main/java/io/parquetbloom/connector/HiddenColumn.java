package io.parquetbloom.connector;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.type.Type;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The hidden columns of every table, as Trino's Hive and Iceberg connectors have them: which file a row came from.
 * Their values are one per file, from its listing (or its table format's manifest), handed to the reader with the
 * partition values; a predicate on them prunes files before any footer is read, as a partition predicate does.
 */
public enum HiddenColumn
{
    PATH("$path", VARCHAR),
    FILE_SIZE("$file_size", BIGINT),
    /**
     * The object's last modification, as listed; for a table format's file, the commit of the snapshot that added it
     * (its manifest says when without a request per file).
     */
    FILE_MODIFIED_TIME("$file_modified_time", TIMESTAMP_TZ_MILLIS),
    /**
     * The file's partition as a path ({@code day=2026-01-01/region=eu}): its partition folders, or its table format's
     * partition; NULL for a file of an unpartitioned table.
     */
    PARTITION("$partition", VARCHAR);

    private final String columnName;
    private final Type type;

    HiddenColumn(String columnName, Type type)
    {
        this.columnName = columnName;
        this.type = type;
    }

    public String columnName()
    {
        return columnName;
    }

    public ParquetBloomColumnHandle handle()
    {
        return new ParquetBloomColumnHandle(columnName, type, false, OptionalInt.empty(), Optional.empty(), true);
    }

    public static Optional<HiddenColumn> of(String name)
    {
        return Arrays.stream(values()).filter(column -> column.columnName.equals(name)).findFirst();
    }

    /**
     * The file with its hidden columns' values among its partition values (raw, as {@code PartitionValues} parses
     * them: the time in epoch milliseconds).
     *
     * @param partitionColumns how many partition folders lead to a folder table's files
     */
    public static LakeFile withValues(LakeFile file, int partitionColumns)
    {
        Map<String, Optional<String>> values = new LinkedHashMap<>(file.partitionValues());
        values.put(PATH.columnName, Optional.of(file.object().location().toString()));
        values.put(FILE_SIZE.columnName, Optional.of(Long.toString(file.object().size())));
        values.put(FILE_MODIFIED_TIME.columnName, Optional.of(Long.toString(file.lastModified().toEpochMilli())));
        if (!file.partitionValues().containsKey(LakeFile.PARTITION_PATH)) {
            values.put(PARTITION.columnName, partitionFolders(file.relativePath(), partitionColumns));
        }
        return new LakeFile(file.object(), file.relativePath(), ImmutableMap.copyOf(values), file.lastModified(), file.deletes());
    }

    private static Optional<String> partitionFolders(String relativePath, int partitionColumns)
    {
        if (partitionColumns == 0) {
            return Optional.empty();
        }
        int end = -1;
        for (int i = 0; i < partitionColumns; i++) {
            end = relativePath.indexOf('/', end + 1);
            if (end < 0) {
                return Optional.empty();
            }
        }
        return Optional.of(relativePath.substring(0, end));
    }
}
