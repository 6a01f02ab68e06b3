package io.parquetbloom.testing;

import org.apache.hadoop.conf.Configuration;
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
import java.util.function.Consumer;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Small parquet-java files for unit tests, and footer surgery on them.
 */
public final class TestingParquetFiles
{
    private static final MessageType DEVICES = MessageTypeParser.parseMessageType("message m { required binary deviceId (STRING); required int64 Seq; }");

    private TestingParquetFiles() {}

    /**
     * {@code rowGroups} x {@code rowsPerRowGroup} rows, row {@code i} holding {@code deviceId = "device-" + i} and
     * {@code Seq = i}, with bloom filters on both columns (written after the data, just before the footer).
     */
    public static byte[] devices(int rowGroups, int rowsPerRowGroup)
    {
        try {
            Path path = Files.createTempFile("testing-devices", ".parquet");
            Files.delete(path);
            ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                    .withType(DEVICES)
                    .withConf(new Configuration(false))
                    .withRowGroupRowCountLimit(rowsPerRowGroup)
                    .withDictionaryEncoding(false)
                    .withBloomFilterEnabled("deviceId", true)
                    .withBloomFilterNDV("deviceId", 1_000)
                    .withBloomFilterEnabled("Seq", true)
                    .withBloomFilterNDV("Seq", 1_000);
            SimpleGroupFactory groups = new SimpleGroupFactory(DEVICES);
            try (ParquetWriter<Group> writer = builder.build()) {
                for (int i = 0; i < rowGroups * rowsPerRowGroup; i++) {
                    writer.write(groups.newGroup().append("deviceId", "device-" + i).append("Seq", (long) i));
                }
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
