package io.parquetbloom.pruning;

import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Watches the pages a reader returns and, for every row group read to its end in which no row of a constrained
 * column lies in that column's domain, tells the {@link ParquetMetadataCache}. The next query with the same
 * predicate skips that row group without I/O ({@link RowGroupPruner}): a bloom filter false positive costs its
 * column chunks once, not on every repeated lookup.
 */
public final class NoMatchRecorder
{
    /**
     * @param channel the column's channel in the reader's pages
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

    private final ParquetMetadataCache cache;
    private final FileKey file;
    private final List<Integer> ordinals;
    private final long[] rowCounts;
    private final List<TrackedColumn> columns;
    private final PruningStats stats;
    private final boolean[] matched;
    private int current;
    private long positionsSeen;
    private boolean disabled;

    /**
     * @param ordinals the row groups the reader returns, in its order
     * @param rowCounts their row counts
     */
    public NoMatchRecorder(ParquetMetadataCache cache, FileKey file, List<Integer> ordinals, long[] rowCounts, List<TrackedColumn> columns, PruningStats stats)
    {
        this.cache = requireNonNull(cache, "cache is null");
        this.file = requireNonNull(file, "file is null");
        this.ordinals = List.copyOf(ordinals);
        this.rowCounts = rowCounts.clone();
        this.columns = List.copyOf(columns);
        this.stats = requireNonNull(stats, "stats is null");
        this.matched = new boolean[columns.size()];
        skipEmptyRowGroups();
    }

    /**
     * Called with every page before it is handed on, while its blocks can still be loaded.
     */
    public void observe(SourcePage page)
    {
        if (disabled || current >= ordinals.size()) {
            return;
        }
        long remaining = rowCounts[current] - positionsSeen;
        if (page.getPositionCount() > remaining) {
            // the reader's pages do not cross row groups; if they ever did, we could not attribute rows: stop
            disabled = true;
            return;
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!matched[i]) {
                TrackedColumn column = columns.get(i);
                matched[i] = column.matcher().anyMatch(page.getBlock(column.channel()));
            }
        }
        positionsSeen += page.getPositionCount();
        if (positionsSeen == rowCounts[current]) {
            for (int i = 0; i < columns.size(); i++) {
                if (!matched[i]) {
                    TrackedColumn column = columns.get(i);
                    cache.recordNoMatch(file, ordinals.get(current), column.column(), column.domain());
                    stats.addRecordedNoMatch();
                }
                matched[i] = false;
            }
            current++;
            positionsSeen = 0;
            skipEmptyRowGroups();
        }
    }

    private void skipEmptyRowGroups()
    {
        while (current < ordinals.size() && rowCounts[current] == 0) {
            current++;
        }
    }
}
