package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A table as found in the lake: its prefix, its data files and the partition columns their folders define.
 *
 * @param keyIndexPointers the key index pointers the same listing found, by column: an index is used only as of
 * the version listed with the files
 * @param keyIndexHome the prefix whose {@code _key_index/} folder holds the table's key indexes: its own location, or
 * its place under {@code key-index.location}
 * @param ignoredKeyIndexObjects objects under {@code _key_index/} that name no column this connector could have
 * written (a folder name that is not URL-encoded): skipped, never a failure of the table
 */
public record LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns, Map<String, S3ObjectInfo> keyIndexPointers, S3Location keyIndexHome, int ignoredKeyIndexObjects)
{
    public LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns)
    {
        this(name, location, files, partitionColumns, Map.of(), location, 0);
    }

    public LakeTable
    {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        partitionColumns = List.copyOf(requireNonNull(partitionColumns, "partitionColumns is null"));
        keyIndexPointers = Map.copyOf(requireNonNull(keyIndexPointers, "keyIndexPointers is null"));
        requireNonNull(keyIndexHome, "keyIndexHome is null");
    }

    /**
     * The file written last ({@link LakeFile#WRITE_ORDER}): a writer that evolves the schema writes its newest
     * columns there, so the table's columns follow it.
     */
    public Optional<LakeFile> newestFile()
    {
        return files.stream().max(LakeFile.WRITE_ORDER);
    }
}
