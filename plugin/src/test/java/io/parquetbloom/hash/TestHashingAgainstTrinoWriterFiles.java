package io.parquetbloom.hash;

import com.google.common.collect.ImmutableList;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.testing.FooterBloomFilters;
import io.trino.parquet.writer.ParquetSchemaConverter;
import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files written by Trino 483's own {@link ParquetWriter} (filters for BIGINT, DOUBLE, INTEGER, REAL, UUID, VARBINARY,
 * VARCHAR; FPP 0.05; no {@code bloom_filter_length}; all filters after the last row group).
 */
final class TestHashingAgainstTrinoWriterFiles
{
    private static final int ROWS = 20_000;
    private static final List<Type> TYPES = List.of(BIGINT, INTEGER, DOUBLE, REAL, VARCHAR, VARBINARY, UUID);
    private static final List<String> NAMES = List.of("c_bigint", "c_integer", "c_double", "c_real", "c_varchar", "c_varbinary", "c_uuid");

    @Test
    void valuesWrittenByTrinoAreFound()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(11);
        List<List<Object>> columns = new ArrayList<>();
        for (Type type : TYPES) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                values.add(randomValue(type, random));
            }
            columns.add(values);
        }

        // Hive's schema converter has no UUID (Iceberg maps it to FIXED_LEN_BYTE_ARRAY(16) UUID); add it the same way
        int last = TYPES.size() - 1;
        ParquetSchemaConverter schema = new ParquetSchemaConverter(TYPES.subList(0, last), NAMES.subList(0, last), false, false);
        MessageType messageType = new MessageType("trino", ImmutableList.<org.apache.parquet.schema.Type>builder()
                .addAll(schema.getMessageType().getFields())
                .add(Types.required(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(LogicalTypeAnnotation.uuidType()).named(NAMES.get(last)))
                .build());
        Map<List<String>, Type> primitiveTypes = new HashMap<>(schema.getPrimitiveTypes());
        primitiveTypes.put(List.of(NAMES.get(last)), UUID);
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        ParquetWriter writer = new ParquetWriter(
                output,
                messageType,
                primitiveTypes,
                ParquetWriterOptions.builder()
                        .setBloomFilterColumns(Set.copyOf(NAMES))
                        // several row groups, so filters of several row groups sit together before the footer
                        .setMaxRowGroupRowCount(ROWS / 4)
                        .build(),
                CompressionCodec.SNAPPY,
                "test",
                Optional.empty(),
                Optional.empty());
        for (int start = 0; start < ROWS; start += 1000) {
            Block[] blocks = new Block[TYPES.size()];
            for (int column = 0; column < TYPES.size(); column++) {
                BlockBuilder builder = TYPES.get(column).createBlockBuilder(null, 1000);
                for (int row = start; row < start + 1000; row++) {
                    writeValue(TYPES.get(column), builder, columns.get(column).get(row));
                }
                blocks[column] = builder.build();
            }
            writer.write(new Page(1000, blocks));
        }
        writer.close();
        byte[] file = output.toByteArray();

        List<FooterBloomFilters.ChunkFilter> chunks = FooterBloomFilters.readFilters(file);
        assertThat(chunks).hasSize(4 * TYPES.size());
        Map<String, List<SplitBlockBloomFilter>> filters = new HashMap<>();
        for (FooterBloomFilters.ChunkFilter chunk : chunks) {
            assertThat(chunk.declaredLength()).as("Trino does not write bloom_filter_length").isEmpty();
            assertThat(chunk.result()).as(chunk.path()).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
            filters.computeIfAbsent(chunk.path(), _ -> new ArrayList<>()).add(((SplitBlockBloomFilterReader.Result.Usable) chunk.result()).filter());
        }

        for (int column = 0; column < TYPES.size(); column++) {
            Type type = TYPES.get(column);
            String name = NAMES.get(column);
            for (int row = 0; row < ROWS; row++) {
                ValueHash hash = ParquetValueHasher.hash(type, columns.get(column).get(row), messageType.getType(name).asPrimitiveType());
                assertThat(hash).as("%s row %d", name, row).isInstanceOf(ValueHash.Hashes.class);
                SplitBlockBloomFilter filter = filters.get(name).get(row / (ROWS / 4));
                assertThat(filter.mightContainAny(((ValueHash.Hashes) hash).hashes())).as("%s row %d", name, row).isTrue();
            }
            // and the filter does prune: values from another row group are mostly rejected by the first one
            int falsePositives = 0;
            for (int row = ROWS / 4; row < ROWS; row++) {
                ValueHash hash = ParquetValueHasher.hash(type, columns.get(column).get(row), messageType.getType(name).asPrimitiveType());
                falsePositives += filters.get(name).getFirst().mightContainAny(((ValueHash.Hashes) hash).hashes()) ? 1 : 0;
            }
            assertThat(falsePositives).as(name).isLessThan(ROWS * 3 / 4 / 5);
        }
    }

    private static Object randomValue(Type type, SplittableRandom random)
    {
        if (type == BIGINT) {
            return random.nextLong();
        }
        if (type == INTEGER) {
            return (long) random.nextInt();
        }
        if (type == DOUBLE) {
            return random.nextDouble(1, 1e12);
        }
        if (type == REAL) {
            return (long) Float.floatToRawIntBits((float) random.nextDouble(1, 1e6));
        }
        if (type == VARCHAR) {
            return Slices.utf8Slice(new UUID(random.nextLong(), random.nextLong()).toString());
        }
        byte[] bytes = new byte[type == UUID ? 16 : random.nextInt(1, 30)];
        random.nextBytes(bytes);
        return Slices.wrappedBuffer(bytes);
    }

    private static void writeValue(Type type, BlockBuilder builder, Object value)
    {
        if (type == DOUBLE) {
            type.writeDouble(builder, (double) value);
        }
        else if (value instanceof Slice slice) {
            type.writeSlice(builder, slice);
        }
        else {
            type.writeLong(builder, (long) value);
        }
    }
}
