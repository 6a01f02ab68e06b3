package io.parquetbloom.connector.procedure;

import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A key index table procedure on one table ({@code ALTER TABLE t EXECUTE create_key_index(column => 'c')}).
 *
 * @param column the column as the statement named it, lower case
 * @param buildId the coordinator's plan of a build, once begun ({@link io.parquetbloom.keyindex.KeyIndexBuildPlans})
 */
public record KeyIndexExecuteHandle(KeyIndexProcedure procedure, String schemaName, String tableName, String column, Optional<String> buildId)
        implements ConnectorTableExecuteHandle
{
    public KeyIndexExecuteHandle
    {
        requireNonNull(procedure, "procedure is null");
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(column, "column is null");
        requireNonNull(buildId, "buildId is null");
    }

    public SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }

    public KeyIndexExecuteHandle withBuildId(String id)
    {
        return new KeyIndexExecuteHandle(procedure, schemaName, tableName, column, Optional.of(id));
    }
}
