package io.parquetbloom.s3;

import io.trino.parquet.DiskRange;

import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The column chunks a reader will read, by row group, and which of them belong to the columns the query filters on.
 * {@link S3ParquetDataSource} fetches the filter columns' chunks first and the other projected chunks of a row group
 * only when the reader asks for them, which it does only when the engine found a row of that row group it needs: a row
 * group that survived the filters by a false positive then costs its filter columns' chunks, not all its columns.
 *
 * @param filterChunks the byte ranges of the filter columns' chunks, exactly as the reader plans them
 * @param rowGroupOfChunk the row group (its position among those read) of every chunk the reader plans
 */
public record ColumnChunkLayout(Set<DiskRange> filterChunks, Map<DiskRange, Integer> rowGroupOfChunk)
{
    public ColumnChunkLayout
    {
        filterChunks = Set.copyOf(requireNonNull(filterChunks, "filterChunks is null"));
        rowGroupOfChunk = Map.copyOf(requireNonNull(rowGroupOfChunk, "rowGroupOfChunk is null"));
    }

    /**
     * A layout without filter columns: chunks are read as the reader asks for them, adjacent ones together.
     */
    public static ColumnChunkLayout unfiltered()
    {
        return new ColumnChunkLayout(Set.of(), Map.of());
    }

    public boolean readsFilterColumnsFirst()
    {
        return !filterChunks.isEmpty();
    }

    public boolean isFilterChunk(DiskRange range)
    {
        return filterChunks.contains(range);
    }

    /**
     * The row group a chunk belongs to, or -1 for a chunk the layout does not know (those are read together, as without a layout).
     */
    public int rowGroupOf(DiskRange range)
    {
        return rowGroupOfChunk.getOrDefault(range, -1);
    }
}
