package io.parquetbloom.connector;

import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import static java.util.Objects.requireNonNull;

/**
 * @param constraint everything the engine told us about the rows it wants; kept whole (IN lists of any size) for
 * partition, statistics and bloom filter pruning, and never claimed as enforced
 */
public record ParquetBloomTableHandle(String schemaName, String tableName, TupleDomain<ParquetBloomColumnHandle> constraint)
        implements ConnectorTableHandle
{
    public ParquetBloomTableHandle
    {
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(constraint, "constraint is null");
    }

    public SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }

    @Override
    public String toString()
    {
        return schemaName + "." + tableName;
    }
}
