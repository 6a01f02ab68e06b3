package io.parquetbloom.pruning;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metric;

import java.util.Map;


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

    public synchronized Map<String, Metric<?>> toMetrics()
    {
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        metrics.put("rowGroupsTotal", new LongCount(rowGroupsTotal));
        metrics.put("rowGroupsPrunedByStatistics", new LongCount(rowGroupsPrunedByStatistics));
        metrics.put("rowGroupsPrunedByBloomFilter", new LongCount(rowGroupsPrunedByBloomFilter));
        metrics.put("rowGroupsPrunedByNoMatchCache", new LongCount(rowGroupsPrunedByNoMatchCache));
        metrics.put("rowGroupsRecordedNoMatch", new LongCount(rowGroupsRecordedNoMatch));
        metrics.put("bloomFiltersProbed", new LongCount(bloomFiltersProbed));
        metrics.put("bloomFilterVectorProbes", new LongCount(bloomFilterVectorProbes));
        metrics.put("bloomFiltersUnusable", new LongCount(bloomFiltersUnusable));
        metrics.put("bloomFilterBytesRead", new LongCount(bloomFilterBytesRead));
        metrics.put("statisticsUnusable", new LongCount(statisticsUnusable));
        metrics.put("rowGroupsPrunedByDictionary", new LongCount(rowGroupsPrunedByDictionary));
        metrics.put("dictionaryPagesRead", new LongCount(dictionaryPagesRead));
        metrics.put("dictionaryBytesRead", new LongCount(dictionaryBytesRead));
        metrics.put("dictionariesUnusable", new LongCount(dictionariesUnusable));
        metrics.put("rowGroupsRead", new LongCount(rowGroupsRead));
        return metrics.buildOrThrow();
    }
}
