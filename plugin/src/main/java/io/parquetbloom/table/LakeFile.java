package io.parquetbloom.table;

import io.parquetbloom.s3.S3ObjectInfo;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A data file of a table, when it was written, and the raw values of its {@code key=value} partition folders, in
 * table order (empty for {@code __HIVE_DEFAULT_PARTITION__}).
 */
public record LakeFile(S3ObjectInfo object, List<Optional<String>> partitionValues, Instant lastModified)
{
    /**
     * Newest last: by the time the object was written, then by key, so that files written in the same second (S3
     * keeps seconds) still order the way writers name them (a sequence number or a timestamp).
     */
    public static final Comparator<LakeFile> WRITE_ORDER = Comparator.comparing(LakeFile::lastModified)
            .thenComparing(file -> file.object().location().key());

    public LakeFile(S3ObjectInfo object, List<Optional<String>> partitionValues)
    {
        this(object, partitionValues, Instant.EPOCH);
    }

    public LakeFile
    {
        requireNonNull(object, "object is null");
        partitionValues = List.copyOf(requireNonNull(partitionValues, "partitionValues is null"));
        requireNonNull(lastModified, "lastModified is null");
    }
}
