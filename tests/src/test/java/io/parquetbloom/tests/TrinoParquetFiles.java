package io.parquetbloom.tests;

import com.google.common.collect.ImmutableList;
import io.trino.parquet.writer.ParquetSchemaConverter;
import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.type.TypeUtils.writeNativeValue;

/**
 * Writes Parquet with Trino 483's own {@link ParquetWriter}, bloom filters on every column it supports.
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
        // Hive's schema converter has no UUID; Iceberg writes it as FIXED_LEN_BYTE_ARRAY(16) UUID, as here
        List<Type> plainTypes = new ArrayList<>();
        List<String> plainNames = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            if (!(types.get(i) instanceof UuidType)) {
                plainTypes.add(types.get(i));
                plainNames.add(names.get(i));
            }
        }
        ParquetSchemaConverter converter = new ParquetSchemaConverter(plainTypes, plainNames, false, false);
        ImmutableList.Builder<org.apache.parquet.schema.Type> fields = ImmutableList.builder();
        Map<List<String>, Type> primitiveTypes = new HashMap<>(converter.getPrimitiveTypes());
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i) instanceof UuidType) {
                fields.add(Types.optional(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(LogicalTypeAnnotation.uuidType()).named(names.get(i)));
                primitiveTypes.put(List.of(names.get(i)), types.get(i));
            }
            else {
                fields.add(converter.getMessageType().getType(names.get(i)));
            }
        }
        MessageType schema = new MessageType("trino_schema", fields.build());
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try {
            ParquetWriter writer = new ParquetWriter(
                    output,
                    schema,
                    primitiveTypes,
                    ParquetWriterOptions.builder()
                            .setBloomFilterColumns(Set.copyOf(names))
                            .setMaxRowGroupRowCount(rowsPerRowGroup)
                            .build(),
                    CompressionCodec.SNAPPY,
                    "483",
                    Optional.empty(),
                    Optional.empty());
            int batch = 500;
            for (int start = 0; start < rows; start += batch) {
                int end = Math.min(rows, start + batch);
                Block[] blocks = new Block[types.size()];
                for (int column = 0; column < types.size(); column++) {
                    Type type = types.get(column);
                    BlockBuilder builder = type.createBlockBuilder(null, end - start);
                    for (int row = start; row < end; row++) {
                        writeNativeValue(type, builder, values.get(column, row));
                    }
                    blocks[column] = builder.build();
                }
                writer.write(new Page(end - start, blocks));
            }
            writer.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return output.toByteArray();
    }
}
