package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * The catalog's view of the lake for one transaction: listings and table schemas are fetched once per transaction.
 * Read-only: every write operation keeps the SPI's "not supported" error.
 */
public class ParquetBloomMetadata
        implements ConnectorMetadata
{
    private final LakeTables lakeTables;
    private final TableSchemaReader schemaReader;
    private final Executor executor;
    private final Map<SchemaTableName, Optional<S3Location>> locations = new ConcurrentHashMap<>();
    private final Map<SchemaTableName, Optional<LakeTable>> tables = new ConcurrentHashMap<>();
    private final Map<SchemaTableName, List<ParquetBloomColumnHandle>> columns = new ConcurrentHashMap<>();
    private final S3RequestStats stats = new S3RequestStats();

    public ParquetBloomMetadata(LakeTables lakeTables, TableSchemaReader schemaReader, Executor executor)
    {
        this.executor = requireNonNull(executor, "executor is null");
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        return lakeTables.listSchemas(stats);
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schemaName)
    {
        return lakeTables.schemaExists(schemaName, stats);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent() || endVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "This connector does not support versioned tables");
        }
        // the folder is enough to know the table exists: its files are listed when a query needs them
        if (location(tableName).isEmpty()) {
            return null;
        }
        return new ParquetBloomTableHandle(tableName.getSchemaName(), tableName.getTableName(), TupleDomain.all());
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        SchemaTableName name = ((ParquetBloomTableHandle) tableHandle).schemaTableName();
        return new ConnectorTableMetadata(name, columnHandles(name).stream().map(ParquetBloomColumnHandle::toColumnMetadata).collect(ImmutableList.toImmutableList()));
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        List<String> schemas = schemaName.map(List::of).orElseGet(() -> lakeTables.listSchemas(stats));
        ImmutableList.Builder<SchemaTableName> names = ImmutableList.builder();
        for (String schema : schemas) {
            for (String table : lakeTables.listTables(schema, stats)) {
                names.add(new SchemaTableName(schema, table));
            }
        }
        return names.build();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        SchemaTableName name = ((ParquetBloomTableHandle) tableHandle).schemaTableName();
        ImmutableMap.Builder<String, ColumnHandle> handles = ImmutableMap.builder();
        for (ParquetBloomColumnHandle column : columnHandles(name)) {
            handles.put(column.name(), column);
        }
        return handles.buildOrThrow();
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        return ((ParquetBloomColumnHandle) columnHandle).toColumnMetadata();
    }

    @Override
    public Iterator<RelationColumnsMetadata> streamRelationColumns(ConnectorSession session, Optional<String> schemaName, UnaryOperator<Set<SchemaTableName>> relationFilter)
    {
        Set<SchemaTableName> names = relationFilter.apply(Set.copyOf(listTables(session, schemaName)));
        // each table needs its listing and its first footer (from the node's cache when warm): read side by side, at
        // most metadata.concurrency at a time
        List<CompletableFuture<Optional<RelationColumnsMetadata>>> tables = names.stream()
                .map(name -> CompletableFuture.supplyAsync(() -> relationColumns(name), executor))
                .toList();
        try {
            return tables.stream()
                    .map(CompletableFuture::join)
                    .flatMap(Optional::stream)
                    .toList()
                    .iterator();
        }
        catch (CompletionException e) {
            throwIfUnchecked(e.getCause());
            throw e;
        }
    }

    private Optional<RelationColumnsMetadata> relationColumns(SchemaTableName name)
    {
        try {
            List<ColumnMetadata> metadata = columnHandles(name).stream().map(ParquetBloomColumnHandle::toColumnMetadata).collect(ImmutableList.toImmutableList());
            return Optional.of(RelationColumnsMetadata.forTable(name, metadata));
        }
        catch (TrinoException e) {
            // a table without files or with an unreadable first footer has no columns to list; DESCRIBE reports why
            return Optional.empty();
        }
    }

    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session, ConnectorTableHandle handle, Constraint constraint)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) handle;
        TupleDomain<ParquetBloomColumnHandle> newConstraint = table.constraint().intersect(constraint.getSummary()
                .transformKeys(ParquetBloomColumnHandle.class::cast));
        if (newConstraint.equals(table.constraint())) {
            return Optional.empty();
        }
        // pruning uses the domains, but rows are still filtered by the engine: nothing is claimed as enforced
        return Optional.of(new ConstraintApplicationResult<>(
                new ParquetBloomTableHandle(table.schemaName(), table.tableName(), newConstraint),
                constraint.getSummary(),
                constraint.getExpression(),
                false));
    }

    /**
     * Listing and schema requests of this transaction, reported by the split source.
     */
    public S3RequestStats requestStats()
    {
        return stats;
    }

    public Optional<LakeTable> table(SchemaTableName name)
    {
        return tables.computeIfAbsent(name, key -> location(key).map(folder -> lakeTables.getTable(key, folder, stats)));
    }

    private Optional<S3Location> location(SchemaTableName name)
    {
        return locations.computeIfAbsent(name, key -> lakeTables.findTable(key, stats));
    }

    private List<ParquetBloomColumnHandle> columnHandles(SchemaTableName name)
    {
        return columns.computeIfAbsent(name, key -> {
            LakeTable table = table(key).orElseThrow(() -> new TrinoException(io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND, "Table %s not found".formatted(key)));
            ImmutableList.Builder<ParquetBloomColumnHandle> handles = ImmutableList.builder();
            for (TableSchemaReader.DataColumn column : schemaReader.readColumns(table, stats)) {
                handles.add(new ParquetBloomColumnHandle(column.name(), column.type(), false));
            }
            for (PartitionColumn partition : table.partitionColumns()) {
                handles.add(new ParquetBloomColumnHandle(partition.name(), partition.type(), true));
            }
            return handles.build();
        });
    }
}
