package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table as found in the lake: its prefix, its data files and the partition columns their folders define.
 */
public record LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns)
{
    public LakeTable
    {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        partitionColumns = List.copyOf(requireNonNull(partitionColumns, "partitionColumns is null"));
    }
}
