package io.parquetbloom.connector;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeHandle;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeSplit;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.parquetbloom.health.QueryShareWindow;
import io.parquetbloom.keyindex.KeyIndexPlanner;
import io.parquetbloom.keyindex.KeyIndexReader;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.table.FileFilter;
import io.parquetbloom.table.FormatSnapshot;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.getSplitReadAheadFiles;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isKeyIndexEnabled;
import static java.util.Objects.requireNonNull;

/**
 * Lists the table's files, drops those whose partition folders cannot match, and hands the rest to a split source
 * that prunes files by their metadata before they become splits.
 */
public class ParquetBloomSplitManager
        implements ConnectorSplitManager
{
    private final ParquetBloomTransactionManager transactionManager;
    private final ParquetMetadataReader metadataReader;
    private final RowGroupPruner pruner;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;
    private final ExecutorService executor;
    private final int concurrency;
    private final QueryShareWindow queryWindow;
    private final MetadataCacheFlusher flusher;
    private final PruningTotals totals;
    private final KeyIndexReader keyIndexReader;
    private final KeyIndexTableProcedures keyIndexProcedures;
    private final NodeManager nodeManager;

    @Inject
    public ParquetBloomSplitManager(ParquetBloomTransactionManager transactionManager, ParquetMetadataReader metadataReader, RowGroupPruner pruner, @ForParquetBloomMetadata ExecutorService executor, MetadataConfig metadataConfig, ParquetBloomConfig config, QueryShareWindow queryWindow, MetadataCacheFlusher flusher, PruningTotals totals, KeyIndexReader keyIndexReader, NodeManager nodeManager, KeyIndexTableProcedures keyIndexProcedures)
    {
        this.keyIndexProcedures = requireNonNull(keyIndexProcedures, "keyIndexProcedures is null");
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.keyIndexReader = requireNonNull(keyIndexReader, "keyIndexReader is null");
        this.totals = requireNonNull(totals, "totals is null");
        this.flusher = requireNonNull(flusher, "flusher is null");
        this.queryWindow = requireNonNull(queryWindow, "queryWindow is null");
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
        this.dynamicFilterWaitMillis = config.getDynamicFilteringWaitTimeout().toMillis();
        this.executor = requireNonNull(executor, "executor is null");
        this.concurrency = metadataConfig.getMetadataConcurrency();
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle connectorTable, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) connectorTable;
        if (table.keyIndexBuild().isPresent()) {
            return keyIndexProcedures.splits(table);
        }
        ParquetBloomMetadata metadata = transactionManager.get(transaction);
        LakeTable lakeTable = metadata.table(table)
                .orElseThrow(() -> new TableNotFoundException(table.schemaTableName(), "Table %s not found".formatted(table.schemaTableName())));
        queryWindow.record(session.getQueryId(), table.schemaTableName(), lookupColumns(table.constraint(), dynamicFilterColumns));
        PruningPlan plan = PruningPlans.create(table.schemaTableName(), PruningPlans.options(session), table.constraint());
        // a table format's partition values and column bounds are statistics: off with statistics pruning
        FileFilter formatFilter = lakeTable.snapshot().filter(_ -> plan.options().statistics()).map(FormatSnapshot::fileFilter).orElse(FileFilter.ALL);
        Map<DataColumn, Domain> domainsByColumn = domainsByDataColumn(table.constraint());
        List<LakeFile> files = lakeTable.files().stream()
                .map(HiddenColumn::withValues)
                .filter(file -> plan.matchesPartition(file.partitionValues()))
                .filter(file -> formatFilter.mightMatch(file, domainsByColumn))
                .collect(toImmutableList());
        // this query's share of the catalog's metadata threads
        Executor queryExecutor = new BoundedExecutor(executor, concurrency);
        FileSplitPlanner planner = new FileSplitPlanner(metadataReader, pruner, maxSplitSize, flusher.epoch(), metadata.requestStats(), totals);
        Optional<KeyIndexPlanner> keyIndex = isKeyIndexEnabled(session)
                ? Optional.of(new KeyIndexPlanner(keyIndexReader, lakeTable, queryExecutor, planner.planningRequests()))
                : Optional.empty();
        return new ParquetBloomSplitSource(
                files,
                table.constraint(),
                plan,
                dynamicFilterWaitMillis,
                queryExecutor,
                concurrency,
                planner,
                keyIndex,
                grouper(session));
    }

    /**
     * With read-ahead on, the splits of small files are grouped for one reader each, per worker.
     */
    private Optional<SplitGrouper> grouper(ConnectorSession session)
    {
        if (getSplitReadAheadFiles(session) == 0) {
            return Optional.empty();
        }
        // a worker runs about two leaf drivers per core (Trino's task.min-drivers); workers are sized as the coordinator
        return Optional.of(new SplitGrouper(List.copyOf(nodeManager.getWorkerNodes()), 2 * Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The constraint's domains of data columns, as a table format's snapshot knows them (names, field ids, physical
     * names): what its metadata can judge files by.
     */
    private static Map<DataColumn, Domain> domainsByDataColumn(TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        Map<DataColumn, Domain> domains = new HashMap<>();
        constraint.getDomains().ifPresent(byColumn -> byColumn.forEach((column, domain) -> {
            if (!column.partitionKey() && !column.fromListing()) {
                domains.put(new DataColumn(column.name(), column.type(), column.fieldId(), column.mappedNames()), domain);
            }
        }));
        return domains;
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableFunctionHandle function)
    {
        if (function instanceof BloomProbeHandle) {
            return new FixedSplitSource(new BloomProbeSplit());
        }
        throw new IllegalArgumentException("unknown table function handle: " + function);
    }

    /**
     * Data columns a filter could serve in this scan: constrained to discrete values ({@code =}, {@code IN}) or by a
     * join's dynamic filter.
     */
    private static Set<String> lookupColumns(TupleDomain<ParquetBloomColumnHandle> constraint, Set<ColumnHandle> dynamicFilterColumns)
    {
        ImmutableSet.Builder<String> columns = ImmutableSet.builder();
        constraint.getDomains().ifPresent(domains -> domains.forEach((column, domain) -> {
            if (!column.fromListing() && !domain.getValues().isNone() && domain.getValues().isDiscreteSet()) {
                columns.add(column.name());
            }
        }));
        for (ColumnHandle handle : dynamicFilterColumns) {
            ParquetBloomColumnHandle column = (ParquetBloomColumnHandle) handle;
            if (!column.fromListing()) {
                columns.add(column.name());
            }
        }
        return columns.build();
    }
}
