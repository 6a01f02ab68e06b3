package io.parquetbloom.connector.functions.bloomprobe;

import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;

import static java.util.Objects.requireNonNull;

/**
 * A {@code bloom_probe} call as the coordinator checked it: the table, the column and the value as given.
 */
public record BloomProbeHandle(String schemaName, String tableName, ParquetBloomColumnHandle column, String value)
        implements ConnectorTableFunctionHandle
{
    public BloomProbeHandle
    {
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(column, "column is null");
        requireNonNull(value, "value is null");
    }

    public SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }
}
