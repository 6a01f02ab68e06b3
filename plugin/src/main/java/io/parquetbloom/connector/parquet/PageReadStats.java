package io.parquetbloom.connector.parquet;

import com.google.common.collect.ImmutableMap;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metric;

import java.util.Map;
import java.util.Set;

/**
 * What reading by pages did for one split: these counters become metrics of its page source, shown per table scan in
 * {@code EXPLAIN ANALYZE VERBOSE}.
 */
public final class PageReadStats
{
    public static final String ROW_GROUPS_READ_BY_PAGES = "rowGroupsReadByPages";
    public static final String ROW_GROUPS_WITHOUT_OFFSET_INDEX = "rowGroupsReadWithoutOffsetIndex";
    public static final String PAGES_READ = "pagesRead";
    public static final String PAGES_SKIPPED = "pagesSkipped";
    public static final String PAGE_BYTES_SKIPPED = "pageBytesSkipped";
    public static final String OFFSET_INDEX_CACHE_HITS = "offsetIndexCacheHits";
    public static final String OFFSET_INDEXES_LOADED = "offsetIndexesLoaded";
    public static final String OFFSET_INDEXES_UNUSABLE = "offsetIndexesUnusable";
    public static final String ROW_GROUPS_PROBED_BY_KEY_PAGES = "rowGroupsProbedByKeyPages";
    public static final String KEY_PAGES_UNUSABLE = "keyPagesUnusable";
    public static final String KEY_PAGES_UNCACHED = "keyPagesUncached";
    public static final String ROW_GROUPS_READ_WHOLE_OFFSET_INDEX_UNCACHED = "rowGroupsReadWholeOffsetIndexUncached";
    public static final String ROW_GROUPS_PROBED_ENCODED = "rowGroupsProbedEncoded";
    public static final String ENCODED_PROBES_UNREADABLE = "encodedProbesUnreadable";
    public static final String ROWS_NOT_MATCHED_DROPPED = "rowsNotMatchedDropped";

    // the data source's metrics of how row groups were read, which a split read by pages reports from here instead
    static final Set<String> REPLACED_READER_METRICS = Set.of(S3ParquetDataSource.KEY_FIRST_METRIC, S3ParquetDataSource.WHOLE_METRIC, S3ParquetDataSource.WHOLE_AFTER_MATCHES_METRIC);

    private long rowGroupsProbed;
    private long chunkBytesSkipped;
    private long rowGroupsReadByPages;
    private long rowGroupsWithoutOffsetIndex;
    private long pagesRead;
    private long pagesSkipped;
    private long pageBytesSkipped;
    private long offsetIndexCacheHits;
    private long offsetIndexesLoaded;
    private long offsetIndexesUnusable;
    private long rowGroupsProbedByKeyPages;
    private long keyPagesUnusable;
    private long keyPagesUncached;
    private long rowGroupsReadWholeOffsetIndexUncached;
    private long rowGroupsProbedEncoded;
    private long encodedProbesUnreadable;
    private long rowsNotMatchedDropped;

    /**
     * A row group probed by its filter columns.
     *
     * @param otherChunkBytes the bytes of its other projected chunks, which it skips whole when no row matched
     */
    synchronized void addProbed(boolean matched, long otherChunkBytes)
    {
        rowGroupsProbed++;
        if (!matched) {
            chunkBytesSkipped += otherChunkBytes;
        }
    }

    synchronized void addReadByPages(long pages, long skippedPages, long skippedBytes)
    {
        rowGroupsReadByPages++;
        pagesRead += pages;
        pagesSkipped += skippedPages;
        pageBytesSkipped += skippedBytes;
    }

    /**
     * How a row group's filter columns were probed: on their encoded pages, or decoded (after the encoded pages held
     * something the matcher does not read).
     */
    synchronized void addProbeKind(RowMatchProbe.ProbeKind how)
    {
        switch (how) {
            case ENCODED -> rowGroupsProbedEncoded++;
            case DECODED_AFTER_ENCODED_FAILED -> encodedProbesUnreadable++;
            case DECODED -> {}
        }
    }

    /**
     * A row group whose key column was probed by the key index's pages only.
     */
    synchronized void addProbedByKeyPages()
    {
        rowGroupsProbedByKeyPages++;
    }

    /**
     * A row group the key index named pages of, probed whole: the chunk's offset index no longer has those pages.
     */
    synchronized void addKeyPagesUnusable()
    {
        keyPagesUnusable++;
    }

    /**
     * A row group the key index named pages of, probed whole: the key chunk's offset index was not cached yet.
     */
    synchronized void addKeyPagesUncached()
    {
        keyPagesUncached++;
    }

    /**
     * Row groups of a split read whole by chunks while this node loads its file's offset indexes.
     */
    synchronized void addReadWholeOffsetIndexUncached(long rowGroups)
    {
        rowGroupsReadWholeOffsetIndexUncached += rowGroups;
    }

    synchronized void addWithoutOffsetIndex()
    {
        rowGroupsWithoutOffsetIndex++;
    }

    synchronized void addOffsetIndexes(long cacheHits, long loaded, long unusable)
    {
        offsetIndexCacheHits += cacheHits;
        offsetIndexesLoaded += loaded;
        offsetIndexesUnusable += unusable;
    }

    /**
     * Rows of the pages the second read returned that the probe did not match, dropped before the engine filters.
     */
    synchronized void addRowsNotMatchedDropped(long rows)
    {
        rowsNotMatchedDropped += rows;
    }

    public synchronized long pagesRead()
    {
        return pagesRead;
    }

    public synchronized Map<String, Metric<?>> toMetrics()
    {
        return ImmutableMap.<String, Metric<?>>builder()
                // a probed row group is read key first, and its skipped pages are bytes of chunks not fetched
                .put(S3ParquetDataSource.KEY_FIRST_METRIC, new LongCount(rowGroupsProbed))
                .put(S3ParquetDataSource.SKIPPED_BYTES_METRIC, new LongCount(chunkBytesSkipped + pageBytesSkipped))
                .put(ROW_GROUPS_READ_BY_PAGES, new LongCount(rowGroupsReadByPages))
                .put(ROW_GROUPS_WITHOUT_OFFSET_INDEX, new LongCount(rowGroupsWithoutOffsetIndex))
                .put(PAGES_READ, new LongCount(pagesRead))
                .put(PAGES_SKIPPED, new LongCount(pagesSkipped))
                .put(PAGE_BYTES_SKIPPED, new LongCount(pageBytesSkipped))
                .put(ROW_GROUPS_PROBED_BY_KEY_PAGES, new LongCount(rowGroupsProbedByKeyPages))
                .put(KEY_PAGES_UNUSABLE, new LongCount(keyPagesUnusable))
                .put(KEY_PAGES_UNCACHED, new LongCount(keyPagesUncached))
                .put(ROW_GROUPS_PROBED_ENCODED, new LongCount(rowGroupsProbedEncoded))
                .put(ENCODED_PROBES_UNREADABLE, new LongCount(encodedProbesUnreadable))
                .put(ROWS_NOT_MATCHED_DROPPED, new LongCount(rowsNotMatchedDropped))
                .putAll(toPrefetchMetrics())
                .buildOrThrow();
    }

    /**
     * The counters of a split read whole while its offset indexes load: the reader reports how its row groups were read.
     */
    synchronized Map<String, Metric<?>> toPrefetchMetrics()
    {
        return ImmutableMap.<String, Metric<?>>builder()
                .put(OFFSET_INDEX_CACHE_HITS, new LongCount(offsetIndexCacheHits))
                .put(OFFSET_INDEXES_LOADED, new LongCount(offsetIndexesLoaded))
                .put(OFFSET_INDEXES_UNUSABLE, new LongCount(offsetIndexesUnusable))
                .put(ROW_GROUPS_READ_WHOLE_OFFSET_INDEX_UNCACHED, new LongCount(rowGroupsReadWholeOffsetIndexUncached))
                .buildOrThrow();
    }
}
