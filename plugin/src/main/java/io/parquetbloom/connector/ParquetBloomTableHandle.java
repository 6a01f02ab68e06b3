package io.parquetbloom.connector;

import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * @param constraint everything the engine told us about the rows it wants; kept whole (IN lists of any size) for
 * partition, statistics and bloom filter pruning, and never claimed as enforced
 * @param limit a LIMIT directly above the scan (no filter between): each split returns at most this many rows, and
 * reads no row group beyond those that hold them
 * @param keyIndexBuild the key index build ({@code ALTER TABLE ... EXECUTE create_key_index}) this scan reads for:
 * its splits read and hash the files the build chose, and return no rows
 */
public record ParquetBloomTableHandle(String schemaName, String tableName, TupleDomain<ParquetBloomColumnHandle> constraint, OptionalLong limit, OptionalLong snapshotId, Optional<String> keyIndexBuild)
        implements ConnectorTableHandle
{
    public ParquetBloomTableHandle
    {
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(constraint, "constraint is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(keyIndexBuild, "keyIndexBuild is null");
    }

    public ParquetBloomTableHandle(String schemaName, String tableName, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        this(schemaName, tableName, constraint, OptionalLong.empty(), OptionalLong.empty(), Optional.empty());
    }

    /**
     * The table as of a table format's snapshot ({@code FOR VERSION AS OF}, {@code FOR TIMESTAMP AS OF}).
     */
    public ParquetBloomTableHandle withSnapshot(long snapshotId)
    {
        return new ParquetBloomTableHandle(schemaName, tableName, constraint, limit, OptionalLong.of(snapshotId), keyIndexBuild);
    }

    public ParquetBloomTableHandle withLimit(long limit)
    {
        return new ParquetBloomTableHandle(schemaName, tableName, constraint, OptionalLong.of(limit), snapshotId, keyIndexBuild);
    }

    public ParquetBloomTableHandle withConstraint(TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        return new ParquetBloomTableHandle(schemaName, tableName, constraint, limit, snapshotId, keyIndexBuild);
    }

    public ParquetBloomTableHandle withKeyIndexBuild(String buildId)
    {
        return new ParquetBloomTableHandle(schemaName, tableName, constraint, limit, snapshotId, Optional.of(buildId));
    }

    public SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }

    @Override
    public String toString()
    {
        return schemaName + "." + tableName + (snapshotId.isPresent() ? "@" + snapshotId.getAsLong() : "");
    }
}
