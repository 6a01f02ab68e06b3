package io.parquetbloom.connector.system;

import com.google.inject.Inject;
import io.parquetbloom.health.AdviceThresholds;
import io.parquetbloom.health.ColumnAdvice;
import io.parquetbloom.health.ColumnHealth;
import io.parquetbloom.health.FilterAdvisor;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.QueryShareWindow;
import io.parquetbloom.health.TableHealth;
import io.parquetbloom.health.WriterSettings;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static io.parquetbloom.connector.ParquetBloomSessionProperties.getAdviceThresholds;
import static io.parquetbloom.connector.system.SystemTableValues.value;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code "<table>$bloom_filter_advice"}: one row per column, with what its filters are worth, how often this
 * catalog's recent queries on the table constrained it, the verdict, and the writer settings that apply it.
 * Thresholds come from the session ({@code bloom_filter_advice_*}, defaulting to the catalog's properties).
 */
public class BloomFilterAdviceTable
        extends HealthSystemTable
{
    private static final List<ColumnMetadata> COLUMNS = List.of(
            new ColumnMetadata("column_name", VARCHAR),
            new ColumnMetadata("physical_type", VARCHAR),
            new ColumnMetadata("logical_type", VARCHAR),
            new ColumnMetadata("verdict", VARCHAR),
            new ColumnMetadata("reason", VARCHAR),
            new ColumnMetadata("files", BIGINT),
            new ColumnMetadata("files_without_filter", BIGINT),
            new ColumnMetadata("row_groups", BIGINT),
            new ColumnMetadata("row_groups_with_filter", BIGINT),
            new ColumnMetadata("row_groups_with_unusable_filter", BIGINT),
            new ColumnMetadata("median_fpp", DOUBLE),
            new ColumnMetadata("worst_fpp", DOUBLE),
            new ColumnMetadata("filter_bytes", BIGINT),
            new ColumnMetadata("filter_bytes_share", DOUBLE),
            new ColumnMetadata("filter_bytes_per_row_group", DOUBLE),
            new ColumnMetadata("distinct_values_per_row_group", DOUBLE),
            new ColumnMetadata("distinct_values_per_partition", DOUBLE),
            new ColumnMetadata("max_distinct_values_per_partition", DOUBLE),
            new ColumnMetadata("min_max_overlap", DOUBLE),
            new ColumnMetadata("queries_seen", BIGINT),
            new ColumnMetadata("query_share", DOUBLE),
            new ColumnMetadata("recommended_distinct_values", BIGINT),
            new ColumnMetadata("recommended_filter_bytes", BIGINT),
            new ColumnMetadata("parquet_java_settings", VARCHAR),
            new ColumnMetadata("pyarrow_settings", VARCHAR),
            new ColumnMetadata("trino_settings", VARCHAR),
            new ColumnMetadata("iceberg_settings", VARCHAR));

    private final SchemaTableName baseTable;
    private final QueryShareWindow queryWindow;
    private final AdviceThresholds thresholds;

    /**
     * @param thresholds from the session of the query that names the table: the cursor's session is the system
     * catalog's, without this catalog's properties
     */
    public BloomFilterAdviceTable(SchemaTableName name, SchemaTableName baseTable, Supplier<LakeTable> table, FilterHealthScanner scanner, QueryShareWindow queryWindow, Executor executor, AdviceThresholds thresholds)
    {
        super(name, COLUMNS, table, scanner, executor);
        this.baseTable = requireNonNull(baseTable, "baseTable is null");
        this.queryWindow = requireNonNull(queryWindow, "queryWindow is null");
        this.thresholds = requireNonNull(thresholds, "thresholds is null");
    }

    /**
     * One row per column: the scan folds every file into per-column (and per-partition) totals as it goes.
     */
    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        TableHealth health = scanner().scan(table().get(), executor(), false, new ReadStats());
        InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(getTableMetadata());
        addRows(health, rows);
        return rows.build().cursor();
    }

    private void addRows(TableHealth health, InMemoryRecordSet.Builder rows)
    {
        QueryShareWindow.TableShare share = queryWindow.share(baseTable);
        for (ColumnHealth column : health.columns()) {
            ColumnAdvice advice = FilterAdvisor.advise(column, share, thresholds);
            Optional<WriterSettings> settings = advice.settings();
            rows.addRow(
                    column.column(),
                    column.physicalType(),
                    value(column.logicalType()),
                    advice.verdict().label(),
                    advice.reason(),
                    (long) column.files(),
                    (long) column.filesWithoutFilter(),
                    column.rowGroups(),
                    column.rowGroupsWithUsableFilter(),
                    column.rowGroupsWithUnusableFilter(),
                    value(column.medianFpp()),
                    value(column.worstFpp()),
                    column.filterBytes(),
                    column.filterByteShare(),
                    value(column.filterBytesPerRowGroup()),
                    value(column.distinctValuesPerRowGroup()),
                    value(column.distinctValuesPerPartition()),
                    value(column.maxDistinctValuesPerPartition()),
                    value(column.minMaxOverlap()),
                    (long) advice.queriesSeen(),
                    value(advice.queryShare()),
                    value(advice.recommendedDistinctValues()),
                    value(advice.recommendedBytes()),
                    settings.map(WriterSettings::parquetJava).orElse(null),
                    settings.map(WriterSettings::pyarrow).orElse(null),
                    settings.map(WriterSettings::trino).orElse(null),
                    settings.map(WriterSettings::iceberg).orElse(null));
        }
    }

    /**
     * {@code "<table>$bloom_filter_advice"}.
     */
    public static final class Provider
            implements MetadataTableProvider
    {
        private final FilterHealthScanner scanner;
        private final QueryShareWindow queryWindow;

        @Inject
        public Provider(FilterHealthScanner scanner, QueryShareWindow queryWindow)
        {
            this.scanner = requireNonNull(scanner, "scanner is null");
            this.queryWindow = requireNonNull(queryWindow, "queryWindow is null");
        }

        @Override
        public String suffix()
        {
            return "bloom_filter_advice";
        }

        @Override
        public SystemTable create(MetadataTableRequest request)
        {
            return new BloomFilterAdviceTable(request.name(), request.table(), request.lakeTable(), scanner, queryWindow, request.executor(), getAdviceThresholds(request.session()));
        }
    }
}
