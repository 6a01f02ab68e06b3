package io.parquetbloom.delta;

import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A Delta Lake table as of one version of its log.
 *
 * @param files the live data files, each with its deletion vector
 * @param committedAt when that version was committed, where its commit said (a version read from a checkpoint alone
 * does not)
 */
public record DeltaSnapshot(long version, DeltaAction.Protocol protocol, DeltaAction.Metadata metadata, List<DeltaAction.Add> files, OptionalLong committedAt)
{
    public DeltaSnapshot
    {
        requireNonNull(protocol, "protocol is null");
        requireNonNull(metadata, "metadata is null");
        files = List.copyOf(files);
        requireNonNull(committedAt, "committedAt is null");
    }

    /**
     * The table's column mapping mode: {@code none}, {@code name} or {@code id}.
     */
    public String columnMappingMode()
    {
        return metadata.configuration().getOrDefault("delta.columnMapping.mode", "none");
    }
}
