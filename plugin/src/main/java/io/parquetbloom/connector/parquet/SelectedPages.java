package io.parquetbloom.connector.parquet;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.metadata.ChunkPages;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.filter2.predicate.UserDefinedPredicate;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.BoundaryOrder;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;

import static java.util.Objects.requireNonNull;

/**
 * The pages to read of each column of one row group, given to trino-parquet as a column index store: its reader
 * asks each column's "column index" which pages may match its predicate ({@link PageSelectionPredicate}), gets these
 * pages, intersects the rows they cover over all columns, and reads of every column only the pages holding those rows.
 * As each column's pages hold every row wanted, so does the intersection; each column then reads exactly its
 * selected pages (and its dictionary page), and the engine filters the rows it returns as always.
 */
final class SelectedPages
        implements ColumnIndexStore
{
    private final Map<ColumnPath, ChunkPages> pages;
    private final Map<ColumnPath, BitSet> selected;

    SelectedPages(Map<ColumnPath, ChunkPages> pages, Map<ColumnPath, BitSet> selected)
    {
        this.pages = ImmutableMap.copyOf(requireNonNull(pages, "pages is null"));
        this.selected = ImmutableMap.copyOf(requireNonNull(selected, "selected is null"));
    }

    @Override
    public ColumnIndex getColumnIndex(ColumnPath column)
    {
        BitSet pagesOfColumn = selected.get(column);
        return pagesOfColumn == null ? null : new SelectedPagesIndex(pagesOfColumn, pages.get(column).getPageCount());
    }

    @Override
    public OffsetIndex getOffsetIndex(ColumnPath column)
    {
        OffsetIndex index = pages.get(column);
        if (index == null) {
            throw new MissingOffsetIndexException(column);
        }
        return index;
    }

    /**
     * A "column index" that answers every predicate with the selected pages.
     */
    private record SelectedPagesIndex(BitSet selected, int pageCount)
            implements ColumnIndex
    {
        private PrimitiveIterator.OfInt pages()
        {
            return selected.stream().iterator();
        }

        @Override
        public BoundaryOrder getBoundaryOrder()
        {
            return BoundaryOrder.UNORDERED;
        }

        // one entry per page: the filter checks the sizes against the offset index before it asks for pages

        @Override
        public List<Long> getNullCounts()
        {
            return Collections.nCopies(pageCount, 0L);
        }

        @Override
        public List<Boolean> getNullPages()
        {
            return Collections.nCopies(pageCount, false);
        }

        @Override
        public List<ByteBuffer> getMinValues()
        {
            return Collections.nCopies(pageCount, ByteBuffer.allocate(0));
        }

        @Override
        public List<ByteBuffer> getMaxValues()
        {
            return Collections.nCopies(pageCount, ByteBuffer.allocate(0));
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.Eq<T> eq)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.NotEq<T> notEq)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.Lt<T> lt)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.LtEq<T> ltEq)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.Gt<T> gt)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>> PrimitiveIterator.OfInt visit(Operators.GtEq<T> gtEq)
        {
            return pages();
        }

        @Override
        public PrimitiveIterator.OfInt visit(Operators.And and)
        {
            return pages();
        }

        @Override
        public PrimitiveIterator.OfInt visit(Operators.Or or)
        {
            return pages();
        }

        @Override
        public PrimitiveIterator.OfInt visit(Operators.Not not)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> PrimitiveIterator.OfInt visit(Operators.UserDefined<T, U> userDefined)
        {
            return pages();
        }

        @Override
        public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> PrimitiveIterator.OfInt visit(Operators.LogicalNotUserDefined<T, U> notUserDefined)
        {
            return pages();
        }
    }
}
