package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.connector.SchemaTableName;

/**
 * The tables of the formats this connector reads through their own metadata (Iceberg): each hands the rest of the
 * connector the listing view a folder table has ({@link LakeTable}: its live data files, by their objects), plus what
 * only a format has ({@link FormatSnapshot}). A format not read here stays refused, naming it.
 */
public interface FormatTables
{
    FormatTables NONE = new FormatTables()
    {
        @Override
        public boolean reads(TableFormat format)
        {
            return false;
        }

        @Override
        public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, S3RequestStats stats)
        {
            throw new UnsupportedOperationException("no table format is read");
        }
    };

    boolean reads(TableFormat format);

    /**
     * The table of {@code format} whose folder is {@code location}, as of its current version, which the result pins.
     */
    LakeTable read(SchemaTableName name, S3Location location, TableFormat format, S3RequestStats stats);
}
