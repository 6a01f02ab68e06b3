package io.parquetbloom.connector;

import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.TableHealth;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A {@code "<table>$..."} table computed on the coordinator (where the query-share window lives) from the table's
 * footers and filters, read through the coordinator's metadata cache when the table is queried.
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

    /**
     * Whether the rows need every chunk, or only the per-column summaries.
     */
    abstract boolean perChunk();

    abstract void addRows(TableHealth health, InMemoryRecordSet.Builder rows);

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

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        TableHealth health = scanner.scan(table.get(), executor, perChunk(), new ReadStats());
        InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(metadata);
        addRows(health, rows);
        return rows.build().cursor();
    }
}
