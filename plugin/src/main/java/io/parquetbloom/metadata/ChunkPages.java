package io.parquetbloom.metadata;

import org.apache.parquet.internal.column.columnindex.OffsetIndex;

import java.util.Arrays;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The data pages of one column chunk as its offset index locates them, checked against the chunk the footer declares:
 * where each page's bytes lie and the row each starts at. Only an index that agrees with its chunk in every respect is
 * kept (see {@link #validated}); reading pages by a wrong one would return wrong rows, so anything else means the
 * chunk is read whole.
 */
public final class ChunkPages
        implements OffsetIndex
{
    private final long[] offsets;
    private final int[] sizes;
    private final long[] firstRows;

    private ChunkPages(long[] offsets, int[] sizes, long[] firstRows)
    {
        this.offsets = requireNonNull(offsets, "offsets is null");
        this.sizes = requireNonNull(sizes, "sizes is null");
        this.firstRows = requireNonNull(firstRows, "firstRows is null");
    }

    /**
     * The index, where it describes the chunk: at least one page; the first at the chunk's first data page and at row
     * 0; each page starting where the one before ends, at a later row; the last ending where the chunk ends and
     * starting at a row of the row group. Empty otherwise.
     *
     * @param firstDataPage the chunk's first data page offset (after its dictionary page, if any)
     * @param chunkEnd the offset just past the chunk
     * @param rowCount rows in the row group
     */
    public static Optional<ChunkPages> validated(OffsetIndex index, long firstDataPage, long chunkEnd, long rowCount)
    {
        int pages = index.getPageCount();
        if (pages < 1 || index.getOffset(0) != firstDataPage || index.getFirstRowIndex(0) != 0) {
            return Optional.empty();
        }
        long[] offsets = new long[pages];
        int[] sizes = new int[pages];
        long[] firstRows = new long[pages];
        for (int page = 0; page < pages; page++) {
            offsets[page] = index.getOffset(page);
            sizes[page] = index.getCompressedPageSize(page);
            firstRows[page] = index.getFirstRowIndex(page);
            if (sizes[page] <= 0 || firstRows[page] >= rowCount) {
                return Optional.empty();
            }
            if (page > 0 && (offsets[page] != offsets[page - 1] + sizes[page - 1] || firstRows[page] <= firstRows[page - 1])) {
                return Optional.empty();
            }
        }
        if (offsets[pages - 1] + sizes[pages - 1] != chunkEnd) {
            return Optional.empty();
        }
        return Optional.of(new ChunkPages(offsets, sizes, firstRows));
    }

    @Override
    public int getPageCount()
    {
        return offsets.length;
    }

    @Override
    public long getOffset(int pageIndex)
    {
        return offsets[pageIndex];
    }

    @Override
    public int getCompressedPageSize(int pageIndex)
    {
        return sizes[pageIndex];
    }

    @Override
    public long getFirstRowIndex(int pageIndex)
    {
        return firstRows[pageIndex];
    }

    /**
     * The page holding a row of the row group.
     */
    public int pageOf(long row)
    {
        int found = Arrays.binarySearch(firstRows, row);
        return found >= 0 ? found : -found - 2;
    }

    /**
     * Bytes of the chunk's data pages, dictionary page excluded.
     */
    public long dataBytes()
    {
        return offsets[offsets.length - 1] + sizes[sizes.length - 1] - offsets[0];
    }

    public long getRetainedSizeInBytes()
    {
        return 64 + 20L * offsets.length;
    }
}
