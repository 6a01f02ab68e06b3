package io.parquetbloom.hash;

import io.airlift.slice.Slice;
import io.airlift.slice.SliceUtf8;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static java.util.Objects.requireNonNull;

/**
 * Hashes a Trino predicate value the way a Parquet writer hashed it: XXH64 of the value's plain encoding in the
 * <em>file column's</em> physical type, logical annotation and length, which can differ from the Trino type of the
 * predicate (a BIGINT literal against an INT32 column, DECIMAL(10,2) against DECIMAL(9,2) stored as INT32,
 * TIMESTAMP(6) against an INT64 column in millis). A value the column cannot represent is {@link ValueHash.Absent};
 * anything not provably exact is {@link ValueHash.Unknown}.
 */
public final class ParquetValueHasher
{
    // DECIMAL(38) needs 16 bytes; writers may sign-extend BYTE_ARRAY decimals up to that
    private static final int MAX_DECIMAL_BYTES = 16;
    // CHAR(n) values may be stored trimmed or padded; beyond this many candidate paddings we do not probe
    private static final int MAX_CHAR_PADDING_CANDIDATES = 64;

    private ParquetValueHasher() {}

    /**
     * @param type Trino type of {@code value}
     * @param value value in Trino's native stack representation (never null: NULLs are not in bloom filters)
     * @param column the file column's primitive type
     */
    public static ValueHash hash(Type type, Object value, PrimitiveType column)
    {
        requireNonNull(type, "type is null");
        requireNonNull(value, "value is null");
        requireNonNull(column, "column is null");
        try {
            return switch (column.getPrimitiveTypeName()) {
                case INT96 -> unknown("INT96 timestamps are not pruned");
                case BOOLEAN -> unknown("BOOLEAN columns have no bloom filters");
                default -> hashChecked(type, value, column);
            };
        }
        catch (ClassCastException | ArithmeticException e) {
            return unknown("cannot convert %s value: %s".formatted(type, e.getMessage()));
        }
    }

    private static ValueHash hashChecked(Type type, Object value, PrimitiveType column)
    {
        if (type instanceof BigintType || type instanceof IntegerType || type instanceof SmallintType || type instanceof TinyintType) {
            return hashExactNumber(BigDecimal.valueOf((long) value), (long) value, column);
        }
        if (type instanceof DecimalType decimal) {
            BigInteger unscaled = decimal.isShort() ? BigInteger.valueOf((long) value) : ((Int128) value).toBigInteger();
            return hashExactNumber(new BigDecimal(unscaled, decimal.getScale()), null, column);
        }
        if (type instanceof RealType) {
            return hashFloatingPoint(Float.intBitsToFloat((int) (long) value), column);
        }
        if (type instanceof DoubleType) {
            return hashFloatingPoint((double) value, column);
        }
        if (type instanceof VarcharType) {
            return hashString((Slice) value, column);
        }
        if (type instanceof CharType charType) {
            return hashChar((Slice) value, charType.getLength(), column);
        }
        if (type instanceof VarbinaryType) {
            return hashBinary((Slice) value, column);
        }
        if (type instanceof UuidType) {
            return hashUuid((Slice) value, column);
        }
        if (type instanceof DateType) {
            return hashDate((long) value, column);
        }
        if (type instanceof TimestampType timestamp) {
            return hashTimestamp(timestamp, value, column);
        }
        if (type instanceof TimestampWithTimeZoneType timestamp) {
            return hashTimestampWithTimeZone(timestamp, value, column);
        }
        return unknown("type %s is not pruned by bloom filters".formatted(type));
    }

    /**
     * Integers and decimals: the column holds either integers (INT32/INT64, optionally INT(n, signed) annotated)
     * or decimals of a fixed scale (DECIMAL on INT32/INT64/FIXED_LEN_BYTE_ARRAY/BYTE_ARRAY).
     *
     * @param fastLong the value when it is known to be an integer that fits a long (avoids BigDecimal work)
     */
    private static ValueHash hashExactNumber(BigDecimal number, Long fastLong, PrimitiveType column)
    {
        LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
        if (annotation instanceof DecimalLogicalTypeAnnotation decimal) {
            return hashDecimal(number, decimal.getScale(), column);
        }
        boolean signed = true;
        int width = UnsignedIntegers.readWidth(column);
        if (annotation instanceof IntLogicalTypeAnnotation intAnnotation) {
            signed = intAnnotation.isSigned();
        }
        else if (annotation != null) {
            return unknown("numeric value against a %s column".formatted(annotation));
        }
        return switch (column.getPrimitiveTypeName()) {
            case INT32, INT64 -> {
                BigInteger integer = fastLong != null ? null : integralValue(number);
                if (fastLong == null && integer == null) {
                    yield new ValueHash.Absent("%s has a fraction; the integer column cannot hold it".formatted(number));
                }
                yield hashInteger(fastLong != null ? BigInteger.valueOf(fastLong) : integer, signed, width, column);
            }
            default -> unknown("numeric value against %s column".formatted(column.getPrimitiveTypeName()));
        };
    }

    /**
     * @param width the annotation's bit width ({@code INT(8, true)}), else the physical one: the values the connector
     * reads from the column lie in that width's range (see {@link UnsignedIntegers})
     */
    private static ValueHash hashInteger(BigInteger value, boolean signed, int width, PrimitiveType column)
    {
        boolean int32 = column.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32;
        if (signed) {
            if (value.bitLength() > width - 1) {
                return new ValueHash.Absent("%s is outside the %d-bit range of %s".formatted(value, width, column.getPrimitiveTypeName()));
            }
        }
        else if (value.signum() < 0 || value.compareTo(BigInteger.ONE.shiftLeft(width)) >= 0) {
            return new ValueHash.Absent("%s is outside the unsigned %d-bit range".formatted(value, width));
        }
        // writers store an unsigned value as the INT32/INT64 with the same low bits (zero-extended below 32 bits);
        // for widths below the physical one the pruner uses the filter only where statistics prove the chunk's stored
        // values are in range, so the stored value is the value read
        return ValueHash.of(int32 ? XxHash64.hashInt(value.intValue()) : XxHash64.hashLong(value.longValue()));
    }

    private static BigInteger integralValue(BigDecimal number)
    {
        try {
            return number.setScale(0, RoundingMode.UNNECESSARY).unscaledValue();
        }
        catch (ArithmeticException e) {
            return null;
        }
    }

    private static ValueHash hashDecimal(BigDecimal number, int columnScale, PrimitiveType column)
    {
        BigInteger unscaled;
        try {
            unscaled = number.setScale(columnScale, RoundingMode.UNNECESSARY).unscaledValue();
        }
        catch (ArithmeticException e) {
            return new ValueHash.Absent("%s has more fractional digits than the column's scale %d".formatted(number, columnScale));
        }
        return switch (column.getPrimitiveTypeName()) {
            case INT32 -> unscaled.bitLength() > 31
                    ? new ValueHash.Absent("unscaled %s exceeds INT32".formatted(unscaled))
                    : ValueHash.of(XxHash64.hashInt(unscaled.intValue()));
            case INT64 -> unscaled.bitLength() > 63
                    ? new ValueHash.Absent("unscaled %s exceeds INT64".formatted(unscaled))
                    : ValueHash.of(XxHash64.hashLong(unscaled.longValue()));
            case FIXED_LEN_BYTE_ARRAY -> {
                byte[] minimal = unscaled.toByteArray();
                int length = column.getTypeLength();
                if (minimal.length > length) {
                    yield new ValueHash.Absent("unscaled %s needs %d bytes, the column has %d".formatted(unscaled, minimal.length, length));
                }
                yield ValueHash.of(XxHash64.hashBytes(signExtend(minimal, unscaled.signum(), length)));
            }
            case BINARY -> {
                // writers should store the minimal two's complement, but readers accept any sign extension,
                // so a padded encoding must not make us prune a row group that holds the value
                byte[] minimal = unscaled.toByteArray();
                int longest = Math.max(minimal.length, MAX_DECIMAL_BYTES);
                long[] hashes = new long[longest - minimal.length + 1];
                for (int length = minimal.length; length <= longest; length++) {
                    hashes[length - minimal.length] = XxHash64.hashBytes(signExtend(minimal, unscaled.signum(), length));
                }
                yield new ValueHash.Hashes(hashes);
            }
            default -> unknown("DECIMAL on %s".formatted(column.getPrimitiveTypeName()));
        };
    }

    private static byte[] signExtend(byte[] minimal, int signum, int length)
    {
        byte[] result = new byte[length];
        byte fill = signum < 0 ? (byte) 0xFF : 0;
        int padding = length - minimal.length;
        for (int i = 0; i < padding; i++) {
            result[i] = fill;
        }
        System.arraycopy(minimal, 0, result, padding, minimal.length);
        return result;
    }

    private static ValueHash hashFloatingPoint(double value, PrimitiveType column)
    {
        if (Double.isNaN(value)) {
            return unknown("NaN is never pruned");
        }
        if (value == 0) {
            // 0.0 = -0.0 in SQL, yet their encodings differ
            return unknown("signed zero is never pruned");
        }
        if (column.getLogicalTypeAnnotation() != null) {
            return unknown("floating point value against a %s column".formatted(column.getLogicalTypeAnnotation()));
        }
        return switch (column.getPrimitiveTypeName()) {
            case FLOAT -> {
                float narrowed = (float) value;
                if ((double) narrowed != value) {
                    yield new ValueHash.Absent("%s is not representable as REAL".formatted(value));
                }
                yield ValueHash.of(XxHash64.hashInt(Float.floatToRawIntBits(narrowed)));
            }
            case DOUBLE -> ValueHash.of(XxHash64.hashLong(Double.doubleToRawLongBits(value)));
            default -> unknown("floating point value against %s column".formatted(column.getPrimitiveTypeName()));
        };
    }

    /**
     * Whether every value of {@code type} has one stored encoding in {@code column}; not so for CHAR (any padding)
     * and for DECIMAL in BINARY (any sign extension), whose stored bytes may differ from the canonical encoding.
     */
    public static boolean storedInOneEncoding(Type type, PrimitiveType column)
    {
        boolean binaryDecimal = column.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                && column.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
        return !binaryDecimal && !(type instanceof CharType);
    }

    private static boolean isTextOrBinary(PrimitiveType column)
    {
        LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
        return column.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                && (annotation == null
                || annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation);
    }

    private static ValueHash hashString(Slice value, PrimitiveType column)
    {
        if (!isTextOrBinary(column)) {
            return unknown("VARCHAR value against %s %s column".formatted(column.getPrimitiveTypeName(), column.getLogicalTypeAnnotation()));
        }
        return ValueHash.of(XxHash64.hashSlice(value));
    }

    /**
     * Trino holds CHAR(n) values without trailing spaces and compares them padded; files may store any padding
     * from none up to n, so every such encoding is a candidate.
     */
    private static ValueHash hashChar(Slice trimmed, int length, PrimitiveType column)
    {
        if (!isTextOrBinary(column)) {
            return unknown("CHAR value against %s %s column".formatted(column.getPrimitiveTypeName(), column.getLogicalTypeAnnotation()));
        }
        int codePoints = SliceUtf8.countCodePoints(trimmed);
        int paddings = Math.max(0, length - codePoints) + 1;
        if (paddings > MAX_CHAR_PADDING_CANDIDATES) {
            return unknown("CHAR(%d) value would need %d padding candidates".formatted(length, paddings));
        }
        byte[] padded = new byte[trimmed.length() + paddings - 1];
        trimmed.getBytes(0, padded, 0, trimmed.length());
        Arrays.fill(padded, trimmed.length(), padded.length, (byte) ' ');
        long[] hashes = new long[paddings];
        for (int i = 0; i < paddings; i++) {
            hashes[i] = XxHash64.hashBytes(padded, 0, trimmed.length() + i);
        }
        return new ValueHash.Hashes(hashes);
    }

    private static ValueHash hashBinary(Slice value, PrimitiveType column)
    {
        if (isTextOrBinary(column)) {
            return ValueHash.of(XxHash64.hashSlice(value));
        }
        LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
        if (column.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && (annotation == null || annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation)) {
            if (value.length() != column.getTypeLength()) {
                return new ValueHash.Absent("%d bytes cannot be stored in FIXED_LEN_BYTE_ARRAY(%d)".formatted(value.length(), column.getTypeLength()));
            }
            return ValueHash.of(XxHash64.hashSlice(value));
        }
        return unknown("VARBINARY value against %s %s column".formatted(column.getPrimitiveTypeName(), annotation));
    }

    private static ValueHash hashUuid(Slice value, PrimitiveType column)
    {
        LogicalTypeAnnotation annotation = column.getLogicalTypeAnnotation();
        if (column.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                || column.getTypeLength() != 16
                || !(annotation == null || annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation)) {
            return unknown("UUID value against %s %s column".formatted(column.getPrimitiveTypeName(), annotation));
        }
        // Trino's UUID slice holds the 16 bytes in big-endian order, exactly as Parquet stores them
        return ValueHash.of(XxHash64.hashSlice(value));
    }

    private static ValueHash hashDate(long days, PrimitiveType column)
    {
        if (column.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT32
                || !(column.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation)) {
            return unknown("DATE value against %s %s column".formatted(column.getPrimitiveTypeName(), column.getLogicalTypeAnnotation()));
        }
        if (days != (int) days) {
            return new ValueHash.Absent("date %d days is outside INT32".formatted(days));
        }
        return ValueHash.of(XxHash64.hashInt((int) days));
    }

    private static ValueHash hashTimestamp(TimestampType type, Object value, PrimitiveType column)
    {
        long epochMicros;
        long picosOfMicro;
        if (type.isShort()) {
            epochMicros = (long) value;
            picosOfMicro = 0;
        }
        else {
            LongTimestamp timestamp = (LongTimestamp) value;
            epochMicros = timestamp.getEpochMicros();
            picosOfMicro = timestamp.getPicosOfMicro();
        }
        // the instant in picoseconds, split as (micros, picos of micro)
        return hashInstant(BigInteger.valueOf(epochMicros).multiply(BigInteger.valueOf(1_000_000)).add(BigInteger.valueOf(picosOfMicro)), column);
    }

    private static ValueHash hashTimestampWithTimeZone(TimestampWithTimeZoneType type, Object value, PrimitiveType column)
    {
        long epochMillis;
        long picosOfMilli;
        if (type.isShort()) {
            epochMillis = unpackMillisUtc((long) value);
            picosOfMilli = 0;
        }
        else {
            LongTimestampWithTimeZone timestamp = (LongTimestampWithTimeZone) value;
            epochMillis = timestamp.getEpochMillis();
            picosOfMilli = timestamp.getPicosOfMilli();
        }
        return hashInstant(BigInteger.valueOf(epochMillis).multiply(BigInteger.valueOf(1_000_000_000)).add(BigInteger.valueOf(picosOfMilli)), column);
    }

    /**
     * An INT64 TIMESTAMP column stores the count of its unit since the epoch; a value between two ticks of that
     * unit cannot be stored, so it is absent.
     */
    private static ValueHash hashInstant(BigInteger epochPicos, PrimitiveType column)
    {
        if (column.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT64
                || !(column.getLogicalTypeAnnotation() instanceof TimestampLogicalTypeAnnotation timestamp)) {
            return unknown("timestamp value against %s %s column".formatted(column.getPrimitiveTypeName(), column.getLogicalTypeAnnotation()));
        }
        long picosPerUnit = switch (timestamp.getUnit()) {
            case MILLIS -> 1_000_000_000L;
            case MICROS -> 1_000_000L;
            case NANOS -> 1_000L;
        };
        BigInteger[] quotientAndRemainder = epochPicos.divideAndRemainder(BigInteger.valueOf(picosPerUnit));
        if (quotientAndRemainder[1].signum() != 0) {
            return new ValueHash.Absent("timestamp is finer than the column's %s unit".formatted(timestamp.getUnit()));
        }
        BigInteger ticks = quotientAndRemainder[0];
        if (ticks.bitLength() > 63) {
            return new ValueHash.Absent("timestamp is outside the INT64 %s range".formatted(timestamp.getUnit()));
        }
        return ValueHash.of(XxHash64.hashLong(ticks.longValue()));
    }

    private static ValueHash unknown(String reason)
    {
        return new ValueHash.Unknown(reason);
    }
}
