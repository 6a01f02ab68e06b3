package io.parquetbloom.connector.parquet;

import org.apache.parquet.internal.column.columnindex.OffsetIndexBuilder;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

final class TestMatchedRows
{
    @Test
    void wholeRowGroupsKeepTheirMatchedRows()
    {
        MatchedRows rows = new MatchedRows();
        assertThat(rows.add(1_000, 100, new long[] {3, 50, 99}, Optional.empty())).isTrue();
        assertThat(rows.add(5_000, 10, new long[] {0}, Optional.empty())).isTrue();
        assertThat(rows.positions(1_000, 40)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(3));
        assertThat(rows.positions(1_040, 20)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(10));
        assertThat(rows.positions(1_060, 40)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(39));
        assertThat(rows.positions(5_000, 10)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(0));
    }

    /**
     * With pages selected the reader returns the rows of the row ranges one after another, numbered from the row
     * group's first file row.
     */
    @Test
    void selectedPagesNumberTheirRowsInOrder()
    {
        // pages of 10 rows; pages 2 and 5 to 6 read: rows 20-29 and 50-69
        RowRanges read = ranges(100, 10, 2, 5, 6);
        MatchedRows rows = new MatchedRows();
        assertThat(rows.add(200, 100, new long[] {21, 29, 50, 68}, Optional.of(read))).isTrue();
        // returned: 20..29 as 0..9, 50..69 as 10..29
        assertThat(rows.positions(200, 30)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(1, 9, 10, 28));
        MatchedRows again = new MatchedRows();
        again.add(200, 100, new long[] {21, 29, 50, 68}, Optional.of(read));
        assertThat(again.positions(200, 8)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(1));
        assertThat(again.positions(208, 8)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(1, 2));
        assertThat(again.positions(216, 14)).hasValueSatisfying(positions -> assertThat(positions).containsExactly(12));
    }

    @Test
    void theMatchedRowsCountInMemory()
    {
        MatchedRows rows = new MatchedRows();
        long empty = rows.retainedSizeInBytes();
        rows.add(0, 2_000_000, LongStream.range(0, 1_000_000).map(row -> row * 2).toArray(), Optional.empty());
        assertThat(rows.retainedSizeInBytes()).isGreaterThanOrEqualTo(empty + 4_000_000);
        // a refused row group holds nothing
        long held = rows.retainedSizeInBytes();
        assertThat(rows.add(3_000_000, 100, new long[] {5, 3}, Optional.empty())).isFalse();
        assertThat(rows.retainedSizeInBytes()).isEqualTo(held);
    }

    @Test
    void aMatchedRowNotReadIsRefused()
    {
        MatchedRows rows = new MatchedRows();
        assertThat(rows.add(0, 100, new long[] {21, 35}, Optional.of(ranges(100, 10, 2)))).isFalse();
        assertThat(new MatchedRows().add(0, 100, new long[] {5}, Optional.of(ranges(100, 10, 2)))).isFalse();
    }

    @Test
    void rowsNotAscendingAreRefused()
    {
        assertThat(new MatchedRows().add(0, 100, new long[] {5, 3}, Optional.empty())).isFalse();
        assertThat(new MatchedRows().add(0, 100, new long[] {5, 5}, Optional.empty())).isFalse();
        assertThat(new MatchedRows().add(0, 100, new long[] {}, Optional.empty())).isTrue();
    }

    @Test
    void aBatchThatCannotBePlacedKeepsEveryRow()
    {
        MatchedRows rows = new MatchedRows();
        rows.add(0, 100, new long[] {1}, Optional.empty());
        rows.add(100, 100, new long[] {1}, Optional.empty());
        // across two row groups, past the last, before the first
        assertThat(rows.positions(90, 20)).isEmpty();
        assertThat(rows.positions(300, 5)).isEmpty();
        MatchedRows later = new MatchedRows();
        later.add(1_000, 100, new long[] {1}, Optional.empty());
        assertThat(later.positions(0, 10)).isEmpty();
    }

    private static RowRanges ranges(long rowCount, int pageRows, int... pages)
    {
        int pageCount = (int) (rowCount / pageRows);
        OffsetIndexBuilder builder = OffsetIndexBuilder.getBuilder();
        for (int page = 0; page < pageCount; page++) {
            builder.add(1_000, pageRows);
        }
        PrimitiveIterator.OfInt selected = IntStream.of(pages).iterator();
        return RowRanges.create(rowCount, selected, builder.build(0));
    }
}
