package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.PartitionValues;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * One split per file (large files in byte ranges that the page source maps to row groups), after dropping files
 * whose partition folders cannot match.
 */
public class ParquetBloomSplitManager
        implements ConnectorSplitManager
{
    private final ParquetBloomTransactionManager transactionManager;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;

    @Inject
    public ParquetBloomSplitManager(ParquetBloomTransactionManager transactionManager, ParquetBloomConfig config)
    {
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
        this.dynamicFilterWaitMillis = config.getDynamicFilteringWaitTimeout().toMillis();
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle connectorTable, Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) connectorTable;
        ParquetBloomMetadata metadata = transactionManager.get(transaction);
        LakeTable lakeTable = metadata.table(table.schemaTableName())
                .orElseThrow(() -> new TrinoException(TABLE_NOT_FOUND, "Table %s not found".formatted(table.schemaTableName())));
        TupleDomain<ParquetBloomColumnHandle> tableConstraint = table.constraint();
        if (tableConstraint.isNone()) {
            return new ParquetBloomSplitSource(ImmutableList.of(), 0, metadata.requestStats());
        }
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        for (LakeFile file : lakeTable.files()) {
            Map<String, Optional<String>> partitionValues = new LinkedHashMap<>();
            for (int i = 0; i < lakeTable.partitionColumns().size(); i++) {
                partitionValues.put(lakeTable.partitionColumns().get(i).name(), file.partitionValues().get(i));
            }
            if (!partitionMatches(lakeTable.partitionColumns(), partitionValues, tableConstraint)) {
                continue;
            }
            long size = file.object().size();
            for (long start = 0; start < size; start += maxSplitSize) {
                splits.add(new ParquetBloomSplit(file.object().location().toString(), size, file.object().etag(), start, Math.min(maxSplitSize, size - start), partitionValues));
            }
        }
        return new ParquetBloomSplitSource(splits.build(), dynamicFilterWaitMillis, metadata.requestStats());
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
