package io.parquetbloom.pruning;

import org.weakref.jmx.Managed;

import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's pruning since the catalog started, for JMX and OpenMetrics: what the split sources planned on the
 * coordinator and the page sources read on workers, by cause. Queries see their own share in their metrics.
 */
public class PruningTotals
{
    private final PruningStats rowGroups = new PruningStats();
    private final AtomicLong filesPruned = new AtomicLong();
    private final AtomicLong filesFailedOpen = new AtomicLong();

    public void add(PruningStats stats)
    {
        rowGroups.add(stats);
    }

    public void addFilesPruned(long files)
    {
        filesPruned.addAndGet(files);
    }

    public void addFileFailedOpen()
    {
        filesFailedOpen.incrementAndGet();
    }

    @Managed(description = "Row groups considered by pruning")
    public long getRowGroups()
    {
        return rowGroups.rowGroupsTotal();
    }

    @Managed(description = "Row groups skipped by min/max and null-count statistics")
    public long getRowGroupsPrunedByStatistics()
    {
        return rowGroups.rowGroupsPrunedByStatistics();
    }

    @Managed(description = "Row groups skipped by bloom filters")
    public long getRowGroupsPrunedByBloomFilter()
    {
        return rowGroups.rowGroupsPrunedByBloomFilter();
    }

    @Managed(description = "Row groups skipped because an earlier read found no row of the same column predicate")
    public long getRowGroupsPrunedByNoMatchCache()
    {
        return rowGroups.rowGroupsPrunedByNoMatchCache();
    }

    @Managed(description = "Row groups skipped because the dictionary of an entirely dictionary-encoded chunk holds no value of the predicate")
    public long getRowGroupsPrunedByDictionary()
    {
        return rowGroups.rowGroupsPrunedByDictionary();
    }

    @Managed(description = "Dictionary pages read to prune row groups")
    public long getDictionaryPagesRead()
    {
        return rowGroups.dictionaryPagesRead();
    }

    @Managed(description = "Dictionary bytes fetched from S3 to prune row groups")
    public long getDictionaryBytesRead()
    {
        return rowGroups.dictionaryBytesRead();
    }

    @Managed(description = "Dictionary pages that could not be used (unreadable, inconsistent): their row groups were kept")
    public long getDictionariesUnusable()
    {
        return rowGroups.dictionariesUnusable();
    }

    @Managed(description = "Row groups read")
    public long getRowGroupsRead()
    {
        return rowGroups.rowGroupsRead();
    }

    @Managed(description = "Files with no surviving row group, skipped before splits")
    public long getFilesPruned()
    {
        return filesPruned.get();
    }

    @Managed(description = "Files whose metadata could not be read when planning, read whole (fail open)")
    public long getFilesFailedOpen()
    {
        return filesFailedOpen.get();
    }

    @Managed(description = "Bloom filters that could not be used (unreadable, unknown, untrusted): their row groups were kept")
    public long getBloomFiltersUnusable()
    {
        return rowGroups.bloomFiltersUnusable();
    }

    @Managed(description = "Row groups whose statistics could not be used: kept")
    public long getStatisticsUnusable()
    {
        return rowGroups.statisticsUnusable();
    }
}
