package io.parquetbloom.delta;

import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.SqlMap;
import io.trino.spi.block.SqlRow;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Reads the actions of a Delta Lake checkpoint written as Parquet (a classic checkpoint, a part of a multi-part one, a
 * v2 checkpoint or a sidecar) with trino-parquet, from its bytes: only the columns of the actions replay needs, and of
 * them only the fields it reads. A checkpoint that cannot be read fails naming it.
 */
public final class DeltaCheckpointReader
{
    private static final RowType DELETION_VECTOR = RowType.from(List.of(
            RowType.field("storageType", VARCHAR),
            RowType.field("pathOrInlineDv", VARCHAR),
            RowType.field("offset", INTEGER),
            RowType.field("sizeInBytes", INTEGER),
            RowType.field("cardinality", BIGINT)));
    private static final MapType STRING_MAP = new MapType(VARCHAR, VARCHAR, new TypeOperators());
    private static final ArrayType STRINGS = new ArrayType(VARCHAR);
    private static final Map<String, RowType> ACTIONS = Map.of(
            "add", RowType.from(List.of(
                    RowType.field("path", VARCHAR),
                    RowType.field("partitionValues", STRING_MAP),
                    RowType.field("size", BIGINT),
                    RowType.field("modificationTime", BIGINT),
                    RowType.field("stats", VARCHAR),
                    RowType.field("deletionVector", DELETION_VECTOR))),
            "remove", RowType.from(List.of(
                    RowType.field("path", VARCHAR),
                    RowType.field("deletionVector", DELETION_VECTOR))),
            "metaData", RowType.from(List.of(
                    RowType.field("id", VARCHAR),
                    RowType.field("schemaString", VARCHAR),
                    RowType.field("partitionColumns", STRINGS),
                    RowType.field("configuration", STRING_MAP),
                    RowType.field("createdTime", BIGINT))),
            "protocol", RowType.from(List.of(
                    RowType.field("minReaderVersion", INTEGER),
                    RowType.field("minWriterVersion", INTEGER),
                    RowType.field("readerFeatures", STRINGS))),
            "sidecar", RowType.from(List.of(
                    RowType.field("path", VARCHAR),
                    RowType.field("sizeInBytes", BIGINT))));

    private DeltaCheckpointReader() {}

    public static List<DeltaAction> read(String file, byte[] content)
    {
        ParquetDataSourceId id = new ParquetDataSourceId(file);
        ParquetReaderOptions options = ParquetReaderOptions.defaultOptions();
        ParquetDataSource source = new BytesDataSource(id, content, options);
        try {
            ParquetMetadata metadata = MetadataReader.readFooter(source, Optional.empty());
            MessageType fileSchema = metadata.getFileMetaData().getSchema();
            // trino-parquet's footer names columns in lower case
            List<String> present = ACTIONS.keySet().stream().filter(action -> fileSchema.containsField(lowerCase(action))).sorted().toList();
            MessageType requested = new MessageType(fileSchema.getName(), present.stream().map(action -> fileSchema.getType(lowerCase(action))).toList());
            MessageColumnIO io = getColumnIO(fileSchema, requested);
            List<Column> columns = new ArrayList<>();
            for (String action : present) {
                constructField(ACTIONS.get(action), lookupColumnByName(io, lowerCase(action))).ifPresent(field -> columns.add(new Column(action, field)));
            }
            Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(fileSchema, requested);
            List<RowGroupInfo> rowGroups = new ArrayList<>();
            for (BlockMetadata block : metadata.getBlocks()) {
                rowGroups.add(new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, id, descriptors), block.fileRowCountOffset(), Optional.empty()));
            }
            List<DeltaAction> actions = new ArrayList<>();
            try (ParquetReader reader = new ParquetReader(Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()), columns, false, rowGroups, source, DateTimeZone.UTC,
                    newSimpleAggregatedMemoryContext(), options, e -> new RuntimeException(e), Optional.empty(), Optional.empty(), Optional.empty())) {
                for (SourcePage page = reader.nextPage(); page != null; page = reader.nextPage()) {
                    for (int channel = 0; channel < columns.size(); channel++) {
                        collect(columns.get(channel).name(), page.getBlock(channel), actions);
                    }
                }
            }
            return actions;
        }
        catch (IOException | RuntimeException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake checkpoint %s cannot be read: %s".formatted(file, e.getMessage()), e);
        }
    }

    private static String lowerCase(String name)
    {
        return name.toLowerCase(Locale.ENGLISH);
    }

    private static void collect(String action, Block block, List<DeltaAction> actions)
    {
        RowType type = ACTIONS.get(action);
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                continue;
            }
            Fields row = new Fields(action, type, type.getObject(block, position));
            actions.add(switch (action) {
                case "add" -> new DeltaAction.Add(row.required(0), row.map(1), row.requiredLong(2), row.longValue(3).orElse(0), Optional.ofNullable(row.string(4)), deletionVector(row, 5));
                case "remove" -> new DeltaAction.Remove(row.required(0), deletionVector(row, 1));
                case "metaData" -> new DeltaAction.Metadata(row.required(0), row.required(1), row.strings(2), withoutNulls(row.map(3)), row.longValue(4));
                case "protocol" -> new DeltaAction.Protocol((int) row.requiredLong(0), (int) row.longValue(1).orElse(0), row.strings(2));
                case "sidecar" -> new DeltaAction.Sidecar(row.required(0), row.longValue(1).orElse(0));
                default -> throw new IllegalStateException("not an action read: " + action);
            });
        }
    }

    private static Optional<DeltaAction.DeletionVector> deletionVector(Fields row, int field)
    {
        return row.row(field, DELETION_VECTOR).map(vector -> new DeltaAction.DeletionVector(
                vector.required(0),
                vector.required(1),
                vector.longValue(2),
                (int) vector.requiredLong(3),
                vector.requiredLong(4)));
    }

    private static Map<String, String> withoutNulls(Map<String, Optional<String>> values)
    {
        Map<String, String> kept = new LinkedHashMap<>();
        values.forEach((key, value) -> value.ifPresent(present -> kept.put(key, present)));
        return kept;
    }

    /**
     * The fields of one row of an action's struct.
     */
    private record Fields(String action, RowType type, SqlRow row)
    {
        private Block block(int field)
        {
            return row.getRawFieldBlock(field);
        }

        private boolean isNull(int field)
        {
            return block(field).isNull(row.getRawIndex());
        }

        String string(int field)
        {
            return isNull(field) ? null : VARCHAR.getSlice(block(field), row.getRawIndex()).toStringUtf8();
        }

        String required(int field)
        {
            String value = string(field);
            if (value == null) {
                throw missing(field);
            }
            return value;
        }

        OptionalLong longValue(int field)
        {
            Type fieldType = type.getFields().get(field).getType();
            return isNull(field) ? OptionalLong.empty() : OptionalLong.of(fieldType.getLong(block(field), row.getRawIndex()));
        }

        long requiredLong(int field)
        {
            return longValue(field).orElseThrow(() -> missing(field));
        }

        Optional<Fields> row(int field, RowType rowType)
        {
            return isNull(field) ? Optional.empty() : Optional.of(new Fields(action, rowType, rowType.getObject(block(field), row.getRawIndex())));
        }

        Map<String, Optional<String>> map(int field)
        {
            Map<String, Optional<String>> values = new LinkedHashMap<>();
            if (isNull(field)) {
                return values;
            }
            SqlMap map = STRING_MAP.getObject(block(field), row.getRawIndex());
            Block keys = map.getRawKeyBlock();
            Block entries = map.getRawValueBlock();
            for (int i = map.getRawOffset(); i < map.getRawOffset() + map.getSize(); i++) {
                values.put(VARCHAR.getSlice(keys, i).toStringUtf8(), entries.isNull(i) ? Optional.empty() : Optional.of(VARCHAR.getSlice(entries, i).toStringUtf8()));
            }
            return values;
        }

        List<String> strings(int field)
        {
            List<String> values = new ArrayList<>();
            if (isNull(field)) {
                return values;
            }
            Block array = STRINGS.getObject(block(field), row.getRawIndex());
            for (int i = 0; i < array.getPositionCount(); i++) {
                if (!array.isNull(i)) {
                    values.add(VARCHAR.getSlice(array, i).toStringUtf8());
                }
            }
            return values;
        }

        private IllegalArgumentException missing(int field)
        {
            return new IllegalArgumentException("a %s action without its required field '%s'".formatted(action, type.getFields().get(field).getName().orElseThrow()));
        }
    }

    /**
     * A checkpoint's bytes, read whole with one GET: checkpoints are read from their start to their end.
     */
    private static final class BytesDataSource
            extends AbstractParquetDataSource
    {
        private final byte[] content;

        private BytesDataSource(ParquetDataSourceId id, byte[] content, ParquetReaderOptions options)
        {
            super(id, content.length, options);
            this.content = content;
        }

        @Override
        protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
        {
            System.arraycopy(content, Math.toIntExact(position), buffer, bufferOffset, bufferLength);
        }
    }
}
