package io.parquetbloom.connector;

import io.parquetbloom.health.ChunkHealth;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.TableHealth;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static io.parquetbloom.connector.SystemTableValues.value;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code "<table>$bloom_filters"}: one row per file, row group and column, whether or not the chunk has a filter,
 * and one row (without row group and column) per file whose footer cannot be read.
 */
class BloomFiltersTable
        extends HealthSystemTable
{
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
            new ColumnMetadata("has_filter_length", BOOLEAN));

    BloomFiltersTable(SchemaTableName name, Supplier<LakeTable> table, FilterHealthScanner scanner, Executor executor)
    {
        super(name, COLUMNS, table, scanner, executor);
    }

    @Override
    boolean perChunk()
    {
        return true;
    }

    @Override
    void addRows(TableHealth health, InMemoryRecordSet.Builder rows)
    {
        for (ChunkHealth chunk : health.chunks()) {
            rows.addRow(
                    chunk.file(),
                    value(chunk.partition()),
                    chunk.rowGroup(),
                    chunk.column(),
                    chunk.physicalType(),
                    value(chunk.logicalType()),
                    chunk.rowCount(),
                    value(chunk.nullCount()),
                    chunk.hasFilter(),
                    chunk.status(),
                    value(chunk.filterBytes()),
                    value(chunk.distinctValues()),
                    value(chunk.bitsPerValue()),
                    value(chunk.falsePositiveRate()),
                    value(chunk.createdBy()),
                    value(chunk.position()),
                    chunk.hasFilterLength());
        }
        for (TableHealth.UnreadableFile file : health.unreadableFiles()) {
            rows.addRow(file.file(), value(file.partition()), null, null, null, null, null, null, null, "unusable: " + file.reason(), null, null, null, null, null, null, null);
        }
    }
}
