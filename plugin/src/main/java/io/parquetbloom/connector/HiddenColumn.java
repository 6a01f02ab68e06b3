package io.parquetbloom.connector;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
     */
    public static LakeFile withValues(LakeFile file)
    {
        Map<String, Optional<String>> values = new LinkedHashMap<>(file.partitionValues());
        values.put(PATH.columnName, Optional.of(file.object().location().toString()));
        values.put(FILE_SIZE.columnName, Optional.of(Long.toString(file.object().size())));
        values.put(FILE_MODIFIED_TIME.columnName, Optional.of(Long.toString(file.lastModified().toEpochMilli())));
        if (!file.partitionValues().containsKey(LakeFile.PARTITION_PATH)) {
            values.put(PARTITION.columnName, partitionFolders(file));
        }
        return new LakeFile(file.object(), file.relativePath(), ImmutableMap.copyOf(values), file.lastModified(), file.deletes());
    }

    /**
     * The {@code key=value} folders of the file's path that are the table's partitions, as the path spells them (plain
     * folders before or between them are not); empty for an unpartitioned table.
     */
    private static Optional<String> partitionFolders(LakeFile file)
    {
        if (file.partitionValues().isEmpty()) {
            return Optional.empty();
        }
        String[] segments = file.relativePath().split("/");
        List<String> partitions = new ArrayList<>();
        for (int i = 0; i < segments.length - 1; i++) {
            int equals = segments[i].indexOf('=');
            if (equals > 0 && file.partitionValues().containsKey(segments[i].substring(0, equals).toLowerCase(Locale.ROOT))) {
                partitions.add(segments[i]);
            }
        }
        return partitions.isEmpty() ? Optional.empty() : Optional.of(String.join("/", partitions));
    }
}
