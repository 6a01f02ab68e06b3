package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.TrinoException;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT;
import static java.util.Objects.requireNonNull;

/**
 * A listing found that the table's own folder is a table format's table: the error a folder table gives, which
 * {@link LakeTables} turns into a read through the format's metadata where one is read ({@link FormatTables}).
 */
public final class TableFormatFound
        extends TrinoException
{
    private final TableFormat format;
    private final S3Location location;

    TableFormatFound(TableFormat format, S3Location location, String message)
    {
        super(PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT, message);
        this.format = requireNonNull(format, "format is null");
        this.location = requireNonNull(location, "location is null");
    }

    public TableFormat format()
    {
        return format;
    }

    public S3Location location()
    {
        return location;
    }
}
