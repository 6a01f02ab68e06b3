package io.parquetbloom.connector.parquet;

import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

/**
 * How a column the reader cannot give in the table's type is read in another and each block converted: unsigned
 * integers ({@link UnsignedConversion}), a type a table format widened since the file was written
 * ({@link WideningConversion}).
 */
interface ColumnConversion
{
    /**
     * The type to ask trino-parquet for.
     */
    Type readerType();

    /**
     * The block of {@link #readerType()} values as the table's type.
     */
    Block convert(Block block);
}
