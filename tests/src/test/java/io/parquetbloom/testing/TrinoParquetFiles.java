package io.parquetbloom.testing;

import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.trino.spi.type.Type;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Writes Parquet with Trino 483's own writer ({@link ParquetFixtureWriter#trino}), bloom filters on every column it
 * supports.
 */
public final class TrinoParquetFiles
{
    public interface Values
    {
        /**
         * The value in Trino's native representation (Long, Double, Boolean, Slice, ...), or null.
         */
        Object get(int column, int row);
    }

    private TrinoParquetFiles() {}

    public static byte[] write(List<Type> types, List<String> names, int rowsPerRowGroup, int rows, Values values)
    {
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(rowsPerRowGroup).withCompression(CompressionCodecName.SNAPPY);
        for (String name : names) {
            options = options.withBloomFilter(name, 0, 0.05);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (ParquetFixtureWriter.TrinoWriter writer = ParquetFixtureWriter.trino(output, types, names, options)) {
            for (int row = 0; row < rows; row++) {
                Object[] rowValues = new Object[types.size()];
                for (int column = 0; column < types.size(); column++) {
                    rowValues[column] = values.get(column, row);
                }
                writer.write(rowValues);
            }
        }
        return output.toByteArray();
    }
}
