package io.parquetbloom.connector.parquet;

import io.trino.parquet.DiskRange;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The column chunks a reader will read, by row group, which of them belong to the columns the query filters on, and
 * how each row group is read. {@link S3ParquetDataSource} reads a row group either key first (its filter columns'
 * chunks ahead of the reader, the other projected chunks only when the reader asks for them, which it does only when
 * the engine found a row of that row group it needs: a row group that survived the filters by a false positive then
 * costs its filter columns' chunks, not all its columns) or whole (all its projected chunks ahead of the reader, in one
 * GET where they lie together: where a match is likely, key first would chain two GETs for it).
 *
 * @param filterChunks the byte ranges of the filter columns' chunks, exactly as the reader plans them
 * @param rowGroupOfChunk the row group (its position among those read) of every chunk the reader plans; a range
 * the reader plans inside a chunk (a piece, or pages) belongs to that chunk
 * @param wholeRowGroups the row groups (positions among those read) read whole
 */
public record ColumnChunkLayout(Set<DiskRange> filterChunks, Map<DiskRange, Integer> rowGroupOfChunk, Set<Integer> wholeRowGroups)
{
    public ColumnChunkLayout
    {
        filterChunks = Set.copyOf(requireNonNull(filterChunks, "filterChunks is null"));
        rowGroupOfChunk = Map.copyOf(requireNonNull(rowGroupOfChunk, "rowGroupOfChunk is null"));
        wholeRowGroups = Set.copyOf(requireNonNull(wholeRowGroups, "wholeRowGroups is null"));
    }

    /**
     * Every row group key column first.
     */
    public ColumnChunkLayout(Set<DiskRange> filterChunks, Map<DiskRange, Integer> rowGroupOfChunk)
    {
        this(filterChunks, rowGroupOfChunk, Set.of());
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

    /**
     * Whether the range (a chunk, a piece of one, or pages of one) lies in a filter column's chunk.
     */
    public boolean isFilterChunk(DiskRange range)
    {
        return chunkOf(range).map(filterChunks::contains).orElse(false);
    }

    /**
     * Whether the chunk is fetched ahead of the reader: a filter chunk, or any chunk of a row group read whole.
     */
    public boolean readsAhead(DiskRange range)
    {
        return isFilterChunk(range) || wholeRowGroups.contains(rowGroupOf(range));
    }

    /**
     * The row group a chunk belongs to, or -1 for a chunk the layout does not know (those are read together, as without a layout).
     */
    public int rowGroupOf(DiskRange range)
    {
        return chunkOf(range).map(rowGroupOfChunk::get).orElse(-1);
    }

    /**
     * The chunk that holds the range: the reader plans whole chunks, pieces of them, or (reading by pages) pages.
     */
    private Optional<DiskRange> chunkOf(DiskRange range)
    {
        if (rowGroupOfChunk.containsKey(range)) {
            return Optional.of(range);
        }
        for (DiskRange chunk : rowGroupOfChunk.keySet()) {
            if (chunk.offset() <= range.offset() && range.end() <= chunk.end()) {
                return Optional.of(chunk);
            }
        }
        return Optional.empty();
    }
}
