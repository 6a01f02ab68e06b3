package io.parquetbloom.table;

import io.airlift.slice.Slices;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Decimals;
import io.trino.spi.type.Type;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Optional;
import java.util.regex.Pattern;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Partition folder values: the type of a partition column is the narrowest of BIGINT, DATE, VARCHAR that every value
 * of the table parses as, so all files of a table agree.
 */
public final class PartitionValues
{
    public static final String HIVE_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
    private static final Pattern INTEGER_TEXT = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern DATE_PATTERN = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    private PartitionValues() {}

    public static Type inferType(Collection<String> values)
    {
        if (!values.isEmpty() && values.stream().allMatch(value -> INTEGER_TEXT.matcher(value).matches())) {
            return BIGINT;
        }
        if (!values.isEmpty() && values.stream().allMatch(PartitionValues::isDate)) {
            return DATE;
        }
        return VARCHAR;
    }

    /**
     * The value in Trino's native representation, or null for the default (NULL) partition.
     */
    /**
     * Stands for a partition value a table format keeps for a column whose type has no string form here: a file
     * without the column cannot be read (its rows would read NULL where the value is known).
     */
    public static final String UNREADABLE = "\u0000unreadable partition value";

    public static Object toNativeValue(Type type, Optional<String> value)
    {
        if (value.isEmpty()) {
            return null;
        }
        if (type.equals(BIGINT) || type.equals(INTEGER) || type.equals(SMALLINT) || type.equals(TINYINT)) {
            return Long.parseLong(value.get());
        }
        if (type.equals(DOUBLE)) {
            return Double.parseDouble(value.get());
        }
        if (type.equals(REAL)) {
            return (long) Float.floatToRawIntBits(Float.parseFloat(value.get()));
        }
        if (type instanceof DecimalType decimal) {
            // exact: a value with more digits after the point than the column's scale is an error, never rounded
            BigDecimal exact = new BigDecimal(value.get()).setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
            return decimal.isShort() ? Decimals.encodeShortScaledValue(exact, decimal.getScale()) : Decimals.encodeScaledValue(exact, decimal.getScale());
        }
        if (type.equals(BOOLEAN)) {
            return Boolean.parseBoolean(value.get());
        }
        if (type.equals(DATE)) {
            return LocalDate.parse(value.get()).toEpochDay();
        }
        if (type.equals(TIMESTAMP_TZ_MILLIS)) {
            // a hidden column's time, in epoch milliseconds: no partition folder is read as this type
            return packDateTimeWithZone(Long.parseLong(value.get()), UTC_KEY);
        }
        return Slices.utf8Slice(value.get());
    }

    private static boolean isDate(String value)
    {
        if (!DATE_PATTERN.matcher(value).matches()) {
            return false;
        }
        try {
            LocalDate.parse(value);
            return true;
        }
        catch (DateTimeParseException e) {
            return false;
        }
    }
}
