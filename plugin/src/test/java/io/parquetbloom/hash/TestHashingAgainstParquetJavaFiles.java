package io.parquetbloom.hash;

import io.airlift.slice.Slices;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.testing.FooterBloomFilters;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.Math.floorDiv;
import static java.lang.Math.floorMod;
import static java.util.UUID.randomUUID;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values written by parquet-java into a real file with bloom filters must be found by hashing the equivalent Trino
 * value against the file's column type, including Trino types that differ from the column's.
 */
final class TestHashingAgainstParquetJavaFiles
{
    private static final int ROWS = 3_000;
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message test {
              required int32 i32;
              required int32 i8 (INTEGER(8,true));
              required int32 u32 (INTEGER(32,false));
              required int64 i64;
              required float f;
              required double d;
              required binary s (STRING);
              required binary padded (STRING);
              required binary b;
              required fixed_len_byte_array(16) u (UUID);
              required int32 dt (DATE);
              required int64 ts_ms (TIMESTAMP(MILLIS,true));
              required int64 ts_us (TIMESTAMP(MICROS,false));
              required int64 ts_ns (TIMESTAMP(NANOS,true));
              required int32 dec_i32 (DECIMAL(9,2));
              required int64 dec_i64 (DECIMAL(18,4));
              required fixed_len_byte_array(13) dec_flba (DECIMAL(30,5));
              required binary dec_bin (DECIMAL(38,10));
            }
            """);

    private record Row(int i32, int i8, int u32, long i64, float f, double d, String s, String padded, byte[] b, UUID u, int dt,
            long tsMs, long tsUs, long tsNs, int decI32, long decI64, BigInteger decFlba, BigInteger decBin) {}

    private static final List<Row> ROWS_WRITTEN = new ArrayList<>();
    private static final Map<String, SplitBlockBloomFilter> FILTERS = new HashMap<>();

    @BeforeAll
    static void writeFile(@TempDir Path directory)
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < ROWS; i++) {
            byte[] bytes = new byte[random.nextInt(1, 40)];
            random.nextBytes(bytes);
            ROWS_WRITTEN.add(new Row(
                    random.nextInt(),
                    random.nextInt(-128, 128),
                    random.nextInt(),
                    random.nextLong(),
                    nonZeroFloat(random),
                    random.nextDouble(-1e9, 1e9) + 0.5,
                    randomUUID().toString() + "é",
                    "k" + random.nextInt(1_000_000) + " ".repeat(random.nextInt(0, 4)),
                    bytes,
                    new UUID(random.nextLong(), random.nextLong()),
                    random.nextInt(-100_000, 100_000),
                    random.nextLong(-4_000_000_000_000L, 4_000_000_000_000L),
                    random.nextLong(-4_000_000_000_000_000L, 4_000_000_000_000_000L),
                    random.nextLong(),
                    random.nextInt(-999_999_999, 1_000_000_000),
                    random.nextLong(-999_999_999_999_999_999L, 999_999_999_999_999_999L),
                    new BigInteger(96, new Random(random.nextLong())).subtract(BigInteger.ONE.shiftLeft(95)),
                    new BigInteger(120, new Random(random.nextLong())).subtract(BigInteger.ONE.shiftLeft(119))));
        }

        Path file = directory.resolve("all_types.parquet");
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withType(SCHEMA)
                .withConf(new Configuration(false))
                // all-dictionary chunks get no filter in parquet-java
                .withDictionaryEncoding(false);
        for (org.apache.parquet.schema.Type field : SCHEMA.getFields()) {
            builder.withBloomFilterEnabled(field.getName(), true)
                    .withBloomFilterNDV(field.getName(), ROWS)
                    .withBloomFilterFPP(field.getName(), 0.01);
        }
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = builder.build()) {
            for (Row row : ROWS_WRITTEN) {
                Group group = groups.newGroup()
                        .append("i32", row.i32())
                        .append("i8", row.i8())
                        .append("u32", row.u32())
                        .append("i64", row.i64())
                        .append("f", row.f())
                        .append("d", row.d())
                        .append("s", row.s())
                        .append("padded", row.padded())
                        .append("b", Binary.fromConstantByteArray(row.b()))
                        .append("u", Binary.fromConstantByteArray(uuidBytes(row.u())))
                        .append("dt", row.dt())
                        .append("ts_ms", row.tsMs())
                        .append("ts_us", row.tsUs())
                        .append("ts_ns", row.tsNs())
                        .append("dec_i32", row.decI32())
                        .append("dec_i64", row.decI64())
                        .append("dec_flba", Binary.fromConstantByteArray(signExtend(row.decFlba().toByteArray(), 13)))
                        .append("dec_bin", Binary.fromConstantByteArray(row.decBin().toByteArray()));
                writer.write(group);
            }
        }

        for (FooterBloomFilters.ChunkFilter chunk : FooterBloomFilters.readFilters(Files.readAllBytes(file))) {
            assertThat(chunk.declaredLength()).as("parquet-java writes bloom_filter_length").isPresent();
            assertThat(chunk.result()).as(chunk.path()).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
            FILTERS.put(chunk.path(), ((SplitBlockBloomFilterReader.Result.Usable) chunk.result()).filter());
        }
        assertThat(FILTERS.keySet()).hasSize(SCHEMA.getFieldCount());
    }

    @Test
    void everyWrittenValueIsFoundUnderEveryEquivalentTrinoType()
    {
        int probes = 0;
        for (Row row : ROWS_WRITTEN) {
            assertFound("i32", INTEGER, (long) row.i32());
            assertFound("i32", BIGINT, (long) row.i32());
            assertFound("i32", DecimalType.createDecimalType(12, 0), (long) row.i32());
            assertFound("i32", DecimalType.createDecimalType(15, 2), row.i32() * 100L);
            assertFound("i32", DecimalType.createDecimalType(25, 3), Int128.valueOf(row.i32() * 1000L));
            if (row.i32() == (short) row.i32()) {
                assertFound("i32", SMALLINT, (long) row.i32());
            }
            assertFound("i8", TINYINT, (long) row.i8());
            assertFound("i8", INTEGER, (long) row.i8());
            assertFound("u32", BIGINT, Integer.toUnsignedLong(row.u32()));
            assertFound("i64", BIGINT, row.i64());
            assertFound("i64", DecimalType.createDecimalType(19, 0), Int128.valueOf(row.i64()));
            assertFound("f", REAL, (long) Float.floatToRawIntBits(row.f()));
            assertFound("f", DOUBLE, (double) row.f());
            assertFound("d", DOUBLE, row.d());
            assertFound("s", VARCHAR, Slices.utf8Slice(row.s()));
            assertFound("s", CharType.createCharType(60), Slices.utf8Slice(row.s()));
            // Trino holds CHAR values trimmed; the file may hold them with any padding
            assertFound("padded", CharType.createCharType(12), Slices.utf8Slice(row.padded().stripTrailing()));
            assertFound("padded", VARCHAR, Slices.utf8Slice(row.padded()));
            assertFound("b", VARBINARY, Slices.wrappedBuffer(row.b()));
            assertFound("u", UUID, Slices.wrappedBuffer(uuidBytes(row.u())));
            assertFound("u", VARBINARY, Slices.wrappedBuffer(uuidBytes(row.u())));
            assertFound("dt", DATE, (long) row.dt());

            assertFound("ts_ms", TimestampType.createTimestampType(3), row.tsMs() * 1000);
            assertFound("ts_ms", TimestampType.createTimestampType(6), row.tsMs() * 1000);
            assertFound("ts_ms", TimestampType.createTimestampType(9), new LongTimestamp(row.tsMs() * 1000, 0));
            assertFound("ts_ms", TimestampWithTimeZoneType.createTimestampWithTimeZoneType(3), packDateTimeWithZone(row.tsMs(), UTC_KEY));
            assertFound("ts_ms", TimestampWithTimeZoneType.createTimestampWithTimeZoneType(9), LongTimestampWithTimeZone.fromEpochMillisAndFraction(row.tsMs(), 0, UTC_KEY));
            assertFound("ts_us", TimestampType.createTimestampType(6), row.tsUs());
            assertFound("ts_us", TimestampType.createTimestampType(12), new LongTimestamp(row.tsUs(), 0));
            assertFound("ts_us", TimestampWithTimeZoneType.createTimestampWithTimeZoneType(6),
                    LongTimestampWithTimeZone.fromEpochMillisAndFraction(floorDiv(row.tsUs(), 1000), floorMod(row.tsUs(), 1000) * 1_000_000, UTC_KEY));
            assertFound("ts_ns", TimestampType.createTimestampType(9), new LongTimestamp(floorDiv(row.tsNs(), 1000), floorMod(row.tsNs(), 1000) * 1000));
            assertFound("ts_ns", TimestampWithTimeZoneType.createTimestampWithTimeZoneType(9),
                    LongTimestampWithTimeZone.fromEpochMillisAndFraction(floorDiv(row.tsNs(), 1_000_000), floorMod(row.tsNs(), 1_000_000) * 1000, UTC_KEY));

            assertFound("dec_i32", DecimalType.createDecimalType(9, 2), (long) row.decI32());
            assertFound("dec_i32", DecimalType.createDecimalType(10, 2), (long) row.decI32());
            assertFound("dec_i32", DecimalType.createDecimalType(14, 5), row.decI32() * 1000L);
            assertFound("dec_i32", DecimalType.createDecimalType(30, 2), Int128.valueOf(row.decI32()));
            assertFound("dec_i64", DecimalType.createDecimalType(18, 4), row.decI64());
            assertFound("dec_i64", DecimalType.createDecimalType(25, 6), Int128.valueOf(BigInteger.valueOf(row.decI64()).multiply(BigInteger.valueOf(100))));
            assertFound("dec_flba", DecimalType.createDecimalType(30, 5), Int128.valueOf(row.decFlba()));
            assertFound("dec_flba", DecimalType.createDecimalType(38, 7), Int128.valueOf(row.decFlba().multiply(BigInteger.valueOf(100))));
            assertFound("dec_bin", DecimalType.createDecimalType(38, 10), Int128.valueOf(row.decBin()));
            if (row.decBin().mod(BigInteger.valueOf(100_000)).signum() == 0) {
                assertFound("dec_bin", DecimalType.createDecimalType(38, 5), Int128.valueOf(row.decBin().divide(BigInteger.valueOf(100_000))));
            }
            probes++;
        }
        assertThat(probes).isEqualTo(ROWS);
    }

    /**
     * trinodb/trino#30544: Trino 483 hashes a BIGINT literal as 8 bytes against an INT32 column, so the filter says
     * "absent" for a stored value and rows silently disappear. We hash by the file's physical type.
     */
    @Test
    void bigintLiteralOverInt32ColumnTrino30544()
    {
        PrimitiveType int32 = column("i32");
        SplitBlockBloomFilter filter = FILTERS.get("i32");
        for (Row row : ROWS_WRITTEN) {
            ValueHash hash = ParquetValueHasher.hash(BIGINT, (long) row.i32(), int32);
            assertThat(hash).isEqualTo(ValueHash.of(XxHash64.hashInt(row.i32())));
            assertThat(filter.mightContainAny(((ValueHash.Hashes) hash).hashes())).isTrue();
            // the 8-byte hash Trino 483 uses would miss most stored values
            assertThat(XxHash64.hashLong(row.i32())).isNotEqualTo(XxHash64.hashInt(row.i32()));
            // a BIGINT whose low 32 bits match a stored value is provably absent, not hashed truncated
            assertThat(ParquetValueHasher.hash(BIGINT, row.i32() + (1L << 32), int32)).isInstanceOf(ValueHash.Absent.class);
        }
        assertThat(ParquetValueHasher.hash(BIGINT, (long) Integer.MAX_VALUE + 1, int32)).isInstanceOf(ValueHash.Absent.class);
        assertThat(ParquetValueHasher.hash(BIGINT, (long) Integer.MIN_VALUE - 1, int32)).isInstanceOf(ValueHash.Absent.class);
        assertThat(ParquetValueHasher.hash(BIGINT, (long) Integer.MIN_VALUE, int32)).isInstanceOf(ValueHash.Hashes.class);
        int trino483Misses = 0;
        for (Row row : ROWS_WRITTEN) {
            trino483Misses += filter.mightContain(XxHash64.hashLong(row.i32())) ? 0 : 1;
        }
        assertThat(trino483Misses).as("rows Trino 483's hashing would drop").isGreaterThan(ROWS * 9 / 10);
    }

    @Test
    void provablyAbsentValues()
    {
        assertAbsent("ts_ms", TimestampType.createTimestampType(6), 1_000_001L);
        assertAbsent("ts_us", TimestampType.createTimestampType(9), new LongTimestamp(5, 1000));
        assertAbsent("ts_ns", TimestampType.createTimestampType(12), new LongTimestamp(5, 1));
        assertAbsent("ts_ns", TimestampType.createTimestampType(6), Long.MAX_VALUE / 10);
        assertAbsent("dec_i32", DecimalType.createDecimalType(12, 3), 12_345L);
        assertAbsent("dec_i32", DecimalType.createDecimalType(18, 2), 10_000_000_000L);
        assertAbsent("dec_flba", DecimalType.createDecimalType(38, 5), Int128.valueOf(BigInteger.TEN.pow(37)));
        assertAbsent("i32", DecimalType.createDecimalType(10, 1), 15L);
        assertAbsent("f", DOUBLE, 0.1);
        assertAbsent("u32", BIGINT, -1L);
        assertAbsent("u32", BIGINT, 1L << 32);
        assertAbsent("u", VARBINARY, Slices.wrappedBuffer(new byte[15]));
    }

    @Test
    void neverPrunedValues()
    {
        assertUnknown("f", REAL, (long) Float.floatToRawIntBits(Float.NaN));
        assertUnknown("f", REAL, (long) Float.floatToRawIntBits(0.0f));
        assertUnknown("f", REAL, (long) Float.floatToRawIntBits(-0.0f));
        assertUnknown("d", DOUBLE, Double.NaN);
        assertUnknown("d", DOUBLE, -0.0);
        assertUnknown("d", DOUBLE, 0.0);
        assertUnknown("s", BIGINT, 5L);
        assertUnknown("dt", TimestampType.createTimestampType(6), 5L);
        assertUnknown("ts_ms", DATE, 5L);
        assertUnknown("i32", VARCHAR, Slices.utf8Slice("5"));
        assertUnknown("i64", DOUBLE, 5.0);
        PrimitiveType int96 = MessageTypeParser.parseMessageType("message m { required int96 t; }").getColumns().getFirst().getPrimitiveType();
        assertThat(ParquetValueHasher.hash(TimestampType.createTimestampType(3), 5L, int96)).isInstanceOf(ValueHash.Unknown.class);
    }

    @Test
    void randomAbsentValuesArePrunedAtAboutTheConfiguredRate()
    {
        SplittableRandom random = new SplittableRandom(9);
        SplitBlockBloomFilter filter = FILTERS.get("s");
        int positives = 0;
        int trials = 100_000;
        for (int i = 0; i < trials; i++) {
            ValueHash hash = ParquetValueHasher.hash(VARCHAR, Slices.utf8Slice("absent-" + random.nextLong()), column("s"));
            positives += filter.mightContainAny(((ValueHash.Hashes) hash).hashes()) ? 1 : 0;
        }
        // parquet-java sized the filter for FPP 1% with the classic formula, rounded up to a power of two
        assertThat((double) positives / trials).isLessThan(0.02);
    }

    private static void assertFound(String column, Type type, Object value)
    {
        ValueHash hash = ParquetValueHasher.hash(type, value, column(column));
        assertThat(hash).as("%s as %s: %s", column, type, value).isInstanceOf(ValueHash.Hashes.class);
        assertThat(FILTERS.get(column).mightContainAny(((ValueHash.Hashes) hash).hashes())).as("%s as %s: %s", column, type, value).isTrue();
    }

    private static void assertAbsent(String column, Type type, Object value)
    {
        assertThat(ParquetValueHasher.hash(type, value, column(column))).as("%s as %s: %s", column, type, value).isInstanceOf(ValueHash.Absent.class);
    }

    private static void assertUnknown(String column, Type type, Object value)
    {
        assertThat(ParquetValueHasher.hash(type, value, column(column))).as("%s as %s: %s", column, type, value).isInstanceOf(ValueHash.Unknown.class);
    }

    private static PrimitiveType column(String name)
    {
        return SCHEMA.getType(name).asPrimitiveType();
    }

    private static float nonZeroFloat(SplittableRandom random)
    {
        float value;
        do {
            value = Float.intBitsToFloat(random.nextInt());
        }
        while (Float.isNaN(value) || value == 0);
        return value;
    }

    static byte[] uuidBytes(UUID uuid)
    {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
    }

    private static byte[] signExtend(byte[] minimal, int length)
    {
        byte[] result = new byte[length];
        Arrays.fill(result, 0, length - minimal.length, minimal[0] < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, result, length - minimal.length, minimal.length);
        return result;
    }

}
