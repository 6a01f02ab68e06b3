package io.parquetbloom.demo;

import io.parquetbloom.fixtures.ParquetFixtureWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * The demo's telemetry table {@code telemetry.events}: {@code device_id} (UUID string), {@code trace_id} (32 hex
 * characters), {@code voltage}, {@code event_timestamp}, Hive-partitioned by {@code year}/{@code month}; row groups
 * of 250,000 rows with bloom filters on {@code device_id} and {@code trace_id} sized for 250,000 distinct values at
 * 1% FPP, ZSTD-compressed like Trino's own writers. Keys are random, so min/max statistics cannot prune them. The
 * demo's files also hold two keys a writer got wrong, for {@code "events$bloom_filter_advice"} to find:
 * {@code serial} with a filter sized for a fiftieth of its values, and {@code session_id} without a filter.
 */
public final class DemoDataset
{
    public static final String SCHEMA = "telemetry";
    public static final String TABLE = "events";
    private static final MessageType PARQUET_SCHEMA = MessageTypeParser.parseMessageType("""
            message events {
              required binary device_id (STRING);
              required binary trace_id (STRING);
              required double voltage;
              required int64 event_timestamp (TIMESTAMP(MICROS,false));
            }
            """);
    private static final MessageType DEMO_PARQUET_SCHEMA = MessageTypeParser.parseMessageType("""
            message events {
              required binary device_id (STRING);
              required binary trace_id (STRING);
              required double voltage;
              required int64 event_timestamp (TIMESTAMP(MICROS,false));
              required binary serial (STRING);
              required binary session_id (STRING);
            }
            """);

    public record Scale(int files, int rowGroupsPerFile, int rowsPerRowGroup, int devices)
    {
        public long rows()
        {
            return (long) files * rowGroupsPerFile * rowsPerRowGroup;
        }
    }

    public static final Scale DEFAULT_SCALE = new Scale(8, 4, 250_000, 2_000_000);

    /**
     * One row of {@code telemetry.events} (partition columns aside).
     */
    public record Event(String deviceId, String traceId, double voltage, long eventTimestampMicros, String serial, String sessionId) {}

    /**
     * Writes one local Parquet file of events: the demo uses parquet-java; the benchmark can use Trino's own writer.
     */
    public interface EventFileWriter
            extends AutoCloseable
    {
        void write(Event event)
                throws IOException;

        @Override
        void close()
                throws IOException;
    }

    public interface EventFileWriterFactory
    {
        EventFileWriter create(Path file, Scale scale)
                throws IOException;
    }

    /**
     * parquet-java, ZSTD, plain-encoded keys with bloom filters sized for a row group's rows at 1% FPP.
     */
    public static final EventFileWriterFactory PARQUET_JAVA = parquetJava(false, 0);

    /**
     * As the reference lake's writer writes (issue 39): {@link #PARQUET_JAVA} with 64 KiB pages; parquet-java writes
     * column and offset indexes by default.
     */
    public static final EventFileWriterFactory REFERENCE = parquetJava(false, 64 << 10);

    /**
     * What {@code ./run demo} writes: {@link #PARQUET_JAVA} plus {@code serial}, its filter undersized 50 times, and
     * {@code session_id}, a key without a filter.
     */
    public static final EventFileWriterFactory DEMO = parquetJava(true, 0);

    /**
     * @param pageBytes bytes after which parquet-java ends a page (0: its default, 1 MiB)
     */
    private static EventFileWriterFactory parquetJava(boolean writerMistakes, int pageBytes)
    {
        return (file, scale) -> {
            ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(scale.rowsPerRowGroup())
                    .withPageRows(20_000)
                    .withPageBytes(pageBytes)
                    .withCompression(CompressionCodecName.ZSTD);
            for (String column : new String[] {"device_id", "trace_id"}) {
                // unique-ish keys: plain encoding, so the writer keeps the filter
                options = options.withPlainEncoding(column).withBloomFilter(column, scale.rowsPerRowGroup(), 0.01);
            }
            if (writerMistakes) {
                options = options.withPlainEncoding("serial").withBloomFilter("serial", scale.rowsPerRowGroup() / 50, 0.01)
                        .withPlainEncoding("session_id");
            }
            ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, writerMistakes ? DEMO_PARQUET_SCHEMA : PARQUET_SCHEMA, options);
            return new EventFileWriter()
            {
                @Override
                public void write(Event event)
                {
                    Group row = writer.newRow()
                            .append("device_id", event.deviceId())
                            .append("trace_id", event.traceId())
                            .append("voltage", event.voltage())
                            .append("event_timestamp", event.eventTimestampMicros());
                    if (writerMistakes) {
                        row.append("serial", event.serial()).append("session_id", event.sessionId());
                    }
                    writer.write(row);
                }

                @Override
                public void close()
                {
                    writer.close();
                }
            };
        };
    }

    private DemoDataset() {}

    /**
     * The device id of a device number: devices are drawn from a fixed pool, so lookups can name present ones.
     */
    public static String deviceId(long device)
    {
        SplittableRandom random = new SplittableRandom(0x5eed_0000L + device);
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    public static void write(S3Client s3, String bucket, String rootKey, Scale scale, Path workDirectory, PrintStream progress)
    {
        write(s3, bucket, rootKey, scale, 0, DEMO, workDirectory, progress);
    }

    /**
     * A device that appears only in the first {@value #HOT_FILES} files (every 40th row there), for IN lists whose
     * keys all live in a few files.
     */
    public static String hotDeviceId(int hotDevice)
    {
        return deviceId(-2L - hotDevice);
    }

    public static final int HOT_FILES = 3;

    public static String serial(long number)
    {
        return "SN-%010d".formatted(number);
    }

    /**
     * @param hotDevices how many {@link #hotDeviceId hot devices} to place in the first files (0 for none)
     */
    public static void write(S3Client s3, String bucket, String rootKey, Scale scale, int hotDevices, EventFileWriterFactory writers, Path workDirectory, PrintStream progress)
    {
        requireNonNull(s3, "s3 is null");
        long totalRows = scale.rows();
        long written = 0;
        long start = System.nanoTime();
        SplittableRandom random = new SplittableRandom(2026);
        // a stream of its own, so that the other columns are the same whether or not a writer stores these
        SplittableRandom serials = new SplittableRandom(2027);
        for (int file = 0; file < scale.files(); file++) {
            int year = 2025 + file / 12;
            int month = file % 12 + 1;
            Path local = workDirectory.resolve("events-%d.parquet".formatted(file));
            try {
                Files.createDirectories(workDirectory);
                Files.deleteIfExists(local);
                long monthStartMicros = LocalDate.of(year, month, 1).atStartOfDay().toEpochSecond(ZoneOffset.UTC) * 1_000_000;
                try (EventFileWriter writer = writers.create(local, scale)) {
                    int rows = scale.rowGroupsPerFile() * scale.rowsPerRowGroup();
                    for (int row = 0; row < rows; row++) {
                        boolean hot = hotDevices > 0 && file < HOT_FILES && row % 40 == 0;
                        writer.write(new Event(
                                hot ? hotDeviceId((row / 40) % hotDevices) : deviceId(random.nextInt(scale.devices())),
                                HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextLong()),
                                Math.round(random.nextDouble(200, 250) * 100) / 100.0,
                                monthStartMicros + random.nextLong(27L * 24 * 3600 * 1_000_000),
                                serial(serials.nextLong(10_000_000_000L)),
                                new UUID(serials.nextLong(), serials.nextLong()).toString()));
                        written++;
                        if (written % 200_000 == 0 || written == totalRows) {
                            printProgress(progress, written, totalRows, start);
                        }
                    }
                }
                String key = "%s%s/%s/year=%d/month=%d/part-%05d.parquet".formatted(rootKey, SCHEMA, TABLE, year, month, file);
                s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromFile(local));
                Files.delete(local);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        progress.println();
    }

    private static void printProgress(PrintStream progress, long written, long total, long startNanos)
    {
        int width = 40;
        int filled = (int) (width * written / total);
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long eta = written == 0 ? 0 : (long) (seconds * (total - written) / written);
        progress.printf("\r[demo]   [%s%s] %,d / %,d rows  %.0f s elapsed, ~%d s left ",
                "#".repeat(filled), ".".repeat(width - filled), written, total, seconds, eta);
        progress.flush();
    }
}
