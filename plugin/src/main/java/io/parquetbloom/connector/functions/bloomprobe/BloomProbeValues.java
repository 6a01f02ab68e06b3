package io.parquetbloom.connector.functions.bloomprobe;

import io.airlift.slice.Slices;
import io.trino.spi.TrinoException;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarcharType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.UuidType.javaUuidToTrinoUuid;
import static io.trino.spi.type.VarbinaryType.VARBINARY;

/**
 * The value of {@code bloom_probe(..., value => '...')}, given as text, as the column's Trino value: the literal a
 * user would compare the column with ({@code 42}, {@code 2026-01-31}, {@code 2026-01-31 12:00:00.123},
 * {@code 12.50}, a UUID, hex digits for VARBINARY).
 */
final class BloomProbeValues
{
    private BloomProbeValues() {}

    static Object toNativeValue(String column, Type type, String text)
    {
        Object value;
        try {
            value = parse(type, text.strip());
        }
        catch (RuntimeException e) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "bloom_probe: value '%s' is not a %s, the type of column %s%s".formatted(text, type, column, e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        }
        if (isNaN(type, value)) {
            // a lookup of NaN matches no row (NaN equals nothing), and Trino's domains cannot even hold it
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "bloom_probe: value '%s' for column %s (%s) is NaN, which equals no value: a lookup of it matches no row in any row group".formatted(text, column, type));
        }
        return value;
    }

    private static boolean isNaN(Type type, Object value)
    {
        return (type.equals(DOUBLE) && Double.isNaN((double) value)) || (type.equals(REAL) && Float.isNaN(Float.intBitsToFloat((int) (long) value)));
    }

    private static Object parse(Type type, String text)
    {
        if (type instanceof VarcharType) {
            return Slices.utf8Slice(text);
        }
        if (type instanceof CharType) {
            return Slices.utf8Slice(text.replaceAll(" +$", ""));
        }
        if (type.equals(BIGINT) || type.equals(INTEGER) || type.equals(SMALLINT) || type.equals(TINYINT)) {
            long value = Long.parseLong(text);
            if ((type.equals(INTEGER) && value != (int) value) || (type.equals(SMALLINT) && value != (short) value) || (type.equals(TINYINT) && value != (byte) value)) {
                throw new IllegalArgumentException("out of range");
            }
            return value;
        }
        if (type.equals(BOOLEAN)) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("expected true or false");
            };
        }
        if (type.equals(DOUBLE)) {
            return Double.parseDouble(text);
        }
        if (type.equals(REAL)) {
            return (long) Float.floatToIntBits(Float.parseFloat(text));
        }
        if (type.equals(DATE)) {
            return LocalDate.parse(text).toEpochDay();
        }
        if (type instanceof DecimalType decimal) {
            return parseDecimal(decimal, text);
        }
        if (type instanceof TimestampType timestamp) {
            return parseTimestamp(timestamp, text);
        }
        if (type instanceof UuidType) {
            return javaUuidToTrinoUuid(UUID.fromString(text));
        }
        if (type.equals(VARBINARY)) {
            return Slices.wrappedBuffer(HexFormat.of().parseHex(text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text));
        }
        throw new IllegalArgumentException("bloom_probe does not parse values of this type");
    }

    private static Object parseDecimal(DecimalType decimal, String text)
    {
        BigDecimal value = new BigDecimal(text);
        BigInteger unscaled = value.setScale(decimal.getScale()).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(decimal.getPrecision())) >= 0) {
            throw new IllegalArgumentException("more digits than precision " + decimal.getPrecision());
        }
        return decimal.isShort() ? unscaled.longValueExact() : Int128.valueOf(unscaled);
    }

    private static Object parseTimestamp(TimestampType timestamp, String text)
    {
        LocalDateTime value = LocalDateTime.parse(text.replace(' ', 'T'));
        long picosOfSecond = value.getNano() * 1_000L;
        long unit = (long) Math.pow(10, 12 - timestamp.getPrecision());
        if (picosOfSecond % unit != 0) {
            throw new IllegalArgumentException("more fractional digits than the precision " + timestamp.getPrecision());
        }
        long epochMicros = Math.addExact(Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), 1_000_000L), value.getNano() / 1_000);
        if (timestamp.isShort()) {
            return epochMicros;
        }
        return new LongTimestamp(epochMicros, (int) (picosOfSecond % 1_000_000));
    }
}
