package io.parquetbloom.connector.parquet;

import io.parquetbloom.metadata.ChunkPages;
import io.trino.parquet.DiskRange;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.joda.time.DateTimeZone;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the pages of a row group's columns that hold given rows, and works out exactly what trino-parquet will then
 * read: the rows it returns are those every column's chosen pages cover ({@link SelectedPages}), and of each column
 * it reads the pages overlapping those rows, with the dictionary page before them.
 */
final class PageSelector
{
    private PageSelector() {}

    /**
     * @param store what the reader is given for the row group
     * @param ranges of each column, what the reader reads: dictionary page, then runs of adjacent selected pages
     * @param pagesRead data pages read, over all columns
     * @param pagesSkipped data pages not read
     * @param bytesSkipped bytes of the pages not read
     * @param rows the rows the reader returns, in this order
     */
    record Selection(SelectedPages store, Map<ColumnPath, List<DiskRange>> ranges, long pagesRead, long pagesSkipped, long bytesSkipped, RowRanges rows) {}

    /**
     * The pages holding {@code rows} (ascending positions in the row group), or empty where they are all the row
     * group's rows: the reader then reads the chunks whole.
     *
     * @param pages each column's pages, for every column the reader reads
     * @param chunks each column's chunk
     */
    static Optional<Selection> select(long rowCount, Map<ColumnPath, ChunkPages> pages, Map<ColumnPath, ColumnChunkMetadata> chunks, long[] rows)
    {
        Map<ColumnPath, BitSet> selected = new HashMap<>();
        pages.forEach((path, columnPages) -> {
            BitSet pagesOfRows = new BitSet(columnPages.getPageCount());
            for (long row : rows) {
                pagesOfRows.set(columnPages.pageOf(row));
            }
            selected.put(path, pagesOfRows);
        });
        SelectedPages store = new SelectedPages(pages, selected);
        RowRanges rowRanges = rowRanges(store, List.copyOf(pages.keySet()), rowCount);
        if (rowRanges.rowCount() >= rowCount) {
            return Optional.empty();
        }
        Map<ColumnPath, List<DiskRange>> ranges = new HashMap<>();
        long pagesRead = 0;
        long pagesSkipped = 0;
        long bytesSkipped = 0;
        for (Map.Entry<ColumnPath, ChunkPages> entry : pages.entrySet()) {
            ChunkPages columnPages = entry.getValue();
            List<DiskRange> columnRanges = new ArrayList<>();
            long chunkStart = chunks.get(entry.getKey()).getStartingPos();
            if (chunkStart < columnPages.getOffset(0)) {
                columnRanges.add(new DiskRange(chunkStart, columnPages.getOffset(0) - chunkStart));
            }
            for (int page = 0; page < columnPages.getPageCount(); page++) {
                if (!rowRanges.isOverlapping(columnPages.getFirstRowIndex(page), columnPages.getLastRowIndex(page, rowCount))) {
                    pagesSkipped++;
                    bytesSkipped += columnPages.getCompressedPageSize(page);
                    continue;
                }
                pagesRead++;
                addPage(columnRanges, new DiskRange(columnPages.getOffset(page), columnPages.getCompressedPageSize(page)));
            }
            ranges.put(entry.getKey(), columnRanges);
        }
        return Optional.of(new Selection(store, ranges, pagesRead, pagesSkipped, bytesSkipped, rowRanges));
    }

    /**
     * What the reader reads of a chunk of which it reads {@code selected} pages: its dictionary page (what lies before
     * the first data page), then each run of adjacent selected pages.
     */
    static List<DiskRange> ranges(ChunkPages pages, long chunkStart, BitSet selected)
    {
        List<DiskRange> ranges = new ArrayList<>();
        if (chunkStart < pages.getOffset(0)) {
            ranges.add(new DiskRange(chunkStart, pages.getOffset(0) - chunkStart));
        }
        selected.stream().forEach(page -> addPage(ranges, new DiskRange(pages.getOffset(page), pages.getCompressedPageSize(page))));
        return ranges;
    }

    /**
     * The rows trino-parquet reads of the row group, computed as it computes them.
     */
    static RowRanges rowRanges(SelectedPages store, List<ColumnPath> columns, long rowCount)
    {
        FilterCompat.Filter filter = FilterCompat.get(new PageSelectionPredicate(columns).toParquetFilter(DateTimeZone.UTC).orElseThrow());
        return ColumnIndexFilter.calculateRowRanges(filter, store, Set.copyOf(columns), rowCount);
    }

    private static void addPage(List<DiskRange> ranges, DiskRange page)
    {
        if (!ranges.isEmpty() && ranges.getLast().end() == page.offset()) {
            DiskRange last = ranges.removeLast();
            ranges.add(new DiskRange(last.offset(), last.length() + page.length()));
            return;
        }
        ranges.add(page);
    }
}
