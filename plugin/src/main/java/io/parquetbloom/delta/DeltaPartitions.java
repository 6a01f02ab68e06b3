package io.parquetbloom.delta;

import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.PartitionValues;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static java.util.Objects.requireNonNull;

/**
 * A Delta Lake table's partition columns and each file's values of them, from its {@code add} (PROTOCOL.md, "Partition
 * Value Serialization"), never from folder names: keyed by physical name under column mapping, a JSON null (or, for a
 * type other than a string, an empty string) for NULL. Every value is parsed when the version is read, so a value that
 * is not of its column's type fails naming the file, never a query's pruning half-way.
 */
final class DeltaPartitions
{
    private final SchemaTableName table;
    private final List<DataColumn> columns;

    DeltaPartitions(SchemaTableName table, List<DataColumn> columns)
    {
        this.table = requireNonNull(table, "table is null");
        this.columns = List.copyOf(columns);
        for (DataColumn column : columns) {
            if (!readable(column.type())) {
                // timestamps are serialized in forms (and zones) writers disagree on; binary as raw bytes
                throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s: partition column %s is of type %s, which this connector does not read as a partition yet".formatted(table, column.name(), column.type()));
            }
        }
    }

    List<PartitionColumn> columns()
    {
        return columns.stream().map(column -> new PartitionColumn(column.name(), column.type())).toList();
    }

    /**
     * The file's partition values by column name, in the table's order, and its partition as a path for
     * {@code $partition}.
     */
    Map<String, Optional<String>> values(String file, Map<String, Optional<String>> logged)
    {
        Map<String, Optional<String>> values = new LinkedHashMap<>();
        List<String> path = new ArrayList<>();
        for (DataColumn column : columns) {
            String physical = DeltaSchemas.physicalName(column);
            Optional<String> value = logged.getOrDefault(physical, Optional.empty())
                    .filter(text -> column.type() instanceof VarcharType || !text.isEmpty());
            check(file, column, value);
            values.put(column.name(), value);
            path.add(physical + "=" + value.orElse(PartitionValues.HIVE_DEFAULT_PARTITION));
        }
        values.put(LakeFile.PARTITION_PATH, columns.isEmpty() ? Optional.empty() : Optional.of(String.join("/", path)));
        return values;
    }

    private void check(String file, DataColumn column, Optional<String> value)
    {
        try {
            PartitionValues.toNativeValue(column.type(), value);
            if (value.isPresent() && column.type() instanceof BooleanType && !value.get().equals("true") && !value.get().equals("false")) {
                throw new IllegalArgumentException("not true or false");
            }
        }
        catch (RuntimeException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: file %s has partition value '%s' for column %s, which is not a %s".formatted(table, file, value.orElse(""), column.name(), column.type()), e);
        }
    }

    private static boolean readable(Type type)
    {
        return type instanceof VarcharType || type instanceof BigintType || type instanceof IntegerType || type instanceof SmallintType || type instanceof TinyintType
                || type instanceof BooleanType || type instanceof DateType || type instanceof DoubleType || type instanceof RealType || type instanceof DecimalType;
    }
}
