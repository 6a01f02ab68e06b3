package io.parquetbloom.pruning;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metric;

import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkArgument;

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
    private long bloomFilterVectorProbes;
    private long statisticsUnusable;
    private long bloomFiltersUnusable;
    private long bloomFiltersNotFetched;
    private long bloomFilterBytesRead;
    private long rowGroupsRead;
    private long rowGroupsPrunedByDictionary;
    private long dictionaryPagesRead;
    private long dictionaryBytesRead;
    private long dictionariesUnusable;

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
        bloomFilterVectorProbes += other.bloomFilterVectorProbes;
        statisticsUnusable += other.statisticsUnusable;
        bloomFiltersUnusable += other.bloomFiltersUnusable;
        bloomFiltersNotFetched += other.bloomFiltersNotFetched;
        bloomFilterBytesRead += other.bloomFilterBytesRead;
        rowGroupsRead += other.rowGroupsRead;
        rowGroupsPrunedByDictionary += other.rowGroupsPrunedByDictionary;
        dictionaryPagesRead += other.dictionaryPagesRead;
        dictionaryBytesRead += other.dictionaryBytesRead;
        dictionariesUnusable += other.dictionariesUnusable;
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

    public void addPrunedByDictionary()
    {
        rowGroupsPrunedByDictionary++;
    }

    /**
     * @param pages dictionary pages decoded (from new GETs or the tail read)
     * @param bytes dictionary bytes fetched with new GETs
     */
    public void addDictionaryPagesRead(long pages, long bytes)
    {
        dictionaryPagesRead += pages;
        dictionaryBytesRead += bytes;
    }

    /**
     * A dictionary page that could not be read or did not add up (its row group was kept).
     */
    public void addDictionaryUnusable()
    {
        dictionariesUnusable++;
    }

    public void addPrunedByNoMatchCache()
    {
        rowGroupsPrunedByNoMatchCache++;
    }

    public synchronized void addRecordedNoMatch()
    {
        rowGroupsRecordedNoMatch++;
    }

    /**
     * @param vector whether the Vector API kernel answered the probe
     */
    public void addBloomFilterProbed(boolean vector)
    {
        bloomFiltersProbed++;
        if (vector) {
            bloomFilterVectorProbes++;
        }
    }

    /**
     * Row group statistics that could not be read or used (the row group was kept).
     */
    public void addStatisticsUnusable()
    {
        statisticsUnusable++;
    }

    public void addBloomFilterUnusable()
    {
        bloomFiltersUnusable++;
    }

    /**
     * A filter not fetched because it could hardly rule out so many values (the row group was kept).
     */
    public void addBloomFilterNotFetched()
    {
        bloomFiltersNotFetched++;
    }

    public void addBloomFilterBytesRead(long bytes)
    {
        bloomFilterBytesRead += bytes;
    }

    public synchronized long rowGroupsTotal()
    {
        return rowGroupsTotal;
    }

    public synchronized long rowGroupsPrunedByStatistics()
    {
        return rowGroupsPrunedByStatistics;
    }

    public synchronized long rowGroupsPrunedByBloomFilter()
    {
        return rowGroupsPrunedByBloomFilter;
    }

    public synchronized long statisticsUnusable()
    {
        return statisticsUnusable;
    }

    public synchronized long bloomFiltersUnusable()
    {
        return bloomFiltersUnusable;
    }

    public synchronized long bloomFiltersNotFetched()
    {
        return bloomFiltersNotFetched;
    }

    public synchronized long bloomFilterBytesRead()
    {
        return bloomFilterBytesRead;
    }

    public synchronized long rowGroupsPrunedByNoMatchCache()
    {
        return rowGroupsPrunedByNoMatchCache;
    }

    public synchronized long rowGroupsRead()
    {
        return rowGroupsRead;
    }

    public synchronized long rowGroupsPrunedByDictionary()
    {
        return rowGroupsPrunedByDictionary;
    }

    public synchronized long dictionaryPagesRead()
    {
        return dictionaryPagesRead;
    }

    public synchronized long dictionaryBytesRead()
    {
        return dictionaryBytesRead;
    }

    public synchronized long dictionariesUnusable()
    {
        return dictionariesUnusable;
    }

    /**
     * The counts of a split's page source, as metrics under their names.
     */
    public Map<String, Metric<?>> toMetrics()
    {
        return metrics(List.of(
                "rowGroupsTotal",
                "rowGroupsPrunedByStatistics",
                "rowGroupsPrunedByBloomFilter",
                "rowGroupsPrunedByNoMatchCache",
                "rowGroupsRecordedNoMatch",
                "bloomFiltersProbed",
                "bloomFilterVectorProbes",
                "bloomFiltersUnusable",
                "bloomFiltersNotFetched",
                "bloomFilterBytesRead",
                "statisticsUnusable",
                "rowGroupsPrunedByDictionary",
                "dictionaryPagesRead",
                "dictionaryBytesRead",
                "dictionariesUnusable",
                "rowGroupsRead"));
    }

    /**
     * The counts of the coordinator's pruning before splits exist, apart from the splits' own in EXPLAIN ANALYZE.
     */
    public Map<String, Metric<?>> toPlanningMetrics()
    {
        return metrics(List.of(
                "planningRowGroupsTotal",
                "planningRowGroupsPrunedByStatistics",
                "planningRowGroupsPrunedByBloomFilter",
                "planningRowGroupsPrunedByNoMatchCache",
                "planningRowGroupsRecordedNoMatch",
                "planningBloomFiltersProbed",
                "planningBloomFilterVectorProbes",
                "planningBloomFiltersUnusable",
                "planningBloomFiltersNotFetched",
                "planningBloomFilterBytesRead",
                "planningStatisticsUnusable",
                "planningRowGroupsPrunedByDictionary",
                "planningDictionaryPagesRead",
                "planningDictionaryBytesRead",
                "planningDictionariesUnusable",
                "planningRowGroupsRead"));
    }

    // names in the order of counts()
    private Map<String, Metric<?>> metrics(List<String> names)
    {
        long[] counts = counts();
        checkArgument(names.size() == counts.length, "%s names for %s counts", names.size(), counts.length);
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        for (int i = 0; i < counts.length; i++) {
            metrics.put(names.get(i), new LongCount(counts[i]));
        }
        return metrics.buildOrThrow();
    }

    private synchronized long[] counts()
    {
        return new long[] {
                rowGroupsTotal,
                rowGroupsPrunedByStatistics,
                rowGroupsPrunedByBloomFilter,
                rowGroupsPrunedByNoMatchCache,
                rowGroupsRecordedNoMatch,
                bloomFiltersProbed,
                bloomFilterVectorProbes,
                bloomFiltersUnusable,
                bloomFiltersNotFetched,
                bloomFilterBytesRead,
                statisticsUnusable,
                rowGroupsPrunedByDictionary,
                dictionaryPagesRead,
                dictionaryBytesRead,
                dictionariesUnusable,
                rowGroupsRead};
    }
}
