package io.parquetbloom.connector.parquet;

import io.parquetbloom.table.FileColumnResolver;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;

import java.math.BigInteger;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static java.util.Objects.requireNonNull;

/**
 * A column a table format widened since the file was written, in a way trino-parquet does not read by itself
 * ({@link FileColumnResolver#converts}): read in the file's type, each value converted exactly. An integer as a
 * {@code double} or a {@code decimal} wide enough, a {@code decimal} at a larger scale and precision, a {@code date}
 * as a {@code timestamp(6)} at its midnight (Delta Lake's type widening, Iceberg's promotions).
 */
record WideningConversion(Type fileType, Type type)
        implements ColumnConversion
{
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    WideningConversion
    {
        requireNonNull(fileType, "fileType is null");
        requireNonNull(type, "type is null");
        checkArgument(FileColumnResolver.converts(fileType, type), "%s is not widened to %s", fileType, type);
    }

    @Override
    public Type readerType()
    {
        return fileType;
    }

    @Override
    public Block convert(Block block)
    {
        BlockBuilder builder = type.createBlockBuilder(null, block.getPositionCount());
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (block.isNull(position)) {
                builder.appendNull();
            }
            else {
                write(builder, block, position);
            }
        }
        return builder.build();
    }

    private void write(BlockBuilder builder, Block block, int position)
    {
        if (type.equals(DOUBLE)) {
            type.writeDouble(builder, fileType.getLong(block, position));
        }
        else if (type.equals(TIMESTAMP_MICROS) && fileType.equals(DATE)) {
            type.writeLong(builder, Math.multiplyExact(fileType.getLong(block, position), MICROS_PER_DAY));
        }
        else if (type instanceof DecimalType decimal) {
            BigInteger unscaled = unscaled(block, position).multiply(BigInteger.TEN.pow(decimal.getScale() - scale(fileType)));
            if (decimal.isShort()) {
                type.writeLong(builder, unscaled.longValueExact());
            }
            else {
                type.writeObject(builder, Int128.valueOf(unscaled));
            }
        }
        else {
            throw new IllegalStateException("no widening of %s to %s".formatted(fileType, type));
        }
    }

    private BigInteger unscaled(Block block, int position)
    {
        if (fileType instanceof DecimalType decimal && !decimal.isShort()) {
            return ((Int128) fileType.getObject(block, position)).toBigInteger();
        }
        // an integer, or a short decimal's unscaled value
        return BigInteger.valueOf(fileType.getLong(block, position));
    }

    private static int scale(Type type)
    {
        return type instanceof DecimalType decimal ? decimal.getScale() : 0;
    }
}
