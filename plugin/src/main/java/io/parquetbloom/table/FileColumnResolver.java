package io.parquetbloom.table;

import com.google.inject.Inject;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import org.apache.parquet.schema.MessageType;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

import static io.trino.parquet.ParquetTypeUtils.getParquetTypeByName;
import static java.util.Objects.requireNonNull;

/**
 * Finds a table column in one file's schema: by name without regard to case, readable as the table's type when the
 * types are equal or the file holds a narrower integer or a REAL where the table has DOUBLE (schema evolution, e.g.
 * INT32 files in a BIGINT table): widenings that keep every value exactly, as trino-parquet reads them.
 */
public final class FileColumnResolver
{
    public sealed interface Resolution
    {
        record Missing()
                implements Resolution {}

        record Match(org.apache.parquet.schema.Type field)
                implements Resolution {}

        record Mismatch(org.apache.parquet.schema.Type field, Optional<Type> fileType)
                implements Resolution {}

        /**
         * A field the reader reads in {@code fileType} and converts to the table's type ({@link #converts}): read,
         * but never pruned by (its statistics, filters and dictionaries hold values of the file's type).
         */
        record Widened(org.apache.parquet.schema.Type field, Type fileType)
                implements Resolution {}
    }

    private final ParquetTypeMapping typeMapping;

    @Inject
    public FileColumnResolver(ParquetTypeMapping typeMapping)
    {
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
    }

    /**
     * @param name a data column of the table (partition columns are never in files)
     */
    public Resolution resolve(String name, Type type, MessageType fileSchema)
    {
        return resolve(name, OptionalInt.empty(), type, fileSchema);
    }

    /**
     * @param fieldId the column's id where a table format keeps ids (Iceberg): a file that has ids is matched by id
     * only (a renamed column reads its old files, a dropped and re-added one reads NULL from them); a file written
     * without ids is matched by name
     */
    public Resolution resolve(String name, OptionalInt fieldId, Type type, MessageType fileSchema)
    {
        return resolve(name, fieldId, Optional.empty(), type, fileSchema);
    }

    /**
     * @param mappedNames where the table format maps names to field ids (Iceberg's name mapping), the names a file
     * written without ids may give the column, tried in order (none: such a file lacks it); empty: by {@code name}
     */
    public Resolution resolve(String name, OptionalInt fieldId, Optional<List<String>> mappedNames, Type type, MessageType fileSchema)
    {
        org.apache.parquet.schema.Type field;
        if (fieldId.isPresent() && hasFieldIds(fileSchema)) {
            field = fieldById(fieldId.getAsInt(), fileSchema);
        }
        else if (mappedNames.isPresent()) {
            field = mappedNames.get().stream().map(mapped -> getParquetTypeByName(mapped, fileSchema)).filter(Objects::nonNull).findFirst().orElse(null);
        }
        else {
            field = getParquetTypeByName(name, fileSchema);
        }
        if (field == null) {
            return new Resolution.Missing();
        }
        Optional<Type> fileType = typeMapping.toTrinoType(field);
        if (fileType.isPresent() && field.isPrimitive() && converts(fileType.get(), type)) {
            return new Resolution.Widened(field, fileType.get());
        }
        if (fileType.isEmpty() || !readableAs(fileType.get(), type)) {
            return new Resolution.Mismatch(field, fileType);
        }
        return new Resolution.Match(field);
    }

    /**
     * The type this connector reads a file's field as, if it reads it.
     */
    public Optional<Type> fileType(org.apache.parquet.schema.Type field)
    {
        return typeMapping.toTrinoType(field);
    }

    private static boolean hasFieldIds(MessageType fileSchema)
    {
        return fileSchema.getFields().stream().anyMatch(field -> field.getId() != null);
    }

    private static org.apache.parquet.schema.Type fieldById(int id, MessageType fileSchema)
    {
        for (org.apache.parquet.schema.Type field : fileSchema.getFields()) {
            if (field.getId() != null && field.getId().intValue() == id) {
                return field;
            }
        }
        return null;
    }

    private static boolean readableAs(Type fileType, Type tableType)
    {
        if (fileType.equals(tableType)) {
            return true;
        }
        if (fileType instanceof RealType && tableType instanceof DoubleType) {
            return true;
        }
        return integerRank(fileType) > 0 && integerRank(tableType) > integerRank(fileType);
    }

    /**
     * Whether a column of {@code fileType} is read as {@code tableType} by converting each value after reading, as a
     * table format widens a column's type (Delta Lake's type widening, Iceberg's promotions) where trino-parquet does
     * not read the file's values as the wider type itself: an integer up to {@code integer} as {@code double}; an
     * integer as a {@code decimal} with room for all its digits; a {@code decimal} as one of no smaller scale and
     * no fewer integer digits; a {@code date} as {@code timestamp(6)}.
     */
    public static boolean converts(Type fileType, Type tableType)
    {
        if (tableType instanceof DoubleType) {
            return integerRank(fileType) > 0 && integerRank(fileType) <= 3;
        }
        if (tableType instanceof DecimalType decimal) {
            if (integerRank(fileType) > 0) {
                return decimal.getPrecision() - decimal.getScale() >= INTEGER_DIGITS[integerRank(fileType)];
            }
            return fileType instanceof DecimalType narrow && !narrow.equals(decimal)
                    && decimal.getScale() >= narrow.getScale()
                    && decimal.getPrecision() - decimal.getScale() >= narrow.getPrecision() - narrow.getScale();
        }
        return fileType instanceof DateType && tableType.equals(TimestampType.TIMESTAMP_MICROS);
    }

    /**
     * Whether a column of {@code fileType} is read as {@code tableType} by widening (a narrower integer, a REAL).
     */
    public static boolean widens(Type fileType, Type tableType)
    {
        return !fileType.equals(tableType) && readableAs(fileType, tableType);
    }

    /**
     * The type both can be read as without loss, if any: the wider of two integers, DOUBLE for REAL and DOUBLE.
     */
    public static Optional<Type> widest(Type left, Type right)
    {
        if (readableAs(left, right)) {
            return Optional.of(right);
        }
        if (readableAs(right, left)) {
            return Optional.of(left);
        }
        return Optional.empty();
    }

    // the decimal digits of the largest value of each integer rank (tinyint, smallint, integer, bigint)
    private static final int[] INTEGER_DIGITS = {0, 3, 5, 10, 19};

    private static int integerRank(Type type)
    {
        if (type instanceof TinyintType) {
            return 1;
        }
        if (type instanceof SmallintType) {
            return 2;
        }
        if (type instanceof IntegerType) {
            return 3;
        }
        if (type instanceof BigintType) {
            return 4;
        }
        return 0;
    }
}
