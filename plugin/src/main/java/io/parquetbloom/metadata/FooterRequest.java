package io.parquetbloom.metadata;

import com.google.common.collect.ImmutableSet;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.spi.connector.SchemaTableName;

import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One request for a file's footer, naming what it is for and which columns it serves; {@link ParquetMetadataReader}
 * answers every purpose with one method and chooses between the compact and the whole footer by it.
 *
 * @param table the table whose files share a layout, for the learned tail size
 * @param readWholeUpTo a file of at most this many bytes is read whole (0: never), as trino-parquet reads small files:
 * one GET brings the dictionaries too
 * @param filterColumns the top-level columns (lower case) whose filters the caller asks for next: the tail's filters
 * of those are kept
 * @param columns the top-level columns (lower case) the caller reads chunks of (planning: the constrained ones; a
 * reader: the read and filtered ones): a compact footer serves when it covers them
 */
public record FooterRequest(S3ObjectInfo object, SchemaTableName table, Purpose purpose, long readWholeUpTo, Set<String> filterColumns, Set<String> columns)
{
    public enum Purpose
    {
        /**
         * The footer alone (its schema, row groups and chunks): the cached entry keeps only the footer's bytes.
         */
        FOOTER,
        /**
         * The footer, keeping every filter the tail read brought: for the health tables and the probe, which look at
         * every column's filter.
         */
        ALL_FILTERS,
        /**
         * Pruning a file at planning: the compact form when cached and covering {@code columns}, else the whole footer,
         * else read with all the bytes read (a compact form of {@code columns} is kept).
         */
        PRUNING,
        /**
         * Reading a split: the compact form when cached and holding every column the reader reads, else the whole
         * footer, cached or read.
         */
        READING,
    }

    public FooterRequest
    {
        requireNonNull(object, "object is null");
        requireNonNull(table, "table is null");
        requireNonNull(purpose, "purpose is null");
        // planning passes the plan's immutable sets for every file: kept as they are, not copied
        filterColumns = ImmutableSet.copyOf(requireNonNull(filterColumns, "filterColumns is null"));
        columns = ImmutableSet.copyOf(requireNonNull(columns, "columns is null"));
    }

    public static FooterRequest footer(S3ObjectInfo object, SchemaTableName table)
    {
        return new FooterRequest(object, table, Purpose.FOOTER, 0, Set.of(), Set.of());
    }

    public static FooterRequest withAllFilters(S3ObjectInfo object, SchemaTableName table)
    {
        return new FooterRequest(object, table, Purpose.ALL_FILTERS, 0, Set.of(), Set.of());
    }

    public static FooterRequest forPruning(S3ObjectInfo object, SchemaTableName table, long readWholeUpTo, Set<String> filterColumns, Set<String> constrainedColumns)
    {
        return new FooterRequest(object, table, Purpose.PRUNING, readWholeUpTo, filterColumns, constrainedColumns);
    }

    public static FooterRequest forReading(S3ObjectInfo object, SchemaTableName table, long readWholeUpTo, Set<String> filterColumns, Set<String> readColumns)
    {
        return new FooterRequest(object, table, Purpose.READING, readWholeUpTo, filterColumns, readColumns);
    }
}
