package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.connector.SchemaTableName;

import java.time.Instant;
import java.util.OptionalLong;

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
        public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, OptionalLong snapshotId, S3RequestStats stats)
        {
            throw new UnsupportedOperationException("no table format is read");
        }

        @Override
        public long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Instant instant, S3RequestStats stats)
        {
            throw new UnsupportedOperationException("no table format is read");
        }
    };

    boolean reads(TableFormat format);

    /**
     * The table of {@code format} whose folder is {@code location}, as of its current version, which the result pins.
     */
    default LakeTable read(SchemaTableName name, S3Location location, TableFormat format, S3RequestStats stats)
    {
        return read(name, location, format, OptionalLong.empty(), stats);
    }

    /**
     * The table as of the snapshot {@code snapshotId} (its files and its schema then), or its current one.
     */
    LakeTable read(SchemaTableName name, S3Location location, TableFormat format, OptionalLong snapshotId, S3RequestStats stats);

    /**
     * The snapshot that was current at {@code instant}.
     */
    long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Instant instant, S3RequestStats stats);
}
