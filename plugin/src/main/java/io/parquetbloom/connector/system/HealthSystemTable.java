package io.parquetbloom.connector.system;

import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A {@code "<table>$..."} table computed on the coordinator (where the query-share window lives) from the table's
 * footers and filters, read through the coordinator's metadata cache when the table is queried: its metadata,
 * distribution and what its cursor reads from.
 */
abstract class HealthSystemTable
        implements SystemTable
{
    private final ConnectorTableMetadata metadata;
    private final Supplier<LakeTable> table;
    private final FilterHealthScanner scanner;
    private final Executor executor;

    HealthSystemTable(SchemaTableName name, List<ColumnMetadata> columns, Supplier<LakeTable> table, FilterHealthScanner scanner, Executor executor)
    {
        this.metadata = new ConnectorTableMetadata(requireNonNull(name, "name is null"), columns);
        this.table = requireNonNull(table, "table is null");
        this.scanner = requireNonNull(scanner, "scanner is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    Supplier<LakeTable> table()
    {
        return table;
    }

    FilterHealthScanner scanner()
    {
        return scanner;
    }

    Executor executor()
    {
        return executor;
    }

    @Override
    public Distribution getDistribution()
    {
        return Distribution.SINGLE_COORDINATOR;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata()
    {
        return metadata;
    }
}
