package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.ParquetTypeMapping;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.PartitionValues;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.TypeManager;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.parquetbloom.connector.ParquetBloomSessionProperties.getBloomFilterMaxValues;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isBloomFilterEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isNoMatchCacheEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isStatisticsPruningEnabled;
import static io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * Lists the table's files, drops those whose partition folders cannot match, and hands the rest to a split source
 * that prunes files by their metadata before they become splits.
 */
public class ParquetBloomSplitManager
        implements ConnectorSplitManager
{
    private final ParquetBloomTransactionManager transactionManager;
    private final ParquetMetadataCache cache;
    private final RowGroupPruner pruner;
    private final FileColumnResolver resolver;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;
    private final MetadataExecutor executor;

    @Inject
    public ParquetBloomSplitManager(ParquetBloomTransactionManager transactionManager, ParquetMetadataCache cache, TypeManager typeManager, MetadataExecutor executor, ParquetBloomConfig config)
    {
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.pruner = new RowGroupPruner(cache);
        this.resolver = new FileColumnResolver(new ParquetTypeMapping(typeManager));
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
        this.dynamicFilterWaitMillis = config.getDynamicFilteringWaitTimeout().toMillis();
        this.executor = requireNonNull(executor, "executor is null");
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle connectorTable, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) connectorTable;
        ParquetBloomMetadata metadata = transactionManager.get(transaction);
        LakeTable lakeTable = metadata.table(table.schemaTableName())
                .orElseThrow(() -> new TrinoException(TABLE_NOT_FOUND, "Table %s not found".formatted(table.schemaTableName())));
        TupleDomain<ParquetBloomColumnHandle> tableConstraint = table.constraint();
        ImmutableList.Builder<ParquetBloomSplitSource.PlannedFile> files = ImmutableList.builder();
        if (!tableConstraint.isNone()) {
            for (LakeFile file : lakeTable.files()) {
                Map<String, Optional<String>> partitionValues = new LinkedHashMap<>();
                for (int i = 0; i < lakeTable.partitionColumns().size(); i++) {
                    partitionValues.put(lakeTable.partitionColumns().get(i).name(), file.partitionValues().get(i));
                }
                if (partitionMatches(lakeTable.partitionColumns(), partitionValues, tableConstraint)) {
                    files.add(new ParquetBloomSplitSource.PlannedFile(file, partitionValues));
                }
            }
        }
        return new ParquetBloomSplitSource(
                files.build(),
                tableConstraint,
                table.toString(),
                new RowGroupPruner.Options(isStatisticsPruningEnabled(session), isBloomFilterEnabled(session), getBloomFilterMaxValues(session), isNoMatchCacheEnabled(session)),
                maxSplitSize,
                dynamicFilterWaitMillis,
                executor.forQuery(),
                executor.concurrency(),
                cache,
                pruner,
                resolver,
                metadata.requestStats());
    }

    private static boolean partitionMatches(List<PartitionColumn> partitionColumns, Map<String, Optional<String>> values, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        Map<ParquetBloomColumnHandle, Domain> domains = constraint.getDomains().orElseThrow();
        for (PartitionColumn partition : partitionColumns) {
            Domain domain = domains.get(new ParquetBloomColumnHandle(partition.name(), partition.type(), true));
            if (domain != null && !domain.includesNullableValue(PartitionValues.toNativeValue(partition.type(), values.get(partition.name())))) {
                return false;
            }
        }
        return true;
    }
}
