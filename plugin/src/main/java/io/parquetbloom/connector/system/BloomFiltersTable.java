package io.parquetbloom.connector.system;

import com.google.common.collect.Iterators;
import com.google.inject.Inject;
import io.airlift.slice.Slices;
import io.parquetbloom.health.ChunkHealth;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.InOrderWindow;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static io.airlift.slice.Slices.utf8Slice;
import static io.parquetbloom.connector.system.SystemTableValues.value;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code "<table>$bloom_filters"}: one row per file, row group and column, whether or not the chunk has a filter,
 * and one row (without row group and column) per file whose footer cannot be read.
 */
public class BloomFiltersTable
        extends HealthSystemTable
{
    private static final int FILE_PATH = 0;
    private static final int PARTITION = 1;
    private static final List<ColumnMetadata> COLUMNS = List.of(
            new ColumnMetadata("file_path", VARCHAR),
            new ColumnMetadata("partition", VARCHAR),
            new ColumnMetadata("row_group", INTEGER),
            new ColumnMetadata("column_name", VARCHAR),
            new ColumnMetadata("physical_type", VARCHAR),
            new ColumnMetadata("logical_type", VARCHAR),
            new ColumnMetadata("row_count", BIGINT),
            new ColumnMetadata("null_count", BIGINT),
            new ColumnMetadata("has_filter", BOOLEAN),
            new ColumnMetadata("status", VARCHAR),
            new ColumnMetadata("filter_bytes", BIGINT),
            new ColumnMetadata("estimated_distinct_values", DOUBLE),
            new ColumnMetadata("bits_per_value", DOUBLE),
            new ColumnMetadata("false_positive_rate", DOUBLE),
            new ColumnMetadata("created_by", VARCHAR),
            new ColumnMetadata("filter_position", VARCHAR),
            new ColumnMetadata("has_filter_length", BOOLEAN),
            new ColumnMetadata("dictionary_encoded", BOOLEAN),
            new ColumnMetadata("dictionary_bytes", BIGINT));

    public BloomFiltersTable(SchemaTableName name, Supplier<LakeTable> table, FilterHealthScanner scanner, Executor executor)
    {
        super(name, COLUMNS, table, scanner, executor);
    }

    /**
     * Rows file after file, read a bounded number of files ahead; only the files whose path and partition the
     * query's constraint accepts are read at all.
     */
    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transactionHandle, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        LakeTable lakeTable = table().get();
        Domain paths = constraint.getDomain(FILE_PATH, VARCHAR);
        Domain partitions = constraint.getDomain(PARTITION, VARCHAR);
        List<LakeFile> files = lakeTable.files().stream()
                .filter(file -> paths.includesNullableValue(utf8Slice(file.object().location().toString())))
                .filter(file -> partitions.includesNullableValue(FilterHealthScanner.partitionName(lakeTable, file).map(Slices::utf8Slice).orElse(null)))
                .toList();
        InOrderWindow<LakeFile, FilterHealthScanner.ScannedFile> scanned = scanner().scanFiles(lakeTable, files, executor(), new ReadStats());
        Iterator<List<Object>> rows = Iterators.concat(Iterators.transform(scanned, BloomFiltersTable::rows));
        return new StreamingRecordCursor(COLUMNS.stream().map(ColumnMetadata::getType).toList(), rows, scanned);
    }

    private static Iterator<List<Object>> rows(FilterHealthScanner.ScannedFile file)
    {
        if (file.unreadable().isPresent()) {
            return Iterators.singletonIterator(Arrays.asList(file.file().object().location().toString(), file.partition().orElse(null), null, null, null, null, null, null, null, "unusable: " + file.unreadable().get(), null, null, null, null, null, null, null, null, null));
        }
        return file.chunks().stream().map(BloomFiltersTable::row).iterator();
    }

    private static List<Object> row(ChunkHealth chunk)
    {
        return Arrays.asList(
                chunk.file(),
                value(chunk.partition()),
                chunk.rowGroup(),
                chunk.column(),
                chunk.physicalType(),
                value(chunk.logicalType()),
                chunk.rowCount(),
                value(chunk.nullCount()),
                chunk.hasFilter(),
                chunk.status().describe(),
                value(chunk.filterBytes()),
                value(chunk.distinctValues()),
                value(chunk.bitsPerValue()),
                value(chunk.falsePositiveRate()),
                value(chunk.createdBy()),
                value(chunk.position()),
                chunk.hasFilterLength(),
                chunk.dictionaryEncoded(),
                value(chunk.dictionaryBytes()));
    }

    /**
     * {@code "<table>$bloom_filters"}.
     */
    public static final class Provider
            implements MetadataTableProvider
    {
        private final FilterHealthScanner scanner;

        @Inject
        public Provider(FilterHealthScanner scanner)
        {
            this.scanner = requireNonNull(scanner, "scanner is null");
        }

        @Override
        public String suffix()
        {
            return "bloom_filters";
        }

        @Override
        public SystemTable create(MetadataTableRequest request)
        {
            return new BloomFiltersTable(request.name(), request.lakeTable(), scanner, request.executor());
        }
    }
}
