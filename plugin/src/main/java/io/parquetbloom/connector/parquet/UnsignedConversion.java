package io.parquetbloom.connector.parquet;

import io.parquetbloom.hash.UnsignedIntegers;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import static io.trino.spi.type.BigintType.BIGINT;
import static java.util.Objects.requireNonNull;

/**
 * How a top-level unsigned integer column becomes its unsigned values. trino-parquet has no notion of unsigned
 * integers: it sign-extends INT32 into BIGINT and refuses DECIMAL(20,0) for INT64, so such a column is read as its
 * signed counterpart (UINT64 as BIGINT) and each block converted.
 *
 * @param width the unsigned column's bit width
 * @param type the column's type in the output (the table's type)
 */
record UnsignedConversion(int width, Type type)
        implements ColumnConversion
{
    UnsignedConversion
    {
        requireNonNull(type, "type is null");
    }

    @Override
    public Type readerType()
    {
        return width == 64 ? BIGINT : type;
    }

    @Override
    public Block convert(Block block)
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

    static UnsignedConversion of(int width, Type type)
    {
        if (width == 64 && !(type instanceof DecimalType decimal && !decimal.isShort() && decimal.getScale() == 0)) {
            throw new IllegalArgumentException("64-bit unsigned integers are read as decimal(20,0), not " + type);
        }
        return new UnsignedConversion(width, type);
    }
}
