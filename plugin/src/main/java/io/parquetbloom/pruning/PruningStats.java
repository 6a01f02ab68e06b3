package io.parquetbloom.pruning;

import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metric;

import java.util.Map;

import static com.google.common.collect.ImmutableMap.toImmutableMap;

/**
 * What pruning did for one reader: these counters become the page source's metrics, shown per table scan in
 * {@code EXPLAIN ANALYZE VERBOSE}.
 */
public final class PruningStats
{
    private long rowGroupsTotal;
    private long rowGroupsPrunedByStatistics;
    private long rowGroupsPrunedByBloomFilter;
    private long rowGroupsPrunedByNoMatchCache;
    private long rowGroupsRecordedNoMatch;
    private long bloomFiltersProbed;
    private long bloomFiltersUnusable;
    private long bloomFilterBytesRead;
    private long rowGroupsRead;

    /**
     * Adds another reader's counters (the split source prunes files in parallel, each with its own stats).
     */
    public synchronized void add(PruningStats other)
    {
        rowGroupsTotal += other.rowGroupsTotal;
        rowGroupsPrunedByStatistics += other.rowGroupsPrunedByStatistics;
        rowGroupsPrunedByBloomFilter += other.rowGroupsPrunedByBloomFilter;
        rowGroupsPrunedByNoMatchCache += other.rowGroupsPrunedByNoMatchCache;
        rowGroupsRecordedNoMatch += other.rowGroupsRecordedNoMatch;
        bloomFiltersProbed += other.bloomFiltersProbed;
        bloomFiltersUnusable += other.bloomFiltersUnusable;
        bloomFilterBytesRead += other.bloomFilterBytesRead;
        rowGroupsRead += other.rowGroupsRead;
    }

    public void addRowGroupsRead(long count)
    {
        rowGroupsRead += count;
    }

    public void addRowGroups(long count)
    {
        rowGroupsTotal += count;
    }

    public void addPrunedByStatistics()
    {
        rowGroupsPrunedByStatistics++;
    }

    public void addPrunedByBloomFilter()
    {
        rowGroupsPrunedByBloomFilter++;
    }

    public void addPrunedByNoMatchCache()
    {
        rowGroupsPrunedByNoMatchCache++;
    }

    public synchronized void addRecordedNoMatch()
    {
        rowGroupsRecordedNoMatch++;
    }

    public void addBloomFilterProbed()
    {
        bloomFiltersProbed++;
    }

    public void addBloomFilterUnusable()
    {
        bloomFiltersUnusable++;
    }

    public void addBloomFilterBytesRead(long bytes)
    {
        bloomFilterBytesRead += bytes;
    }

    public long rowGroupsTotal()
    {
        return rowGroupsTotal;
    }

    public long rowGroupsPrunedByStatistics()
    {
        return rowGroupsPrunedByStatistics;
    }

    public long rowGroupsPrunedByBloomFilter()
    {
        return rowGroupsPrunedByBloomFilter;
    }

    public long bloomFiltersUnusable()
    {
        return bloomFiltersUnusable;
    }

    public long bloomFilterBytesRead()
    {
        return bloomFilterBytesRead;
    }

    public synchronized Map<String, Metric<?>> toMetrics()
    {
        return Map.of(
                        "rowGroupsTotal", rowGroupsTotal,
                        "rowGroupsPrunedByStatistics", rowGroupsPrunedByStatistics,
                        "rowGroupsPrunedByBloomFilter", rowGroupsPrunedByBloomFilter,
                        "rowGroupsPrunedByNoMatchCache", rowGroupsPrunedByNoMatchCache,
                        "rowGroupsRecordedNoMatch", rowGroupsRecordedNoMatch,
                        "bloomFiltersProbed", bloomFiltersProbed,
                        "bloomFiltersUnusable", bloomFiltersUnusable,
                        "bloomFilterBytesRead", bloomFilterBytesRead,
                        "rowGroupsRead", rowGroupsRead)
                .entrySet().stream()
                .collect(toImmutableMap(Map.Entry::getKey, entry -> new LongCount(entry.getValue())));
    }
}
