package io.parquetbloom.table;

import io.parquetbloom.s3.S3ObjectInfo;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A data file of a table and the raw values of its {@code key=value} partition folders, in table order
 * (empty for {@code __HIVE_DEFAULT_PARTITION__}).
 */
public record LakeFile(S3ObjectInfo object, List<Optional<String>> partitionValues)
{
    public LakeFile
    {
        requireNonNull(object, "object is null");
        partitionValues = List.copyOf(requireNonNull(partitionValues, "partitionValues is null"));
    }
}
