package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.airlift.slice.Slice;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.connector.procedure.KeyIndexExecuteHandle;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.parquetbloom.connector.system.MetadataTableName;
import io.parquetbloom.connector.system.MetadataTableProvider;
import io.parquetbloom.connector.system.MetadataTableRequest;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.FormatSnapshot;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.TableSchemaReader;
import io.parquetbloom.table.TableShape;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.BeginTableExecuteResult;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnNotFoundException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isSchemaUnionByName;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.lang.Math.toIntExact;
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
    private final Map<SchemaTableName, TableShape> shapes = new ConcurrentHashMap<>();
    // tables read as of a snapshot, with their columns then
    private final Map<VersionKey, LakeTable> versions = new ConcurrentHashMap<>();

    private record VersionKey(SchemaTableName name, long snapshotId) {}
    private final Map<PartitionListingKey, Optional<LakeTable>> partitionListings = new ConcurrentHashMap<>();
    private final S3RequestStats stats = new S3RequestStats();
    // when the transaction's current query was submitted (before Trino queued it): a listing begun since serves it
    private final AtomicReference<Instant> submittedAt = new AtomicReference<>();
    private final TableStatisticsReader statisticsReader;
    private final Map<String, MetadataTableProvider> metadataTables;
    private final KeyIndexTableProcedures keyIndexProcedures;
    // key index builds this transaction began and has not finished
    private final Set<String> keyIndexBuilds = ConcurrentHashMap.newKeySet();

    /**
     * @param executor the transaction's share of the catalog's metadata threads
     * @param metadataTables the kinds of {@code "<table>$<suffix>"} tables, by suffix
     */
    public ParquetBloomMetadata(LakeTables lakeTables, TableSchemaReader schemaReader, Executor executor, TableStatisticsReader statisticsReader, Map<String, MetadataTableProvider> metadataTables, KeyIndexTableProcedures keyIndexProcedures)
    {
        this.keyIndexProcedures = requireNonNull(keyIndexProcedures, "keyIndexProcedures is null");
        this.metadataTables = ImmutableMap.copyOf(requireNonNull(metadataTables, "metadataTables is null"));
        this.statisticsReader = requireNonNull(statisticsReader, "statisticsReader is null");
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
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, TrinoPrincipal owner)
    {
        if (!properties.isEmpty()) {
            throw new TrinoException(NOT_SUPPORTED, "This connector's schemas take no properties: %s".formatted(properties.keySet()));
        }
        lakeTables.createSchema(schemaName, stats);
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        if (cascade) {
            throw new TrinoException(NOT_SUPPORTED, "DROP SCHEMA ... CASCADE is not supported: unregister_table each table first");
        }
        lakeTables.dropSchema(schemaName, stats);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "This connector does not read changes between versions");
        }
        // the folder is enough to know the table exists: its files are listed when a query needs them
        if (MetadataTableName.isMetadataTableName(tableName) || location(tableName).isEmpty()) {
            return null;
        }
        ParquetBloomTableHandle handle = new ParquetBloomTableHandle(tableName.getSchemaName(), tableName.getTableName(), TupleDomain.all());
        return endVersion.map(version -> handle.withSnapshot(snapshotId(session, tableName, version))).orElse(handle);
    }

    /**
     * The snapshot a {@code FOR VERSION AS OF} (a snapshot id) or {@code FOR TIMESTAMP AS OF} names, of a table read
     * through its format's metadata; a folder table has no versions.
     */
    private long snapshotId(ConnectorSession session, SchemaTableName name, ConnectorTableVersion version)
    {
        LakeTable current = table(name).orElseThrow(() -> new TableNotFoundException(name, "Table %s not found".formatted(name)));
        FormatSnapshot snapshot = current.snapshot().orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "Table %s is a folder of files, which has no versions: FOR VERSION AS OF and FOR TIMESTAMP AS OF read Iceberg and Delta Lake tables".formatted(name)));
        S3Location location = location(name).orElseThrow();
        return switch (version.getPointerType()) {
            case TARGET_ID -> {
                if (!(version.getVersionType() instanceof BigintType) && !(version.getVersionType() instanceof IntegerType)) {
                    throw new TrinoException(NOT_SUPPORTED, "Table %s: FOR VERSION AS OF takes a snapshot id or a Delta Lake version (bigint), not %s (branches and tags are not read yet)".formatted(name, version.getVersionType()));
                }
                long id = (Long) version.getVersion();
                // checked now: a snapshot the metadata does not keep fails here, naming it
                lakeTables.getTableVersion(name, location, snapshot.format(), id, stats);
                yield id;
            }
            case TEMPORAL -> lakeTables.snapshotAsOf(name, location, snapshot.format(), instant(name, version), stats);
        };
    }

    private static Instant instant(SchemaTableName name, ConnectorTableVersion version)
    {
        Object value = version.getVersion();
        if (version.getVersionType() instanceof TimestampWithTimeZoneType type) {
            long millis = type.isShort() ? unpackMillisUtc((long) value) : ((LongTimestampWithTimeZone) value).getEpochMillis();
            return Instant.ofEpochMilli(millis);
        }
        throw new TrinoException(NOT_SUPPORTED, "Table %s: FOR TIMESTAMP AS OF takes a timestamp with time zone, not %s".formatted(name, version.getVersionType()));
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        SchemaTableName name = ((ParquetBloomTableHandle) tableHandle).schemaTableName();
        try {
            List<ParquetBloomColumnHandle> handles = columnHandles(session, (ParquetBloomTableHandle) tableHandle);
            LakeTable table = table((ParquetBloomTableHandle) tableHandle).orElseThrow(() -> new TableNotFoundException(name, "Table %s not found".formatted(name)));
            return statisticsReader.read(table, handles, executor, stats);
        }
        catch (RuntimeException e) {
            // statistics only steer the plan: a table they cannot be had for is planned without them
            return TableStatistics.empty();
        }
    }

    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        // asked before every table lookup: plain names answer without I/O
        if (!MetadataTableName.isMetadataTableName(tableName)) {
            return Optional.empty();
        }
        return MetadataTableName.parse(tableName)
                .filter(name -> metadataTables.containsKey(name.suffix()) && location(name.table()).isPresent())
                .map(name -> {
                    Supplier<LakeTable> table = () -> table(name.table()).orElseThrow(() -> new TableNotFoundException(name.table(), "Table %s not found".formatted(name.table())));
                    return metadataTables.get(name.suffix()).create(new MetadataTableRequest(session, tableName, name.table(), table, executor, stats));
                });
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        SchemaTableName name = ((ParquetBloomTableHandle) tableHandle).schemaTableName();
        List<ColumnMetadata> columns = withHiddenColumns(columnHandles(session, (ParquetBloomTableHandle) tableHandle)).stream().map(ParquetBloomColumnHandle::toColumnMetadata).collect(ImmutableList.toImmutableList());
        // SHOW CREATE TABLE prints where the table is, as Iceberg and Delta Lake print theirs
        Map<String, Object> properties = location(name).map(location -> Map.<String, Object>of(ParquetBloomTableProperties.LOCATION, location.toString())).orElse(Map.of());
        return new ConnectorTableMetadata(name, columns, properties);
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
        ImmutableMap.Builder<String, ColumnHandle> handles = ImmutableMap.builder();
        for (ParquetBloomColumnHandle column : withHiddenColumns(columnHandles(session, (ParquetBloomTableHandle) tableHandle))) {
            handles.put(column.name(), column);
        }
        return handles.buildOrThrow();
    }

    @Override
    public Optional<ConnectorTableExecuteHandle> getTableHandleForExecute(ConnectorSession session, ConnectorAccessControl accessControl, ConnectorTableHandle tableHandle, String procedureName, Map<String, Object> executeProperties, RetryMode retryMode)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) tableHandle;
        Optional<ConnectorTableExecuteHandle> handle = keyIndexProcedures.handleFor(table, procedureName, executeProperties, retryMode);
        // a key index procedure writes beside the table: as CALL create_key_index, it needs INSERT, asked of Trino's
        // access control and the catalog's
        accessControl.checkCanInsertIntoTable(null, table.schemaTableName());
        return handle;
    }

    /**
     * A key index build scans the key column only; its scan returns no rows.
     */
    @Override
    public Set<ColumnHandle> getColumnHandlesForTableExecute(ConnectorSession session, ConnectorTableHandle tableHandle, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        KeyIndexExecuteHandle handle = (KeyIndexExecuteHandle) tableExecuteHandle;
        ColumnHandle column = getColumnHandles(session, tableHandle).get(handle.column());
        if (column == null || ((ParquetBloomColumnHandle) column).hidden()) {
            throw new ColumnNotFoundException(handle.schemaTableName(), handle.column());
        }
        return Set.of(column);
    }

    @Override
    public BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> beginTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, ConnectorTableHandle updatedSourceTableHandle)
    {
        BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> begun = keyIndexProcedures.begin((KeyIndexExecuteHandle) tableExecuteHandle, (ParquetBloomTableHandle) updatedSourceTableHandle);
        ((KeyIndexExecuteHandle) begun.getTableExecuteHandle()).buildId().ifPresent(keyIndexBuilds::add);
        return begun;
    }

    @Override
    public Map<String, Long> finishTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Collection<Slice> fragments, List<Object> tableExecuteState)
    {
        KeyIndexExecuteHandle handle = (KeyIndexExecuteHandle) tableExecuteHandle;
        // from here on, publishing decides what becomes of the build's segments, not the transaction's end
        handle.buildId().ifPresent(keyIndexBuilds::remove);
        return keyIndexProcedures.finish(handle, tableExecuteState);
    }

    /**
     * The transaction ended: the key index builds it began and did not finish (rolled back, or only planned by an
     * {@code EXPLAIN}) leave no plan and no segment behind.
     */
    public void abandonUnfinishedBuilds()
    {
        keyIndexBuilds.forEach(keyIndexProcedures::abandon);
        keyIndexBuilds.clear();
    }

    @Override
    public Map<String, Long> executeTableExecute(ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle)
    {
        return keyIndexProcedures.execute((KeyIndexExecuteHandle) tableExecuteHandle);
    }

    /**
     * The table's columns and after them its hidden ones, but for a name a column of the table has already.
     */
    private static List<ParquetBloomColumnHandle> withHiddenColumns(List<ParquetBloomColumnHandle> columns)
    {
        Set<String> names = columns.stream().map(ParquetBloomColumnHandle::name).collect(toImmutableSet());
        ImmutableList.Builder<ParquetBloomColumnHandle> all = ImmutableList.<ParquetBloomColumnHandle>builder().addAll(columns);
        for (HiddenColumn hidden : HiddenColumn.values()) {
            if (!names.contains(hidden.columnName())) {
                all.add(hidden.handle());
            }
        }
        return all.build();
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
        // each table needs its listing and its first footer (from the node's cache when warm): read side by side on
        // this query's share of metadata.concurrency, and on the calling thread, which would otherwise only wait
        List<Callable<Optional<RelationColumnsMetadata>>> tables = names.stream()
                .<Callable<Optional<RelationColumnsMetadata>>>map(name -> () -> relationColumns(session, name))
                .toList();
        return ParallelTasks.runAll(tables, executor).stream()
                .flatMap(Optional::stream)
                .iterator();
    }

    private Optional<RelationColumnsMetadata> relationColumns(ConnectorSession session, SchemaTableName name)
    {
        try {
            List<ColumnMetadata> metadata = columnHandles(session, name).stream().map(ParquetBloomColumnHandle::toColumnMetadata).collect(ImmutableList.toImmutableList());
            return Optional.of(RelationColumnsMetadata.forTable(name, metadata));
        }
        catch (TrinoException e) {
            // a table without files or with an unreadable first footer has no columns to list; DESCRIBE reports why
            return Optional.empty();
        }
    }

    /**
     * A LIMIT directly above the scan (a filter between keeps it from coming here): each split stops after that many
     * rows, reading and fetching ahead no row group past them. Not guaranteed: the engine still applies the limit
     * over all splits.
     */
    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle handle, long limit)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) handle;
        if (table.limit().isPresent() && table.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(table.withLimit(limit), false, false));
    }

    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session, ConnectorTableHandle handle, Constraint constraint)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) handle;
        if (table.limit().isPresent()) {
            // a filter above a limit takes from the rows the limit left: the scan's rows must not depend on it
            return Optional.empty();
        }
        if (dropsASignedZero(constraint.getSummary())) {
            // the engine's own predicate stays as written: this scan is not pruned
            return Optional.empty();
        }
        TupleDomain<ParquetBloomColumnHandle> newConstraint = table.constraint().intersect(constraint.getSummary()
                .transformKeys(ParquetBloomColumnHandle.class::cast));
        if (newConstraint.equals(table.constraint())) {
            return Optional.empty();
        }
        // pruning uses the domains, but rows are still filtered by the engine: nothing is claimed as enforced
        return Optional.of(new ConstraintApplicationResult<>(
                table.withConstraint(newConstraint),
                constraint.getSummary(),
                constraint.getExpression(),
                false));
    }

    /**
     * Whether handing {@code summary} back as the remaining filter would lose rows: a REAL or DOUBLE domain keeps one
     * of 0.0 and -0.0 (they are equal), and the engine turns several single values back into an IN list whose set
     * hashes the two zeros apart, so {@code c IN (-0.0, 0.0, 5)} would come back as {@code c IN (-0.0, 5)} and miss
     * every 0.0 row (a single value becomes {@code c = -0.0}, which matches both).
     */
    static boolean dropsASignedZero(TupleDomain<ColumnHandle> summary)
    {
        return summary.getDomains().orElse(Map.of()).values().stream()
                .filter(domain -> domain.getType() instanceof RealType || domain.getType() instanceof DoubleType)
                .anyMatch(domain -> {
                    List<Object> singleValues = domain.getValues().getRanges().getOrderedRanges().stream()
                            .filter(Range::isSingleValue)
                            .map(Range::getSingleValue)
                            .toList();
                    return singleValues.size() > 1 && singleValues.stream().anyMatch(value -> isZero(domain.getType(), value));
                });
    }

    private static boolean isZero(Type type, Object value)
    {
        return type instanceof RealType ? Float.intBitsToFloat(toIntExact((long) value)) == 0 : (double) value == 0;
    }

    /**
     * Listing and schema requests of this transaction, reported by the split source.
     */
    public S3RequestStats requestStats()
    {
        return stats;
    }

    /**
     * Trino calls this before each query of the transaction uses this catalog: the tables that query lists (those
     * the transaction has not listed yet) may come from a listing that began after it was submitted.
     */
    @Override
    public void beginQuery(ConnectorSession session)
    {
        submittedAt.set(session.getStart());
    }

    private Instant querySubmittedAt()
    {
        // without a session seen (never the case through Trino): as if submitted now, which no earlier listing serves
        Instant submitted = submittedAt.get();
        return submitted != null ? submitted : Instant.now();
    }

    /**
     * The table a handle names: as of its snapshot, or as {@link #table(SchemaTableName, TupleDomain)} finds it.
     */
    public Optional<LakeTable> table(ParquetBloomTableHandle handle)
    {
        if (handle.snapshotId().isEmpty()) {
            return table(handle.schemaTableName(), handle.constraint());
        }
        return Optional.of(versionOf(handle.schemaTableName(), handle.snapshotId().getAsLong()));
    }

    private LakeTable versionOf(SchemaTableName name, long snapshotId)
    {
        return versions.computeIfAbsent(new VersionKey(name, snapshotId), key -> {
            LakeTable current = table(name).orElseThrow(() -> new TableNotFoundException(name, "Table %s not found".formatted(name)));
            return lakeTables.getTableVersion(name, location(name).orElseThrow(), current.snapshot().orElseThrow().format(), snapshotId, stats);
        });
    }

    public Optional<LakeTable> table(SchemaTableName name)
    {
        return tables.computeIfAbsent(name, key -> location(key).map(folder -> lakeTables.getTable(key, folder, querySubmittedAt(), stats)));
    }

    private record PartitionListingKey(SchemaTableName table, Map<String, Domain> partitionDomains) {}

    /**
     * The files of the table that {@code constraint}'s partition domains select: where the table's shape is known
     * (cached, {@code metadata.schema-cache-ttl}) and the table spans listing pages, only the partitions selected are
     * listed ({@link LakeTables#listPartitions}); otherwise every file, as {@link #table(SchemaTableName)} lists them.
     * Callers still match each file against the predicate.
     */
    public Optional<LakeTable> table(SchemaTableName name, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        TableShape shape = shapes.get(name);
        Map<String, Domain> partitionDomains = new HashMap<>();
        constraint.getDomains().ifPresent(domains -> domains.forEach((column, domain) -> {
            if (column.partitionKey() && !domain.isAll()) {
                partitionDomains.put(column.name(), domain);
            }
        }));
        if (shape == null || !lakeTables.listsByPartition(shape) || partitionDomains.isEmpty() || tables.containsKey(name)) {
            // a full listing this transaction has (or needs for its shape anyway) serves
            return table(name);
        }
        return partitionListings.computeIfAbsent(new PartitionListingKey(name, Map.copyOf(partitionDomains)),
                key -> location(name).map(folder -> lakeTables.listPartitions(name, folder, shape, key.partitionDomains(), stats)));
    }

    private Optional<S3Location> location(SchemaTableName name)
    {
        return locations.computeIfAbsent(name, key -> lakeTables.findTable(key, stats));
    }

    private List<ParquetBloomColumnHandle> columnHandles(ConnectorSession session, ParquetBloomTableHandle handle)
    {
        if (handle.snapshotId().isEmpty()) {
            return columnHandles(session, handle.schemaTableName());
        }
        // a version's columns are its schema's (a Delta Lake table's partition columns are not in its files)
        LakeTable version = versionOf(handle.schemaTableName(), handle.snapshotId().getAsLong());
        ImmutableList.Builder<ParquetBloomColumnHandle> handles = ImmutableList.builder();
        version.snapshot().orElseThrow().columns().forEach(column -> handles.add(ParquetBloomColumnHandle.dataColumn(column)));
        version.partitionColumns().forEach(partition -> handles.add(new ParquetBloomColumnHandle(partition.name(), partition.type(), true)));
        return handles.build();
    }

    private List<ParquetBloomColumnHandle> columnHandles(ConnectorSession session, SchemaTableName name)
    {
        return columns.computeIfAbsent(name, key -> {
            boolean unionByName = isSchemaUnionByName(session);
            S3Location location = location(key).orElseThrow(() -> new TableNotFoundException(key, "Table %s not found".formatted(key)));
            TableShape shape = lakeTables.shape(key, location, unionByName, () -> {
                LakeTable table = table(key).orElseThrow(() -> new TableNotFoundException(key, "Table %s not found".formatted(key)));
                return new TableShape(schemaReader.readColumns(table, unionByName, executor, stats), table.partitionColumns(), table.files().size(), table.snapshot().isPresent());
            });
            shapes.put(key, shape);
            ImmutableList.Builder<ParquetBloomColumnHandle> handles = ImmutableList.builder();
            for (TableSchemaReader.DataColumn column : shape.dataColumns()) {
                handles.add(ParquetBloomColumnHandle.dataColumn(column));
            }
            for (PartitionColumn partition : shape.partitionColumns()) {
                handles.add(new ParquetBloomColumnHandle(partition.name(), partition.type(), true));
            }
            return handles.build();
        });
    }
}
