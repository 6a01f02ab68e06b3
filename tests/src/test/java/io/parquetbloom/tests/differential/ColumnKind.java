package io.parquetbloom.tests.differential;

import io.airlift.slice.Slices;
import io.parquetbloom.testing.TestingLake;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * One physical/logical Parquet type pairing: how the generator draws its values (as plain Java values: Long,
 * BigInteger, BigDecimal, Float, Double, String, byte[], Boolean), writes them with parquet-java and with Trino's
 * writer, and spells them as SQL literals for predicates and for the oracle.
 */
public enum ColumnKind
{
    INT32("int32", null),
    INT64("int64", null),
    INT8("int32", "INTEGER(8,true)"),
    INT16("int32", "INTEGER(16,true)"),
    UINT8("int32", "INTEGER(8,false)"),
    UINT16("int32", "INTEGER(16,false)"),
    UINT32("int32", "INTEGER(32,false)"),
    UINT64("int64", "INTEGER(64,false)"),
    DECIMAL_INT32("int32", "DECIMAL(9,2)"),
    DECIMAL_INT64("int64", "DECIMAL(18,4)"),
    DECIMAL_FIXED("fixed_len_byte_array(9)", "DECIMAL(20,4)"),
    DECIMAL_BINARY("binary", "DECIMAL(30,5)"),
    // stored sign-extended beyond the minimal two's complement, as some writers do: a bloom filter then holds the
    // padded bytes, which a reader (and a key index, which hashes what it reads) takes for the same value
    DECIMAL_BINARY_PADDED("binary", "DECIMAL(30,5)"),
    FLOAT("float", null),
    DOUBLE_("double", null),
    STRING("binary", "STRING"),
    BINARY("binary", null),
    UUID_("fixed_len_byte_array(16)", "UUID"),
    FIXED8("fixed_len_byte_array(8)", null),
    DATE_("int32", "DATE"),
    TIMESTAMP_MILLIS("int64", "TIMESTAMP(MILLIS,false)"),
    TIMESTAMP_MICROS_("int64", "TIMESTAMP(MICROS,false)"),
    TIMESTAMP_NANOS("int64", "TIMESTAMP(NANOS,false)"),
    TIMESTAMP_TZ_MILLIS("int64", "TIMESTAMP(MILLIS,true)"),
    TIMESTAMP_TZ_MICROS("int64", "TIMESTAMP(MICROS,true)"),
    BOOLEAN_("boolean", null),
    // legacy nanosecond timestamps (Impala, Spark before 3): read as timestamp(9), never pruned by filter or index
    INT96("int96", null),
    TIME_MILLIS("int32", "TIME(MILLIS,true)"),
    TIME_MICROS("int64", "TIME(MICROS,false)"),
    // a key inside a struct: read as row(k bigint); no filter or index can take it
    NESTED("group", null);

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

    private static final BigInteger TWO_POW_64 = BigInteger.ONE.shiftLeft(64);
    private static final long EPOCH_2000_SECONDS = 946_684_800L;

    private final String physical;
    private final String annotation;

    ColumnKind(String physical, String annotation)
    {
        this.physical = physical;
        this.annotation = annotation;
    }

    /**
     * The field in a parquet-java schema string.
     */
    public String parquetField(String repetition, String name)
    {
        if (this == NESTED) {
            return "%s group %s { optional int64 k; }".formatted(repetition, name);
        }
        return "%s %s %s%s;".formatted(repetition, physical, name, annotation == null ? "" : " (" + annotation + ")");
    }

    /**
     * The Trino type Trino's own writer is given for this kind, when that writer can write it.
     */
    public Optional<Type> trinoWriterType()
    {
        return Optional.ofNullable(switch (this) {
            case INT32 -> INTEGER;
            case INT64 -> BIGINT;
            case INT8 -> TINYINT;
            case INT16 -> SMALLINT;
            case DECIMAL_INT32 -> DecimalType.createDecimalType(9, 2);
            case DECIMAL_INT64 -> DecimalType.createDecimalType(18, 4);
            case FLOAT -> REAL;
            case DOUBLE_ -> DOUBLE;
            case STRING -> VARCHAR;
            case BINARY -> VARBINARY;
            case UUID_ -> UuidType.UUID;
            case DATE_ -> DATE;
            case TIMESTAMP_MILLIS -> TimestampType.TIMESTAMP_MILLIS;
            case TIMESTAMP_MICROS_ -> TimestampType.TIMESTAMP_MICROS;
            case BOOLEAN_ -> BOOLEAN;
            default -> null;
        });
    }

    public boolean hasBloomFilters()
    {
        return this != BOOLEAN_ && this != NESTED;
    }

    /**
     * Whether a key index can be asked for on a column of this kind (a primitive column; its files may still be left
     * out where the values have no exact hash).
     */
    public boolean indexable()
    {
        return this != NESTED;
    }

    /**
     * A random value; about one in eight is an edge of the kind's range (extremes, signed zeros, NaN, empty).
     */
    public Object random(SplittableRandom random)
    {
        boolean edge = random.nextInt(8) == 0;
        return switch (this) {
            case INT32 -> edge ? pick(random, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 0L, -1L) : (long) random.nextInt();
            case INT64 -> edge ? pick(random, Long.MIN_VALUE, Long.MAX_VALUE, 0L, (long) Integer.MAX_VALUE + 1) : random.nextLong();
            case INT8 -> edge ? pick(random, -128L, 127L, 0L) : (long) random.nextInt(-128, 128);
            case INT16 -> edge ? pick(random, -32768L, 32767L, 0L) : (long) random.nextInt(-32768, 32768);
            case UINT8 -> edge ? pick(random, 0L, 255L, 128L, 127L) : (long) random.nextInt(256);
            case UINT16 -> edge ? pick(random, 0L, 65535L, 32768L, 32767L) : (long) random.nextInt(65536);
            case UINT32 -> edge ? pick(random, 0L, 4_294_967_295L, 2_147_483_648L, 2_147_483_647L) : random.nextLong(1L << 32);
            case UINT64 -> edge
                    ? pick(random, BigInteger.ZERO, TWO_POW_64.subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(63), BigInteger.valueOf(Long.MAX_VALUE))
                    : new BigInteger(64, new Random(random.nextLong()));
            case DECIMAL_INT32 -> BigDecimal.valueOf(edge ? pick(random, 999_999_999L, -999_999_999L, 0L) : random.nextLong(-999_999_999L, 1_000_000_000L), 2);
            case DECIMAL_INT64 -> BigDecimal.valueOf(edge ? pick(random, 999_999_999_999_999_999L, -999_999_999_999_999_999L, 0L) : random.nextLong(-999_999_999_999_999_999L, 999_999_999_999_999_999L), 4);
            case DECIMAL_FIXED -> new BigDecimal(edge ? pick(random, BigInteger.TEN.pow(20).subtract(BigInteger.ONE), BigInteger.TEN.pow(20).subtract(BigInteger.ONE).negate(), BigInteger.ZERO) : BigInteger.valueOf(random.nextLong()).multiply(BigInteger.valueOf(random.nextInt(1, 5))), 4);
            case DECIMAL_BINARY, DECIMAL_BINARY_PADDED -> new BigDecimal(edge ? pick(random, BigInteger.TEN.pow(30).subtract(BigInteger.ONE), BigInteger.TEN.pow(30).subtract(BigInteger.ONE).negate(), BigInteger.ZERO, BigInteger.ONE.negate()) : BigInteger.valueOf(random.nextLong()).multiply(BigInteger.valueOf(random.nextLong(1, 1_000_000))), 5);
            case FLOAT -> edge ? pick(random, 0.0f, -0.0f, Float.NaN, Float.MAX_VALUE, -Float.MIN_VALUE) : (float) (random.nextInt(-1_000_000, 1_000_000) / 64.0);
            case DOUBLE_ -> edge ? pick(random, 0.0, -0.0, Double.NaN, Double.MAX_VALUE, Double.MIN_VALUE) : random.nextInt(-1_000_000, 1_000_000) / 1024.0 + random.nextInt(3) * 1e-9;
            case STRING -> edge ? pick(random, "", "Ü-ñ-東京", " padded ", "O'Brien") : randomText(random);
            case BINARY -> edge ? pick(random, new byte[0], new byte[] {0}, new byte[] {-1, -1}) : bytes(random, random.nextInt(1, 12));
            case UUID_ -> bytes(random, 16);
            case FIXED8 -> edge ? new byte[8] : bytes(random, 8);
            case DATE_ -> edge ? pick(random, 0L, -1L, 47_482L) : (long) random.nextInt(7_000, 30_000);
            // epoch counts in the unit, between 1990 and 2050
            case TIMESTAMP_MILLIS, TIMESTAMP_TZ_MILLIS -> epoch(random, edge, 1_000L);
            case TIMESTAMP_MICROS_, TIMESTAMP_TZ_MICROS -> epoch(random, edge, 1_000_000L);
            case TIMESTAMP_NANOS -> epoch(random, edge, 1_000_000_000L);
            case BOOLEAN_ -> random.nextBoolean();
            case INT96 -> epoch(random, edge, 1_000_000_000L);
            case TIME_MILLIS -> edge ? pick(random, 0L, 86_399_999L) : random.nextLong(86_400_000L);
            case TIME_MICROS -> edge ? pick(random, 0L, 86_399_999_999L) : random.nextLong(86_400_000_000L);
            case NESTED -> edge ? pick(random, Long.MIN_VALUE, 0L, Long.MAX_VALUE) : random.nextLong(-1_000_000, 1_000_000);
        };
    }

    private static long epoch(SplittableRandom random, boolean edge, long unitsPerSecond)
    {
        if (edge) {
            return EPOCH_2000_SECONDS * unitsPerSecond + pick(random, 0L, 1L, -1L);
        }
        return random.nextLong(631_152_000L, 2_524_608_000L) * unitsPerSecond + random.nextLong(unitsPerSecond);
    }

    @SafeVarargs
    private static <T> T pick(SplittableRandom random, T... values)
    {
        return values[random.nextInt(values.length)];
    }

    private static String randomText(SplittableRandom random)
    {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(1, 20);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEF0123456789-_ é";
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static byte[] bytes(SplittableRandom random, int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * Appends a value to a parquet-java example group.
     */
    public void append(Group group, String field, Object value)
    {
        switch (this) {
            case INT32, INT8, INT16, UINT8, UINT16, DATE_ -> group.append(field, (int) (long) (Long) value);
            // the low 32 bits: values at or above 2^31 are stored as negative INT32, as unsigned writers do
            case UINT32 -> group.append(field, (int) (long) (Long) value);
            case INT64, TIMESTAMP_MILLIS, TIMESTAMP_MICROS_, TIMESTAMP_NANOS, TIMESTAMP_TZ_MILLIS, TIMESTAMP_TZ_MICROS -> group.append(field, (long) (Long) value);
            case UINT64 -> group.append(field, ((BigInteger) value).longValue());
            case DECIMAL_INT32 -> group.append(field, ((BigDecimal) value).unscaledValue().intValueExact());
            case DECIMAL_INT64 -> group.append(field, ((BigDecimal) value).unscaledValue().longValueExact());
            case DECIMAL_FIXED -> group.append(field, Binary.fromConstantByteArray(TestingLake.signExtend(((BigDecimal) value).unscaledValue(), 9)));
            case DECIMAL_BINARY -> group.append(field, Binary.fromConstantByteArray(((BigDecimal) value).unscaledValue().toByteArray()));
            case DECIMAL_BINARY_PADDED -> group.append(field, Binary.fromConstantByteArray(padded((BigDecimal) value)));
            case INT96 -> group.append(field, int96((Long) value));
            case TIME_MILLIS -> group.append(field, (int) (long) (Long) value);
            case TIME_MICROS -> group.append(field, (long) (Long) value);
            case NESTED -> group.addGroup(field).append("k", (long) (Long) value);
            case FLOAT -> group.append(field, (float) (Float) value);
            case DOUBLE_ -> group.append(field, (double) (Double) value);
            case STRING -> group.append(field, (String) value);
            case BINARY, UUID_, FIXED8 -> group.append(field, Binary.fromConstantByteArray((byte[]) value));
            case BOOLEAN_ -> group.append(field, (boolean) (Boolean) value);
        }
    }

    /**
     * The value as Trino's writer takes it (the native value of {@link #trinoWriterType()}).
     */
    public Object trinoNative(Object value)
    {
        return switch (this) {
            case INT32, INT64, INT8, INT16, DATE_ -> value;
            case DECIMAL_INT32, DECIMAL_INT64 -> ((BigDecimal) value).unscaledValue().longValueExact();
            case FLOAT -> (long) Float.floatToRawIntBits((Float) value);
            case DOUBLE_, BOOLEAN_ -> value;
            case STRING -> Slices.utf8Slice((String) value);
            case BINARY, UUID_ -> Slices.wrappedBuffer((byte[]) value);
            // Trino's short timestamps are epoch microseconds
            case TIMESTAMP_MILLIS -> (Long) value * 1_000;
            case TIMESTAMP_MICROS_ -> value;
            default -> throw new IllegalArgumentException("Trino's writer does not write " + this);
        };
    }

    /**
     * The value as a SQL literal of the type the connector reads the column as.
     */
    public String literal(Object value)
    {
        if (value == null) {
            return "NULL";
        }
        return switch (this) {
            case INT32 -> "INTEGER '%s'".formatted(value);
            case INT64 -> "BIGINT '%s'".formatted(value);
            case INT8 -> "TINYINT '%s'".formatted(value);
            case INT16, UINT8 -> "SMALLINT '%s'".formatted(value);
            case UINT16 -> "INTEGER '%s'".formatted(value);
            case UINT32 -> "BIGINT '%s'".formatted(value);
            case UINT64 -> "CAST(DECIMAL '%s' AS decimal(20,0))".formatted(value);
            case DECIMAL_INT32, DECIMAL_INT64, DECIMAL_FIXED, DECIMAL_BINARY, DECIMAL_BINARY_PADDED -> "DECIMAL '%s'".formatted(((BigDecimal) value).toPlainString());
            case FLOAT -> Float.isNaN((Float) value) ? "CAST(nan() AS real)" : "REAL '%s'".formatted(value);
            case DOUBLE_ -> Double.isNaN((Double) value) ? "nan()" : "DOUBLE '%s'".formatted(value);
            case STRING -> "'" + ((String) value).replace("'", "''") + "'";
            case BINARY, FIXED8 -> "X'%s'".formatted(HexFormat.of().formatHex((byte[]) value));
            case UUID_ -> {
                ByteBuffer buffer = ByteBuffer.wrap((byte[]) value);
                yield "UUID '%s'".formatted(new UUID(buffer.getLong(), buffer.getLong()));
            }
            case DATE_ -> "DATE '%s'".formatted(LocalDate.ofEpochDay((Long) value));
            case TIMESTAMP_MILLIS -> "TIMESTAMP '%s'".formatted(timestamp((Long) value, 1_000L, 3));
            case TIMESTAMP_MICROS_ -> "TIMESTAMP '%s'".formatted(timestamp((Long) value, 1_000_000L, 6));
            case TIMESTAMP_NANOS -> "TIMESTAMP '%s'".formatted(timestamp((Long) value, 1_000_000_000L, 9));
            case TIMESTAMP_TZ_MILLIS -> "TIMESTAMP '%s UTC'".formatted(timestamp((Long) value, 1_000L, 3));
            case TIMESTAMP_TZ_MICROS -> "TIMESTAMP '%s UTC'".formatted(timestamp((Long) value, 1_000_000L, 6));
            case BOOLEAN_ -> value.toString();
            case INT96 -> "TIMESTAMP '%s'".formatted(timestamp((Long) value, 1_000_000_000L, 9));
            case TIME_MILLIS -> "TIME '%s'".formatted(time((Long) value, 1_000L, 3));
            case TIME_MICROS -> "TIME '%s'".formatted(time((Long) value, 1_000_000L, 6));
            case NESTED -> "CAST(ROW(BIGINT '%s') AS ROW(k bigint))".formatted(value);
        };
    }

    private static String time(long units, long unitsPerSecond, int digits)
    {
        long seconds = units / unitsPerSecond;
        return "%02d:%02d:%02d.%s".formatted(seconds / 3600, seconds / 60 % 60, seconds % 60, padded(units % unitsPerSecond, digits));
    }

    /**
     * The unscaled value sign-extended to between its minimal length and 16 bytes (a length the value picks, so a
     * value is always stored alike).
     */
    private static byte[] padded(BigDecimal value)
    {
        BigInteger unscaled = value.unscaledValue();
        int minimal = unscaled.toByteArray().length;
        int length = minimal >= 16 ? minimal : minimal + Math.floorMod(unscaled.hashCode(), 17 - minimal);
        return TestingLake.signExtend(unscaled, length);
    }

    /**
     * An INT96 timestamp: nanoseconds of the day, then the Julian day, both little-endian.
     */
    private static Binary int96(long epochNanos)
    {
        long day = Math.floorDiv(epochNanos, NANOS_PER_DAY);
        ByteBuffer buffer = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(Math.floorMod(epochNanos, NANOS_PER_DAY));
        buffer.putInt((int) (day + JULIAN_DAY_OF_EPOCH));
        return Binary.fromConstantByteArray(buffer.array());
    }

    private static String timestamp(long epoch, long unitsPerSecond, int digits)
    {
        long seconds = Math.floorDiv(epoch, unitsPerSecond);
        long fraction = Math.floorMod(epoch, unitsPerSecond);
        LocalDateTime time = LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds), ZoneOffset.UTC);
        return "%s %02d:%02d:%02d.%s".formatted(time.toLocalDate(), time.getHour(), time.getMinute(), time.getSecond(), padded(fraction, digits));
    }

    private static String padded(long value, int digits)
    {
        String text = Long.toString(value);
        return "0".repeat(digits - text.length()) + text;
    }

    /**
     * Values that equal each other in SQL map to one key, so pools of distinct values are distinct in SQL.
     */
    public Object identity(Object value)
    {
        return switch (value) {
            case byte[] bytes -> HexFormat.of().formatHex(bytes);
            case BigDecimal decimal -> decimal.stripTrailingZeros();
            case Float real -> real == 0 ? 0.0f : real;
            case Double real -> real == 0 ? 0.0 : real;
            default -> value;
        };
    }

    /**
     * The kinds Trino's Iceberg connector writes as this connector reads them: not tinyint or smallint (Iceberg has
     * neither), not millisecond timestamps (Iceberg keeps microseconds).
     */
    static List<ColumnKind> icebergWritable()
    {
        return trinoWritable().stream().filter(kind -> kind != INT8 && kind != INT16 && kind != TIMESTAMP_MILLIS).toList();
    }

    static List<ColumnKind> trinoWritable()
    {
        return Arrays.stream(values()).filter(kind -> kind.trinoWriterType().isPresent()).toList();
    }
}
