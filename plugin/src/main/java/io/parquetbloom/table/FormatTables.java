package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.connector.SchemaTableName;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The tables of the formats this connector reads through their own metadata (Iceberg, Delta Lake): each hands the rest of the
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
        public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, Version version, S3RequestStats stats)
        {
            throw new UnsupportedOperationException("no table format is read");
        }

        @Override
        public long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Optional<String> metadataFile, Instant instant, S3RequestStats stats)
        {
            throw new UnsupportedOperationException("no table format is read");
        }
    };

    boolean reads(TableFormat format);

    /**
     * The formats read by any of {@code rooms}, each routed to the one that reads it.
     */
    static FormatTables of(Collection<FormatTables> rooms)
    {
        List<FormatTables> all = List.copyOf(rooms);
        return new FormatTables()
        {
            @Override
            public boolean reads(TableFormat format)
            {
                return all.stream().anyMatch(room -> room.reads(format));
            }

            @Override
            public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, Version version, S3RequestStats stats)
            {
                return reader(format).read(name, location, format, version, stats);
            }

            @Override
            public long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Optional<String> metadataFile, Instant instant, S3RequestStats stats)
            {
                return reader(format).snapshotAsOf(name, location, format, metadataFile, instant, stats);
            }

            private FormatTables reader(TableFormat format)
            {
                return all.stream().filter(room -> room.reads(format)).findFirst().orElse(NONE);
            }
        };
    }

    /**
     * Which version of a table is read.
     *
     * @param metadataFile the name of the metadata file in the table's {@code metadata/} folder that a registration pins
     * ({@code register_table}'s {@code metadata_file_name}), else the current one
     * @param snapshotId the snapshot read ({@code FOR VERSION AS OF}: an Iceberg snapshot id, a Delta Lake version),
     * else the current one
     */
    record Version(Optional<String> metadataFile, OptionalLong snapshotId)
    {
        public static final Version CURRENT = new Version(Optional.empty(), OptionalLong.empty());

        public Version
        {
            requireNonNull(metadataFile, "metadataFile is null");
            requireNonNull(snapshotId, "snapshotId is null");
        }
    }

    /**
     * The table of {@code format} whose folder is {@code location}, as of its current version, which the result pins.
     */
    default LakeTable read(SchemaTableName name, S3Location location, TableFormat format, S3RequestStats stats)
    {
        return read(name, location, format, Version.CURRENT, stats);
    }

    /**
     * The table as of {@code version} (its files and its schema then).
     */
    LakeTable read(SchemaTableName name, S3Location location, TableFormat format, Version version, S3RequestStats stats);

    /**
     * The snapshot that was current at {@code instant}, by the pinned metadata file where there is one.
     */
    long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Optional<String> metadataFile, Instant instant, S3RequestStats stats);
}
