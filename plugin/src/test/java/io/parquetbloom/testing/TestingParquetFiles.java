package io.parquetbloom.testing;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Small parquet-java files for unit tests, and footer surgery on them.
 */
public final class TestingParquetFiles
{
    private static final MessageType DEVICES = MessageTypeParser.parseMessageType("message m { required binary deviceId (STRING); required int64 Seq; }");

    private static final MessageType SERIALS = MessageTypeParser.parseMessageType("message m { required binary Serial (STRING); required int64 Num; optional binary Fallback (STRING); }");

    private TestingParquetFiles() {}

    /**
     * {@code rowGroups} x {@code rowsPerRowGroup} rows written with dictionaries and without bloom filters, in pages
     * of 10 rows: row {@code i} of row group {@code r} holds {@code Serial = "serial-" + (100 r + i / 5 % 20)} and
     * {@code Num = 100 r + i / 5 % 20} (entirely dictionary-encoded chunks of up to 20 entries), and a
     * {@code Fallback} string (NULL every seventh row) that repeats three values for 30 rows and then never repeats,
     * so its dictionary outgrows its 1 KiB bound and the chunk falls back to PLAIN after a few dictionary pages.
     */
    public static byte[] serials(int rowGroups, int rowsPerRowGroup)
    {
        return write(SERIALS, builder -> builder
                .withRowGroupRowCountLimit(rowsPerRowGroup)
                .withPageRowCountLimit(10)
                .withMinRowCountForPageSizeCheck(1)
                .withDictionaryEncoding(true)
                .withDictionaryPageSize(1024), (groups, writer) -> {
                    for (int r = 0; r < rowGroups; r++) {
                        for (int i = 0; i < rowsPerRowGroup; i++) {
                            long serial = 100L * r + i / 5 % 20;
                            Group group = groups.newGroup().append("Serial", "serial-" + serial).append("Num", serial);
                            if (i % 7 != 0) {
                                group.append("Fallback", i < 30 ? "fallback-repeat-" + i % 3 : "fallback-value-%08d-%d".formatted(r, i));
                            }
                            writer.write(group);
                        }
                    }
                });
    }

    /**
     * {@code rowGroups} x {@code rowsPerRowGroup} rows, row {@code i} holding {@code deviceId = "device-" + i} and
     * {@code Seq = i}, with bloom filters on both columns (written after the data, just before the footer).
     */
    public static byte[] devices(int rowGroups, int rowsPerRowGroup)
    {
        return write(DEVICES, builder -> builder
                .withRowGroupRowCountLimit(rowsPerRowGroup)
                .withDictionaryEncoding(false)
                .withBloomFilterEnabled("deviceId", true)
                .withBloomFilterNDV("deviceId", 1_000)
                .withBloomFilterEnabled("Seq", true)
                .withBloomFilterNDV("Seq", 1_000), (groups, writer) -> {
                    for (int i = 0; i < rowGroups * rowsPerRowGroup; i++) {
                        writer.write(groups.newGroup().append("deviceId", "device-" + i).append("Seq", (long) i));
                    }
                });
    }

    private static final MessageType KEYS = MessageTypeParser.parseMessageType("message m { optional binary key (STRING); required int64 num; optional int32 small; required binary raw; optional binary sparse (STRING); }");

    /**
     * Rows of random keys for matching on encoded pages: {@code key} ({@code "key-" + n}, NULL about every ninth row),
     * {@code num} ({@code n}), {@code small} (between -50 and 49, NULL about every fifth row) and {@code raw} (the
     * bytes of {@code key}, the empty string where it is NULL) and {@code sparse} ({@code key} in every third page's
     * rows, NULL in the others: pages of NULLs only), {@code n} drawn from {@code [0, distinct)}; with or
     * without dictionaries (which parquet-java leaves for PLAIN, or for the DELTA encodings of its version 2 pages,
     * once a dictionary passes 4 KiB), in pages of at most {@code pageRows} rows.
     */
    public static byte[] keys(long seed, int rowGroups, int rowsPerRowGroup, int pageRows, int distinct, boolean dictionary, boolean version2)
    {
        SplittableRandom random = new SplittableRandom(seed);
        return write(KEYS, builder -> builder
                .withRowGroupRowCountLimit(rowsPerRowGroup)
                .withPageRowCountLimit(pageRows)
                .withMinRowCountForPageSizeCheck(1)
                .withDictionaryEncoding(dictionary)
                .withDictionaryPageSize(4096)
                .withWriterVersion(version2 ? ParquetProperties.WriterVersion.PARQUET_2_0 : ParquetProperties.WriterVersion.PARQUET_1_0), (groups, writer) -> {
                    for (int i = 0; i < rowGroups * rowsPerRowGroup; i++) {
                        long n = random.nextInt(distinct);
                        Group group = groups.newGroup().append("num", n);
                        boolean keyIsNull = random.nextInt(9) == 0;
                        if (!keyIsNull) {
                            group.append("key", "key-" + n);
                        }
                        if (random.nextInt(5) != 0) {
                            group.append("small", random.nextInt(100) - 50);
                        }
                        group.append("raw", keyIsNull ? "" : "key-" + n);
                        if (!keyIsNull && (i % rowsPerRowGroup) / pageRows % 3 == 1) {
                            group.append("sparse", "key-" + n);
                        }
                        writer.write(group);
                    }
                });
    }

    private interface Rows
    {
        void write(SimpleGroupFactory groups, ParquetWriter<Group> writer)
                throws IOException;
    }

    /**
     * A file of {@code schema} written by parquet-java with the given settings and rows.
     */
    private static byte[] write(MessageType schema, Consumer<ExampleParquetWriter.Builder> settings, Rows rows)
    {
        try {
            Path path = Files.createTempFile("testing", ".parquet");
            Files.delete(path);
            ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                    .withType(schema)
                    .withConf(new Configuration(false));
            settings.accept(builder);
            try (ParquetWriter<Group> writer = builder.build()) {
                rows.write(new SimpleGroupFactory(schema), writer);
            }
            byte[] bytes = Files.readAllBytes(path);
            Files.delete(path);
            return bytes;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The file with its footer rewritten after {@code change} edits it; everything before the footer stays in place.
     */
    public static byte[] rewriteFooter(byte[] file, Consumer<FileMetaData> change)
    {
        try {
            FileMetaData footer = FooterBloomFilters.readFooter(file);
            change.accept(footer);
            int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            ByteArrayOutputStream newFooter = new ByteArrayOutputStream();
            Util.writeFileMetaData(footer, newFooter);
            ByteArrayOutputStream result = new ByteArrayOutputStream();
            result.write(file, 0, file.length - 8 - footerLength);
            newFooter.writeTo(result);
            result.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newFooter.size()).array());
            result.write("PAR1".getBytes(US_ASCII));
            return result.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
