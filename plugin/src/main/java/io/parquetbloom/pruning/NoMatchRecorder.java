package io.parquetbloom.pruning;

import io.parquetbloom.metadata.FileKey;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;

import java.util.Arrays;
import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Watches the pages a reader returns and, for every row group whose rows were all seen and in which no row of a
 * constrained column lies in that column's domain, tells the {@link NoMatchCache}. The next query with the
 * same predicate skips that row group without I/O ({@link RowGroupPruner}): a bloom filter false positive costs its
 * column chunks once, not on every repeated lookup.
 * <p>
 * A false fact would hide rows from every later query, so rows are attributed to the row group the reader says they
 * come from (the file row number of each batch), never by counting, and a row group is recorded only when exactly
 * its row count of rows came from it: a reader that skips rows (page indexes, a pushed-down predicate) or a source
 * closed early records nothing for the row groups it did not finish.
 */
public final class NoMatchRecorder
{
    /**
     * @param channel the column's channel in the pages the page source returns
     * @param column the column name the pruner keys domains by
     */
    public record TrackedColumn(int channel, String column, Domain domain, DomainValueMatcher matcher)
    {
        public TrackedColumn
        {
            requireNonNull(column, "column is null");
            requireNonNull(domain, "domain is null");
            requireNonNull(matcher, "matcher is null");
        }
    }

    /**
     * A row group the reader returns: its ordinal in the file, the file row number of its first row, its rows.
     */
    public record ReadRowGroup(int ordinal, long firstRow, long rowCount)
    {
        /**
         * The index, from {@code from} on, of the row group holding file rows {@code [firstRow, firstRow + rows)},
         * or -1.
         */
        public static int indexOf(List<ReadRowGroup> rowGroups, long firstRow, long rows, int from)
        {
            for (int i = from; i < rowGroups.size(); i++) {
                ReadRowGroup rowGroup = rowGroups.get(i);
                if (firstRow >= rowGroup.firstRow() && firstRow + rows <= rowGroup.firstRow() + rowGroup.rowCount()) {
                    return i;
                }
            }
            return -1;
        }
    }

    private final NoMatchCache cache;
    private final FileKey file;
    private final List<ReadRowGroup> rowGroups;
    private final List<TrackedColumn> columns;
    private final PruningStats stats;
    private final boolean[] matched;
    private int current = -1;
    private long positionsSeen;
    private boolean disabled;

    /**
     * @param rowGroups the row groups the reader returns, in its order
     */
    public NoMatchRecorder(NoMatchCache cache, FileKey file, List<ReadRowGroup> rowGroups, List<TrackedColumn> columns, PruningStats stats)
    {
        this.cache = requireNonNull(cache, "cache is null");
        this.file = requireNonNull(file, "file is null");
        this.rowGroups = List.copyOf(rowGroups);
        this.columns = List.copyOf(columns);
        this.stats = requireNonNull(stats, "stats is null");
        this.matched = new boolean[columns.size()];
        checkArgument(!columns.isEmpty(), "no columns to track");
        // row numbers must tell row groups apart; a footer without usable row offsets gets no facts recorded
        for (int i = 1; i < this.rowGroups.size(); i++) {
            ReadRowGroup previous = this.rowGroups.get(i - 1);
            if (this.rowGroups.get(i).firstRow() < previous.firstRow() + previous.rowCount()) {
                disabled = true;
            }
        }
    }

    /**
     * Called with every page the reader returns, before anything selects positions of it.
     *
     * @param firstRow the file row number of the page's first row, as the reader reports it
     */
    public void observe(SourcePage page, long firstRow)
    {
        if (disabled || page.getPositionCount() == 0) {
            return;
        }
        int rowGroup = ReadRowGroup.indexOf(rowGroups, firstRow, page.getPositionCount(), Math.max(current, 0));
        if (rowGroup < 0) {
            // rows we cannot place: stop, recording nothing more
            disabled = true;
            return;
        }
        if (rowGroup != current) {
            finishCurrent();
            current = rowGroup;
            positionsSeen = 0;
            Arrays.fill(matched, false);
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!matched[i]) {
                TrackedColumn column = columns.get(i);
                matched[i] = column.matcher().anyMatch(page.getBlock(column.channel()));
            }
        }
        positionsSeen += page.getPositionCount();
    }

    /**
     * Called when the reader has returned its last page (not when the source is closed early).
     */
    public void finish()
    {
        if (!disabled) {
            finishCurrent();
        }
        current = -1;
    }

    private void finishCurrent()
    {
        if (current < 0) {
            return;
        }
        ReadRowGroup rowGroup = rowGroups.get(current);
        if (positionsSeen != rowGroup.rowCount()) {
            return;
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!matched[i]) {
                TrackedColumn column = columns.get(i);
                cache.recordNoMatch(file, rowGroup.ordinal(), column.column(), column.domain());
                stats.addRecordedNoMatch();
            }
        }
    }
}
