package io.parquetbloom.iceberg;

import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import org.apache.iceberg.Schema;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.types.Types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_NANOS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_NANOS;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * An Iceberg schema as the table's columns: each top-level field by its name and id, typed as this connector's reader
 * reads the Parquet Iceberg writes for it (the types of {@code ParquetTypeMapping}). A type it cannot read fails
 * naming the column, never a column silently left out.
 */
final class IcebergSchemas
{
    private IcebergSchemas() {}

    /**
     * @param mapping the table's name mapping: a file without field ids gives a column one of the names it maps to the
     * column's id, and lacks a column whose id it does not map
     */
    static List<DataColumn> columns(SchemaTableName table, Schema schema, Optional<NameMapping> mapping, TypeOperators typeOperators)
    {
        List<DataColumn> columns = new ArrayList<>();
        for (Types.NestedField field : schema.columns()) {
            if (field.initialDefault() != null) {
                // files written before the column was added hold its default, which is not read yet: never NULL
                throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Iceberg table %s: column %s has an initial default (format v3), which this connector does not read yet; read it with Trino's Iceberg connector (connector.name=iceberg)".formatted(table, field.name()));
            }
            Optional<List<String>> mappedNames = mapping.map(names -> Optional.ofNullable(names.find(field.fieldId()))
                    .map(mapped -> mapped.names().stream().sorted().toList())
                    .orElse(List.of()));
            columns.add(new DataColumn(field.name().toLowerCase(Locale.ROOT), type(table, field.name(), field.type(), typeOperators), OptionalInt.of(field.fieldId()), mappedNames));
        }
        return columns;
    }

    private static Type type(SchemaTableName table, String column, org.apache.iceberg.types.Type type, TypeOperators typeOperators)
    {
        return switch (type) {
            case Types.BooleanType _ -> BOOLEAN;
            case Types.IntegerType _ -> INTEGER;
            case Types.LongType _ -> BIGINT;
            case Types.FloatType _ -> REAL;
            case Types.DoubleType _ -> DOUBLE;
            case Types.DecimalType decimal -> DecimalType.createDecimalType(decimal.precision(), decimal.scale());
            case Types.DateType _ -> DATE;
            case Types.TimeType _ -> TIME_MICROS;
            case Types.TimestampType timestamp -> timestamp.shouldAdjustToUTC() ? TIMESTAMP_TZ_MICROS : TIMESTAMP_MICROS;
            case Types.TimestampNanoType timestamp -> timestamp.shouldAdjustToUTC() ? TIMESTAMP_TZ_NANOS : TIMESTAMP_NANOS;
            case Types.StringType _ -> VARCHAR;
            case Types.UUIDType _ -> UUID;
            case Types.FixedType _, Types.BinaryType _ -> VARBINARY;
            case Types.ListType list -> new ArrayType(type(table, column, list.elementType(), typeOperators));
            case Types.MapType map -> new MapType(type(table, column, map.keyType(), typeOperators), type(table, column, map.valueType(), typeOperators), typeOperators);
            case Types.StructType struct -> RowType.from(struct.fields().stream()
                    .map(field -> RowType.field(field.name().toLowerCase(Locale.ROOT), type(table, column, field.type(), typeOperators)))
                    .toList());
            default -> throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Iceberg table %s: column %s is of type %s, which this connector does not read; read it with Trino's Iceberg connector (connector.name=iceberg)".formatted(table, column, type));
        };
    }
}
