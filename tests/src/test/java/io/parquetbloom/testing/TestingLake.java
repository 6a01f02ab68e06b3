package io.parquetbloom.testing;

import io.airlift.slice.Slices;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Writes the integration test lake into S3: {@code s3://BUCKET/warehouse/SCHEMA/TABLE/...}. Keys are unsorted
 * UUIDs drawn from a pool, so every row group's min/max spans the key space and only bloom filters can prune.
 */
public final class TestingLake
{
    public static final String BUCKET = "lake";
    public static final String ROOT = "s3://" + BUCKET + "/warehouse/";
    public static final int FILES_PER_REGION = 2;
    public static final int ROW_GROUPS_PER_FILE = 4;
    public static final int ROWS_PER_ROW_GROUP = 2_500;
    public static final int DEVICES = 8_000;

    static final MessageType EVENTS_SCHEMA = MessageTypeParser.parseMessageType("""
            message events {
              required binary device_id (STRING);
              required binary trace_id (STRING);
              required int64 seq;
              required double reading;
              required int32 small (INTEGER(16,true));
              required int32 code;
              required int32 price (DECIMAL(9,2));
              required fixed_len_byte_array(9) amount (DECIMAL(20,4));
              required int32 day (DATE);
              required int64 event_ts (TIMESTAMP(MICROS,false));
              required int64 event_ts_utc (TIMESTAMP(MILLIS,true));
              required fixed_len_byte_array(16) tag (UUID);
              required float ratio;
              required binary payload;
              optional binary note (STRING);
            }
            """);

    private final List<TelemetryRow> events = new ArrayList<>();
    private final List<String> devices = new ArrayList<>();

    public List<TelemetryRow> events()
    {
        return events;
    }

    public List<String> devices()
    {
        return devices;
    }

    public static String tableKey(String schema, String table, String file)
    {
        return "warehouse/%s/%s/%s".formatted(schema, table, file);
    }

    /**
     * Generates and uploads {@code telemetry.events} (parquet-java, bloom filters on every column, partitioned by
     * {@code region}) and {@code telemetry.no_filters}.
     */
    public void writeEvents(S3Client s3, Path workDirectory)
    {
        SplittableRandom random = new SplittableRandom(20261202);
        for (int i = 0; i < DEVICES; i++) {
            devices.add(new UUID(random.nextLong(), random.nextLong()).toString());
        }
        int fileNumber = 0;
        for (String region : List.of("eu", "us")) {
            for (int file = 0; file < FILES_PER_REGION; file++) {
                List<TelemetryRow> rows = new ArrayList<>();
                for (int i = 0; i < ROW_GROUPS_PER_FILE * ROWS_PER_ROW_GROUP; i++) {
                    rows.add(randomRow(region, random));
                }
                events.addAll(rows);
                Path local = workDirectory.resolve("events-%d.parquet".formatted(fileNumber));
                writeEventsFile(local, rows, true);
                upload(s3, local, tableKey("telemetry", "events", "region=%s/part-%05d.parquet".formatted(region, fileNumber)));
                fileNumber++;
            }
        }
        // the same shape without any bloom filter
        Path local = workDirectory.resolve("no-filters.parquet");
        writeEventsFile(local, events.subList(0, 2 * ROWS_PER_ROW_GROUP), false);
        upload(s3, local, tableKey("telemetry", "no_filters", "part-00000.parquet"));
    }

    private TelemetryRow randomRow(String region, SplittableRandom random)
    {
        long micros = random.nextLong(1_700_000_000_000_000L, 1_760_000_000_000_000L);
        return new TelemetryRow(
                region,
                devices.get(random.nextInt(devices.size())),
                HexFormat.of().formatHex(ByteBuffer.allocate(16).putLong(random.nextLong()).putLong(random.nextLong()).array()),
                random.nextLong(),
                Math.round(random.nextDouble(0, 500) * 1000) / 1000.0 + 0.0005,
                (short) random.nextInt(-30_000, 30_000),
                random.nextInt(),
                BigDecimal.valueOf(random.nextLong(-99_999_999, 100_000_000), 2),
                BigDecimal.valueOf(random.nextLong(), 4),
                LocalDate.ofEpochDay(random.nextInt(18_000, 21_000)),
                LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), (int) Math.floorMod(micros, 1_000_000) * 1000, ZoneOffset.UTC),
                random.nextLong(1_700_000_000_000L, 1_760_000_000_000L),
                new UUID(random.nextLong(), random.nextLong()),
                (float) (random.nextInt(1, 1_000_000) / 1024.0),
                randomBytes(random, random.nextInt(1, 24)),
                random.nextInt(10) == 0 ? null : "note-" + random.nextInt(1_000_000));
    }

    static void writeEventsFile(Path file, List<TelemetryRow> rows, boolean bloomFilters)
    {
        // parquet-java writes no filter for all-dictionary chunks
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS_PER_ROW_GROUP).withDictionary(false);
        if (bloomFilters) {
            for (org.apache.parquet.schema.Type field : EVENTS_SCHEMA.getFields()) {
                options = options.withBloomFilter(field.getName(), ROWS_PER_ROW_GROUP, 0.01);
            }
        }
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, EVENTS_SCHEMA, options)) {
            for (TelemetryRow row : rows) {
                Group group = writer.newRow()
                        .append("device_id", row.deviceId())
                        .append("trace_id", row.traceId())
                        .append("seq", row.seq())
                        .append("reading", row.reading())
                        .append("small", (int) row.small())
                        .append("code", row.code())
                        .append("price", row.price().unscaledValue().intValueExact())
                        .append("amount", Binary.fromConstantByteArray(signExtend(row.amount().unscaledValue(), 9)))
                        .append("day", (int) row.day().toEpochDay())
                        .append("event_ts", row.eventTs().toEpochSecond(ZoneOffset.UTC) * 1_000_000 + row.eventTs().getNano() / 1000)
                        .append("event_ts_utc", row.eventTsMillisUtc())
                        .append("tag", Binary.fromConstantByteArray(uuidBytes(row.tag())))
                        .append("ratio", row.ratio())
                        .append("payload", Binary.fromConstantByteArray(row.payload()));
                if (row.note() != null) {
                    group.append("note", row.note());
                }
                writer.write(group);
            }
        }
    }

    /**
     * {@code telemetry.serials}: 2 files x 4 row groups of 2,500 rows written by parquet-java with dictionaries and
     * without bloom filters (as it writes entirely dictionary-encoded chunks), pages of 500 rows. Row group {@code g}
     * (0 to 7 over both files) holds the 200 serials {@code 16 j + 2 g}: {@code serial} ("SN-000042") and {@code num}
     * (42) are entirely dictionary-encoded, every row group's min/max spans nearly the whole range, an odd number is
     * in no row group and an even one in exactly one. {@code lot} repeats five values for 1,000 rows and then never
     * repeats, so its 4 KiB dictionary overflows and each chunk falls back to PLAIN midway.
     */
    public static void writeSerials(S3Client s3, Path workDirectory)
    {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message serials {
                  required binary serial (STRING);
                  required int64 num;
                  required binary lot (STRING);
                  required double reading;
                }
                """);
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS_PER_ROW_GROUP).withPageRows(500).withDictionaryPageSize(4096);
        for (int file = 0; file < 2; file++) {
            Path local = workDirectory.resolve("serials-%d.parquet".formatted(file));
            try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(local, schema, options)) {
                for (int rowGroup = 4 * file; rowGroup < 4 * file + 4; rowGroup++) {
                    for (int row = 0; row < ROWS_PER_ROW_GROUP; row++) {
                        long serial = serial(rowGroup, row);
                        writer.write(writer.newRow()
                                .append("serial", "SN-%06d".formatted(serial))
                                .append("num", serial)
                                .append("lot", row < 1_000 ? "LOT-" + row % 5 : "LOT-%d-%d-%s".formatted(rowGroup, row, new UUID(rowGroup, row)))
                                .append("reading", row * 0.5));
                    }
                }
            }
            upload(s3, local, tableKey("telemetry", "serials", "part-%05d.parquet".formatted(file)));
        }
    }

    /**
     * The serial of a row of {@code telemetry.serials}: row group {@code g} holds {@code 16 j + 2 g}, j < 200.
     */
    public static long serial(int rowGroup, int row)
    {
        return 16L * (row % 200) + 2L * rowGroup;
    }

    /**
     * {@code telemetry.events_trino}: the first half of the events written by Trino 483's own {@code ParquetWriter}
     * (filters on every supported column, FPP 0.05, no {@code bloom_filter_length}, filters before the footer),
     * 2 files x 4 row groups.
     */
    public void writeTrinoWriterEvents(S3Client s3)
    {
        List<io.trino.spi.type.Type> types = List.of(VARCHAR, VARCHAR, BIGINT, INTEGER, DOUBLE, REAL, VARBINARY, io.trino.spi.type.UuidType.UUID);
        List<String> names = List.of("device_id", "trace_id", "seq", "code", "reading", "ratio", "payload", "tag");
        int rowsPerFile = ROW_GROUPS_PER_FILE * ROWS_PER_ROW_GROUP;
        for (int file = 0; file < 2; file++) {
            List<TelemetryRow> rows = events.subList(file * rowsPerFile, (file + 1) * rowsPerFile);
            upload(s3, TrinoParquetFiles.write(types, names, ROWS_PER_ROW_GROUP, rows.size(), (column, index) -> {
                TelemetryRow row = rows.get(index);
                return switch (column) {
                    case 0 -> Slices.utf8Slice(row.deviceId());
                    case 1 -> Slices.utf8Slice(row.traceId());
                    case 2 -> row.seq();
                    case 3 -> (long) row.code();
                    case 4 -> row.reading();
                    case 5 -> (long) Float.floatToRawIntBits(row.ratio());
                    case 6 -> Slices.wrappedBuffer(row.payload());
                    case 7 -> Slices.wrappedBuffer(uuidBytes(row.tag()));
                    default -> throw new IllegalArgumentException();
                };
            }), tableKey("telemetry", "events_trino", "part-%05d.parquet".formatted(file)));
        }
    }

    /**
     * {@code telemetry.keys}: {@code count} device ids, the first {@code present} of them present in {@code events},
     * for joins.
     */
    public List<String> writeKeys(S3Client s3, Path workDirectory, int count, int present)
    {
        SplittableRandom random = new SplittableRandom(99);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(i < present ? devices.get(random.nextInt(devices.size())) : new UUID(random.nextLong(), random.nextLong()).toString());
        }
        MessageType schema = MessageTypeParser.parseMessageType("message keys { required binary device_id (STRING); }");
        Path file = workDirectory.resolve("keys.parquet");
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, schema, ParquetFixtureWriter.Options.rowsPerRowGroup(count))) {
            for (String key : keys) {
                writer.write(writer.newRow().append("device_id", key));
            }
        }
        upload(s3, file, tableKey("telemetry", "keys", "keys.parquet"));
        return keys;
    }

    /**
     * A valid file of {@code rows} with bloom filters, as bytes (for damaging copies).
     */
    public static byte[] eventsFileBytes(Path workDirectory, String name, List<TelemetryRow> rows)
    {
        Path file = workDirectory.resolve(name);
        writeEventsFile(file, rows, true);
        try {
            return Files.readAllBytes(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void upload(S3Client s3, Path file, String key)
    {
        s3.putObject(request -> request.bucket(BUCKET).key(key), RequestBody.fromFile(file));
    }

    public static void upload(S3Client s3, byte[] bytes, String key)
    {
        s3.putObject(request -> request.bucket(BUCKET).key(key), RequestBody.fromBytes(bytes));
    }

    /**
     * Puts {@code body} under every key of {@code bucket}, four at a time: the first key of each folder alone (S3Proxy's
     * file system store creates the folder then, and two puts creating one folder can race), every put retried up to
     * six times with a growing pause (a busy S3Proxy drops connections: "Broken pipe"), and any put that still fails
     * fails the caller, so no test ever runs on a silently partial bucket.
     */
    public static void uploadAll(S3Client s3, String bucket, List<String> keys, byte[] body)
    {
        Set<String> folders = new HashSet<>();
        List<String> rest = new ArrayList<>();
        for (String key : keys) {
            if (folders.add(key.substring(0, key.lastIndexOf('/') + 1))) {
                put(s3, bucket, key, body);
            }
            else {
                rest.add(key);
            }
        }
        try (ExecutorService uploads = Executors.newFixedThreadPool(4)) {
            List<Future<?>> puts = new ArrayList<>();
            for (String key : rest) {
                puts.add(uploads.submit(() -> put(s3, bucket, key, body)));
            }
            for (Future<?> put : puts) {
                put.get();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
        catch (ExecutionException e) {
            throw new RuntimeException("upload failed", e.getCause());
        }
    }

    private static void put(S3Client s3, String bucket, String key, byte[] body)
    {
        for (int attempt = 1; ; attempt++) {
            try {
                s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(body));
                return;
            }
            catch (RuntimeException e) {
                if (attempt == 6) {
                    throw new RuntimeException("cannot put s3://%s/%s after %d attempts".formatted(bucket, key, attempt), e);
                }
                try {
                    Thread.sleep(200L * attempt);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new RuntimeException(interrupted);
                }
            }
        }
    }

    public static byte[] uuidBytes(UUID uuid)
    {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
    }

    public static byte[] signExtend(BigInteger value, int length)
    {
        byte[] minimal = value.toByteArray();
        byte[] result = new byte[length];
        Arrays.fill(result, 0, length - minimal.length, value.signum() < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, result, length - minimal.length, minimal.length);
        return result;
    }

    private static byte[] randomBytes(SplittableRandom random, int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
