package io.parquetbloom.table;

import com.google.inject.Inject;
import io.parquetbloom.hash.UnsignedIntegers;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;
import static org.apache.parquet.schema.Type.Repetition.REPEATED;

/**
 * The Trino type of a Parquet column, from its physical type and logical annotation. INT64 timestamps adjusted to
 * UTC become {@code timestamp(p) with time zone}; others {@code timestamp(p)} with p from the unit. Unsigned integers
 * map one size up ({@link UnsignedIntegers}). Columns with no readable mapping are left out of the table.
 */
public final class ParquetTypeMapping
{
    private final TypeManager typeManager;

    @Inject
    public ParquetTypeMapping(TypeManager typeManager)
    {
        this.typeManager = requireNonNull(typeManager, "typeManager is null");
    }

    public Optional<Type> toTrinoType(org.apache.parquet.schema.Type parquetType)
    {
        if (parquetType.isPrimitive()) {
            if (parquetType.isRepetition(REPEATED)) {
                // a repeated primitive without a LIST wrapper is a list of that primitive
                return nestedPrimitive(parquetType.asPrimitiveType()).map(ArrayType::new);
            }
            return primitive(parquetType.asPrimitiveType());
        }
        return group(parquetType);
    }

    private Optional<Type> nested(org.apache.parquet.schema.Type parquetType)
    {
        if (parquetType.isPrimitive()) {
            Optional<Type> type = nestedPrimitive(parquetType.asPrimitiveType());
            return parquetType.isRepetition(REPEATED) ? type.map(ArrayType::new) : type;
        }
        return group(parquetType);
    }

    /**
     * Unsigned 32- and 64-bit integers are converted to their unsigned value by the connector only for top-level
     * columns; inside a list, map or row the reader would return the stored bits as signed, so such fields are left
     * out rather than read wrong.
     */
    private static Optional<Type> nestedPrimitive(PrimitiveType type)
    {
        if (UnsignedIntegers.unsignedWidth(type).orElse(0) >= 32) {
            return Optional.empty();
        }
        return primitive(type);
    }

    private Optional<Type> group(org.apache.parquet.schema.Type parquetType)
    {
        GroupType group = parquetType.asGroupType();
        LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
        Optional<Type> type;
        if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            type = list(group);
        }
        else if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            type = map(group);
        }
        else {
            type = row(group);
        }
        return group.isRepetition(REPEATED) ? type.map(ArrayType::new) : type;
    }

    private Optional<Type> list(GroupType list)
    {
        if (list.getFieldCount() != 1 || !list.getType(0).isRepetition(REPEATED)) {
            return Optional.empty();
        }
        org.apache.parquet.schema.Type repeated = list.getType(0);
        // three-level lists wrap the element in a one-field group; legacy two-level lists repeat the element itself
        if (!repeated.isPrimitive()
                && repeated.asGroupType().getFieldCount() == 1
                && !repeated.getName().equals("array")
                && !repeated.getName().equals(list.getName() + "_tuple")) {
            return nested(repeated.asGroupType().getType(0)).map(ArrayType::new);
        }
        if (repeated.isPrimitive()) {
            return nestedPrimitive(repeated.asPrimitiveType()).map(ArrayType::new);
        }
        return row(repeated.asGroupType()).map(ArrayType::new);
    }

    private Optional<Type> map(GroupType map)
    {
        if (map.getFieldCount() != 1 || map.getType(0).isPrimitive() || map.getType(0).asGroupType().getFieldCount() != 2) {
            return Optional.empty();
        }
        GroupType keyValue = map.getType(0).asGroupType();
        Optional<Type> key = nested(keyValue.getType(0));
        Optional<Type> value = nested(keyValue.getType(1));
        if (key.isEmpty() || value.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new MapType(key.get(), value.get(), typeManager.getTypeOperators()));
    }

    private Optional<Type> row(GroupType group)
    {
        List<RowType.Field> fields = new ArrayList<>();
        for (org.apache.parquet.schema.Type field : group.getFields()) {
            Optional<Type> type = nested(field);
            type.ifPresent(value -> fields.add(RowType.field(field.getName().toLowerCase(Locale.ROOT), value)));
        }
        return fields.isEmpty() ? Optional.empty() : Optional.of(RowType.from(fields));
    }

    public static Optional<Type> primitive(PrimitiveType type)
    {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        if (annotation instanceof DecimalLogicalTypeAnnotation decimal) {
            if (decimal.getPrecision() < 1 || decimal.getPrecision() > 38 || decimal.getScale() < 0 || decimal.getScale() > decimal.getPrecision()) {
                return Optional.empty();
            }
            return Optional.of(DecimalType.createDecimalType(decimal.getPrecision(), decimal.getScale()));
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Optional.of(BOOLEAN);
            case INT32 -> int32(annotation);
            case INT64 -> int64(annotation);
            case INT96 -> Optional.of(TimestampType.TIMESTAMP_NANOS);
            case FLOAT -> Optional.of(REAL);
            case DOUBLE -> Optional.of(DOUBLE);
            case BINARY -> annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                    || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                    || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
                    ? Optional.of(VARCHAR) : Optional.of(VARBINARY);
            case FIXED_LEN_BYTE_ARRAY -> annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation && type.getTypeLength() == 16
                    ? Optional.of(UUID) : Optional.of(VARBINARY);
        };
    }

    private static Optional<Type> int32(LogicalTypeAnnotation annotation)
    {
        if (annotation == null) {
            return Optional.of(INTEGER);
        }
        if (annotation instanceof IntLogicalTypeAnnotation integer) {
            if (integer.isSigned()) {
                return Optional.of(switch (integer.getBitWidth()) {
                    case 8 -> TINYINT;
                    case 16 -> SMALLINT;
                    default -> INTEGER;
                });
            }
            return Optional.of(switch (integer.getBitWidth()) {
                case 8 -> SMALLINT;
                case 16 -> INTEGER;
                default -> BIGINT;
            });
        }
        if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            return Optional.of(DATE);
        }
        if (annotation instanceof TimeLogicalTypeAnnotation) {
            return Optional.of(TimeType.TIME_MILLIS);
        }
        return Optional.empty();
    }

    private static Optional<Type> int64(LogicalTypeAnnotation annotation)
    {
        if (annotation == null) {
            return Optional.of(BIGINT);
        }
        if (annotation instanceof IntLogicalTypeAnnotation integer) {
            return Optional.of(integer.isSigned() ? BIGINT : DecimalType.createDecimalType(20, 0));
        }
        if (annotation instanceof TimestampLogicalTypeAnnotation timestamp) {
            int precision = switch (timestamp.getUnit()) {
                case MILLIS -> 3;
                case MICROS -> 6;
                case NANOS -> 9;
            };
            return Optional.of(timestamp.isAdjustedToUTC()
                    ? TimestampWithTimeZoneType.createTimestampWithTimeZoneType(precision)
                    : TimestampType.createTimestampType(precision));
        }
        if (annotation instanceof TimeLogicalTypeAnnotation time) {
            return Optional.of(switch (time.getUnit()) {
                case MILLIS -> TimeType.TIME_MILLIS;
                case MICROS -> TimeType.TIME_MICROS;
                case NANOS -> TimeType.TIME_NANOS;
            });
        }
        return Optional.empty();
    }
}
