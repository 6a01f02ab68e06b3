package io.parquetbloom.table;

import io.parquetbloom.table.TableSchemaReader.DataColumn;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The version of a table format's table that a {@link LakeTable} holds the live files of: the columns come from it,
 * not from the files' footers.
 *
 * @param metadataFile the format's metadata file read (Iceberg's {@code *.metadata.json})
 * @param snapshotId the snapshot pinned; empty for a table without one (no data yet)
 * @param committedAt when that snapshot was committed
 * @param columns the table's columns in that version, with the field ids that match them to files
 * @param properties what {@code "t$properties"} shows of the version
 * @param fileFilter what the format's metadata proves about the files, before their footers are read
 */
public record FormatSnapshot(TableFormat format, String metadataFile, OptionalLong snapshotId, Instant committedAt, List<DataColumn> columns, Map<String, String> properties, FileFilter fileFilter)
{
    public FormatSnapshot
    {
        requireNonNull(format, "format is null");
        requireNonNull(metadataFile, "metadataFile is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(committedAt, "committedAt is null");
        columns = List.copyOf(columns);
        properties = Map.copyOf(properties);
        requireNonNull(fileFilter, "fileFilter is null");
    }
}
