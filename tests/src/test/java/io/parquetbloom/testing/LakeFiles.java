package io.parquetbloom.testing;

import io.parquetbloom.fixtures.ParquetFixtureWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Small Parquet files of any schema, written by parquet-java, for lakes laid out the way other writers leave them.
 * A row is its values in schema order; {@code null} leaves an optional field out.
 */
public final class LakeFiles
{
    private LakeFiles() {}

    /**
     * @param schema a parquet-java message type, e.g. {@code message m { required binary device_id (STRING); }}
     * @param bloomColumns columns written with a bloom filter (1%, sized for a row group's values)
     */
    public static byte[] parquet(Path work, String name, String schema, List<Object[]> rows, int rowsPerRowGroup, Set<String> bloomColumns)
    {
        MessageType type = MessageTypeParser.parseMessageType(schema);
        Path file = work.resolve(name);
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(rowsPerRowGroup);
        for (String column : bloomColumns) {
            options = options.withBloomFilter(column, rowsPerRowGroup, 0.01);
        }
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, type, options)) {
            for (Object[] row : rows) {
                Group group = writer.newRow();
                for (int i = 0; i < row.length; i++) {
                    append(group, type.getFieldName(i), row[i]);
                }
                writer.write(group);
            }
        }
        try {
            return Files.readAllBytes(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void append(Group group, String field, Object value)
    {
        switch (value) {
            case null -> {}
            case Long number -> group.append(field, number);
            case Integer number -> group.append(field, number);
            case Double number -> group.append(field, number);
            case Float number -> group.append(field, number);
            case String text -> group.append(field, text);
            case byte[] bytes -> group.append(field, Binary.fromConstantByteArray(bytes));
            default -> throw new IllegalArgumentException("unsupported value " + value.getClass());
        }
    }
}
