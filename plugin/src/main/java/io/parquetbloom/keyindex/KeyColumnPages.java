package io.parquetbloom.keyindex;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableMap;

import java.util.List;
import java.util.Map;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static java.util.Objects.requireNonNull;

/**
 * The pages of a split's key column that the key index named for its row groups: the worker reads only these of the
 * key column (located by the chunk's offset index, whose page count must still be {@code pageCount}), then the other
 * columns' pages holding the rows that match.
 *
 * @param column the indexed column
 * @param rowGroups by row group ordinal, the row groups whose key pages the index told apart
 */
public record KeyColumnPages(String column, Map<Integer, RowGroupPages> rowGroups)
{
    /**
     * @param pageCount the key chunk's data pages when the index was built
     * @param pages the pages that may hold a probed key, ascending
     */
    public record RowGroupPages(int pageCount, List<Integer> pages)
    {
        @JsonCreator
        public RowGroupPages(@JsonProperty("pageCount") int pageCount, @JsonProperty("pages") List<Integer> pages)
        {
            this.pageCount = pageCount;
            this.pages = List.copyOf(requireNonNull(pages, "pages is null"));
        }
    }

    @JsonCreator
    public KeyColumnPages(@JsonProperty("column") String column, @JsonProperty("rowGroups") Map<Integer, RowGroupPages> rowGroups)
    {
        this.column = requireNonNull(column, "column is null");
        this.rowGroups = ImmutableMap.copyOf(requireNonNull(rowGroups, "rowGroups is null"));
    }

    /**
     * Whether the pages named are at most half of the key chunks' pages: an IN list of many keys names most of them,
     * and its row groups are then better read whole, a file's in one GET.
     */
    public boolean selective()
    {
        long named = 0;
        long pages = 0;
        for (RowGroupPages rowGroup : rowGroups.values()) {
            named += rowGroup.pages().size();
            pages += rowGroup.pageCount();
        }
        return named * 2 <= pages;
    }

    public long getRetainedSizeInBytes()
    {
        long size = 48 + estimatedSizeOf(column);
        for (RowGroupPages pages : rowGroups.values()) {
            size += 64 + 20L * pages.pages().size();
        }
        return size;
    }
}
