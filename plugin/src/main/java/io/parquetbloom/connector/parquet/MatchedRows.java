package io.parquetbloom.connector.parquet;

import org.apache.parquet.internal.filter2.columnindex.RowRanges;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static java.lang.Math.toIntExact;

/**
 * The rows the probe matched, among the rows the second read returns: the rest of the pages read (a page of the
 * reference writer holds some 5,000 rows, Trino's writer's 20,000) need not reach the engine, which would filter
 * every one of them again. The reader numbers a row group's rows as it returns them, from the row group's first file
 * row on: with pages selected, the rows of its row ranges in order, not the file's row numbers. That is how
 * trino-parquet 483's {@code ParquetReader.lastBatchStartRow} counts, though its documentation speaks of file rows:
 * {@code TestPageReads} asserts the rows dropped of selected pages, so a reader that counted otherwise is caught. A
 * batch that cannot be placed keeps every row, and the engine filters them as always.
 */
final class MatchedRows
{
    /**
     * A row group the second read returns.
     *
     * @param firstRow the file row number of the row group's first row: the reader's number of the first row it returns
     * @param rowsRead the rows the reader returns of it
     * @param matched the matched rows by their place among those returned, ascending
     */
    private record RowGroup(long firstRow, long rowsRead, int[] matched) {}

    private static final long INSTANCE_SIZE = instanceSize(MatchedRows.class);
    private static final long ROW_GROUP_SIZE = instanceSize(RowGroup.class);

    private final List<RowGroup> rowGroups = new ArrayList<>();
    private int current;
    // held until the split's source closes: a predicate matching millions of rows of a split holds megabytes
    private long retainedBytes;

    /**
     * Adds the next row group the reader returns.
     *
     * @param matchedRows the rows (positions in the row group) the probe matched, ascending
     * @param rowsRead the rows the reader returns, in order: the selected pages' row ranges, or every row where empty
     * @return false where a matched row is not among those returned, or the rows are not ascending: then no row
     * group's rows are dropped
     */
    boolean add(long firstRow, long rowCount, long[] matchedRows, Optional<RowRanges> rowsRead)
    {
        for (int i = 1; i < matchedRows.length; i++) {
            if (matchedRows[i] <= matchedRows[i - 1]) {
                return false;
            }
        }
        List<RowRanges.Range> ranges = rowsRead.map(RowRanges::getRanges).orElseGet(() -> RowRanges.createSingle(rowCount).getRanges());
        int[] places = new int[matchedRows.length];
        int next = 0;
        long before = 0;
        for (RowRanges.Range range : ranges) {
            while (next < matchedRows.length && matchedRows[next] <= range.to) {
                if (matchedRows[next] < range.from || before + matchedRows[next] - range.from > Integer.MAX_VALUE) {
                    return false;
                }
                places[next] = toIntExact(before + matchedRows[next] - range.from);
                next++;
            }
            before += range.to - range.from + 1;
        }
        if (next < matchedRows.length) {
            return false;
        }
        rowGroups.add(new RowGroup(firstRow, before, places));
        retainedBytes += ROW_GROUP_SIZE + sizeOf(places);
        return true;
    }

    /**
     * The memory the matched rows hold: counted in the page source's memory usage.
     */
    long retainedSizeInBytes()
    {
        return INSTANCE_SIZE + retainedBytes;
    }

    /**
     * The positions of a batch the reader returned that hold matched rows, or empty where every row is to be kept (the
     * batch cannot be placed in one row group).
     *
     * @param batchStart the reader's number of the batch's first row ({@code ParquetReader.lastBatchStartRow})
     */
    Optional<int[]> positions(long batchStart, int count)
    {
        // the reader returns the row groups in the order added, each one's batches in order; their file rows are apart
        for (int i = current; i < rowGroups.size(); i++) {
            RowGroup rowGroup = rowGroups.get(i);
            long from = batchStart - rowGroup.firstRow();
            if (from >= 0 && from + count <= rowGroup.rowsRead() && from + count <= Integer.MAX_VALUE) {
                current = i;
                return Optional.of(positionsIn(rowGroup.matched(), toIntExact(from), count));
            }
        }
        return Optional.empty();
    }

    private static int[] positionsIn(int[] matched, int from, int count)
    {
        int first = insertionPoint(matched, from);
        int end = insertionPoint(matched, from + count);
        int[] positions = new int[end - first];
        for (int i = first; i < end; i++) {
            positions[i - first] = matched[i] - from;
        }
        return positions;
    }

    private static int insertionPoint(int[] sorted, int value)
    {
        int found = Arrays.binarySearch(sorted, value);
        return found >= 0 ? found : -found - 1;
    }
}
