package io.parquetbloom.connector;

import io.parquetbloom.hash.UnsignedIntegers;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import java.util.Map;
import java.util.function.ObjLongConsumer;

import static io.trino.spi.type.BigintType.BIGINT;
import static java.util.Objects.requireNonNull;

/**
 * A reader page whose unsigned integer columns are turned into their unsigned values. trino-parquet has no notion of
 * unsigned integers: it sign-extends INT32 into BIGINT and refuses DECIMAL(20,0) for INT64, so those columns are read
 * as their signed counterpart (UINT64 as BIGINT) and converted here, channel by channel, when first asked for.
 */
final class UnsignedColumnsPage
        implements SourcePage
{
    /**
     * @param width the unsigned column's bit width
     * @param type the column's type in the output (the table's type)
     */
    record Conversion(int width, Type type)
    {
        Conversion
        {
            requireNonNull(type, "type is null");
        }

        /**
         * The type to ask trino-parquet for.
         */
        Type readerType()
        {
            return width == 64 ? BIGINT : type;
        }

        Block convert(Block block)
        {
            Type input = readerType();
            BlockBuilder builder = type.createBlockBuilder(null, block.getPositionCount());
            for (int position = 0; position < block.getPositionCount(); position++) {
                if (block.isNull(position)) {
                    builder.appendNull();
                    continue;
                }
                long stored = input.getLong(block, position);
                if (width == 64) {
                    type.writeObject(builder, Int128.valueOf(UnsignedIntegers.value(stored, 64)));
                }
                else {
                    type.writeLong(builder, UnsignedIntegers.narrowValue(stored, width));
                }
            }
            return builder.build();
        }

        static Conversion of(int width, Type type)
        {
            if (width == 64 && !(type instanceof DecimalType decimal && !decimal.isShort() && decimal.getScale() == 0)) {
                throw new IllegalArgumentException("64-bit unsigned integers are read as decimal(20,0), not " + type);
            }
            return new Conversion(width, type);
        }
    }

    private final SourcePage source;
    private final Map<Integer, Conversion> conversions;
    private final Block[] converted;

    UnsignedColumnsPage(SourcePage source, Map<Integer, Conversion> conversions)
    {
        this.source = requireNonNull(source, "source is null");
        this.conversions = requireNonNull(conversions, "conversions is null");
        this.converted = new Block[source.getChannelCount()];
    }

    @Override
    public int getPositionCount()
    {
        return source.getPositionCount();
    }

    @Override
    public long getSizeInBytes()
    {
        return source.getSizeInBytes();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return source.getRetainedSizeInBytes();
    }

    @Override
    public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer)
    {
        source.retainedBytesForEachPart(consumer);
    }

    @Override
    public int getChannelCount()
    {
        return source.getChannelCount();
    }

    @Override
    public Block getBlock(int channel)
    {
        Conversion conversion = conversions.get(channel);
        if (conversion == null) {
            return source.getBlock(channel);
        }
        if (converted[channel] == null) {
            converted[channel] = conversion.convert(source.getBlock(channel));
        }
        return converted[channel];
    }

    @Override
    public Page getPage()
    {
        Block[] blocks = new Block[getChannelCount()];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = getBlock(i);
        }
        return new Page(getPositionCount(), blocks);
    }

    @Override
    public void selectPositions(int[] positions, int offset, int size)
    {
        for (int channel = 0; channel < converted.length; channel++) {
            if (converted[channel] != null) {
                converted[channel] = converted[channel].getPositions(positions, offset, size);
            }
        }
        source.selectPositions(positions, offset, size);
    }
}
