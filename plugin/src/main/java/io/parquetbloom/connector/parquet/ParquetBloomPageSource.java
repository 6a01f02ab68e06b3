package io.parquetbloom.connector.parquet;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.parquetbloom.connector.parquet.ProjectedSourcePage.ProjectedColumn;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.NoMatchRecorder;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.parquet.reader.ParquetReader;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongPredicate;

import static com.google.common.base.Preconditions.checkArgument;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Reads the row groups that survived pruning and reports, as metrics, what pruning saved and what S3 cost.
 */
public final class ParquetBloomPageSource
        implements ConnectorPageSource
{
    private final String path;
    private final Optional<ParquetReader> reader;
    private final List<NoMatchRecorder.ReadRowGroup> rowGroups;
    private final List<ProjectedColumn> columns;
    private final Optional<NoMatchRecorder> noMatchRecorder;
    private final PruningStats pruningStats;
    private final S3RequestStats requestStats;
    private final MetadataCacheStats cacheStats;
    private final PruningTotals totals;
    // present where the split is read by pages: its probe counted the row groups read
    private final Optional<PageReadStats> pageReads;
    private final Optional<OffsetIndexPrefetch> prefetch;
    // the file's rows its table format deleted, by absolute position: never returned
    private final Optional<LongPredicate> deleted;
    // read by pages: the rows the probe matched, the only ones of the pages read that are returned
    private final Optional<MatchedRows> matchedRows;
    private long completedPositions;
    private int currentRowGroup = -1;
    private boolean closed;
    private boolean readToEnd;
    private boolean counted;
    private final MetricsSnapshot metricsSnapshot = new MetricsSnapshot();

    /**
     * @param reader empty when no row group can match: the source is finished without reading data
     * @param rowGroups the row groups the reader returns, in its order
     * @param columns the output channels, from the reader's channels or constant
     */
    private ParquetBloomPageSource(
            String path,
            Optional<ParquetReader> reader,
            List<NoMatchRecorder.ReadRowGroup> rowGroups,
            List<ProjectedColumn> columns,
            Optional<NoMatchRecorder> noMatchRecorder,
            PruningStats pruningStats,
            ReadStats readStats,
            PruningTotals totals,
            Optional<PageReadStats> pageReads,
            Optional<OffsetIndexPrefetch> prefetch,
            Optional<LongPredicate> deleted,
            Optional<MatchedRows> matchedRows)
    {
        this.deleted = requireNonNull(deleted, "deleted is null");
        this.matchedRows = requireNonNull(matchedRows, "matchedRows is null");
        // the matched rows are placed by the reader's batches: a batch with rows deleted first would be misplaced
        checkArgument(matchedRows.isEmpty() || (pageReads.isPresent() && deleted.isEmpty() && noMatchRecorder.isEmpty()), "matched rows of a split not read by pages, or with deleted rows");
        this.pageReads = requireNonNull(pageReads, "pageReads is null");
        this.prefetch = requireNonNull(prefetch, "prefetch is null");
        this.path = requireNonNull(path, "path is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.rowGroups = List.copyOf(rowGroups);
        this.columns = List.copyOf(columns);
        this.noMatchRecorder = requireNonNull(noMatchRecorder, "noMatchRecorder is null");
        this.pruningStats = requireNonNull(pruningStats, "pruningStats is null");
        this.requestStats = readStats.requests();
        this.cacheStats = readStats.cache();
        this.totals = requireNonNull(totals, "totals is null");
        this.closed = reader.isEmpty();
    }

    /**
     * A source that reads nothing: pruning left no row group of its split.
     */
    static ParquetBloomPageSource empty(String path, PruningStats pruningStats, ReadStats readStats, PruningTotals totals)
    {
        return new ParquetBloomPageSource(path, Optional.empty(), List.of(), List.of(), Optional.empty(), pruningStats, readStats, totals, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * A source that reads nothing more: the probe of a split read by pages found no row it wants.
     */
    static ParquetBloomPageSource emptyAfterProbe(String path, PruningStats pruningStats, ReadStats readStats, PruningTotals totals, PageReadStats pageReads)
    {
        return new ParquetBloomPageSource(path, Optional.empty(), List.of(), List.of(), Optional.empty(), pruningStats, readStats, totals, Optional.of(pageReads), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static Builder builder()
    {
        return new Builder();
    }

    /**
     * A Parquet failure of {@code path} as the user sees it: the file named, a {@link TrinoException} kept as it is.
     */
    static TrinoException readError(String path, Throwable e)
    {
        if (e instanceof TrinoException trinoException) {
            return trinoException;
        }
        return new TrinoException(PARQUET_BLOOM_READ_ERROR, "Failed to read Parquet file %s: %s".formatted(path, e), e);
    }

    @Override
    public long getCompletedBytes()
    {
        return requestStats.getBytes();
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(completedPositions);
    }

    @Override
    public long getReadTimeNanos()
    {
        return reader.map(value -> value.getDataSource().getReadTimeNanos()).orElse(0L);
    }

    @Override
    public boolean isFinished()
    {
        return closed;
    }

    @Override
    public long getMemoryUsage()
    {
        return reader.map(value -> value.getMemoryContext().getBytes()).orElse(0L) + matchedRows.map(MatchedRows::retainedSizeInBytes).orElse(0L);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (closed) {
            return null;
        }
        ProjectedSourcePage page = null;
        try {
            ParquetReader parquetReader = reader.orElseThrow();
            do {
                SourcePage readerPage = parquetReader.nextPage();
                if (readerPage != null) {
                    page = new ProjectedSourcePage(path, readerPage, columns);
                    long firstRow = parquetReader.lastBatchStartRow();
                    countRowGroupRead(firstRow);
                    if (noMatchRecorder.isPresent()) {
                        // what the file holds, deleted rows included: no-match facts are about the file, not a version
                        noMatchRecorder.get().observe(page, firstRow);
                    }
                    dropDeleted(page, firstRow);
                    keepMatched(page, firstRow);
                }
                else {
                    page = null;
                    if (noMatchRecorder.isPresent()) {
                        noMatchRecorder.get().finish();
                    }
                }
            }
            while (page != null && page.getPositionCount() == 0);
        }
        catch (IOException | RuntimeException e) {
            closeQuietly();
            throw readError(path, e);
        }
        if (page == null) {
            readToEnd = true;
            close();
            return null;
        }
        completedPositions += page.getPositionCount();
        return page;
    }

    @Override
    public void close()
    {
        if (!counted) {
            // once per split, when its counts are final
            counted = true;
            totals.add(pruningStats);
        }
        if (closed) {
            return;
        }
        closed = true;
        try {
            reader.orElseThrow().close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        finally {
            // read to its end, the split accounts for the load's GET; closed early (cancelled, failed, a LIMIT met),
            // it does not wait for it
            if (readToEnd) {
                prefetch.ifPresent(OffsetIndexPrefetch::await);
            }
        }
    }

    private void dropDeleted(ProjectedSourcePage page, long firstRow)
    {
        if (deleted.isEmpty()) {
            return;
        }
        int count = page.getPositionCount();
        int[] kept = new int[count];
        int keptCount = 0;
        for (int position = 0; position < count; position++) {
            if (!deleted.get().test(firstRow + position)) {
                kept[keptCount++] = position;
            }
        }
        if (keptCount < count) {
            page.selectPositions(kept, 0, keptCount);
        }
    }

    private void keepMatched(ProjectedSourcePage page, long batchStart)
    {
        if (matchedRows.isEmpty()) {
            return;
        }
        int count = page.getPositionCount();
        matchedRows.get().positions(batchStart, count).ifPresent(kept -> {
            if (kept.length < count) {
                page.selectPositions(kept, 0, kept.length);
                pageReads.orElseThrow().addRowsNotMatchedDropped(count - kept.length);
            }
        });
    }

    /**
     * Counts a row group when the reader returns its first rows: row groups actually read, not merely planned.
     */
    private void countRowGroupRead(long firstRow)
    {
        if (pageReads.isPresent()) {
            return;
        }
        int rowGroup = NoMatchRecorder.ReadRowGroup.indexOf(rowGroups, firstRow, 1, Math.max(currentRowGroup, 0));
        if (rowGroup >= 0 && rowGroup != currentRowGroup) {
            currentRowGroup = rowGroup;
            pruningStats.addRowGroupsRead(1);
        }
    }

    private void closeQuietly()
    {
        try {
            close();
        }
        catch (RuntimeException ignored) {
            // the read error is what the user needs to see
        }
    }

    @Override
    public Metrics getMetrics()
    {
        return metricsSnapshot.get(closed, this::currentMetrics);
    }

    private Metrics currentMetrics()
    {
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        metrics.putAll(pruningStats.toMetrics());
        metrics.put("s3GetRequests", new LongCount(requestStats.getRequests()));
        metrics.put("s3BytesRead", new LongCount(requestStats.getBytes()));
        metrics.put("s3Retries", new LongCount(requestStats.retries()));
        metrics.put("s3ThrottledAttempts", new LongCount(requestStats.throttledAttempts()));
        metrics.put("s3FailedAttempts", new LongCount(requestStats.failedAttempts()));
        metrics.put("s3HedgedGets", new LongCount(requestStats.hedgedGets()));
        metrics.put("s3HedgesWon", new LongCount(requestStats.hedgesWon()));
        metrics.put("metadataCacheFooterHits", new LongCount(cacheStats.footerHits()));
        metrics.put("metadataCacheCompactFooterHits", new LongCount(cacheStats.compactFooterHits()));
        metrics.put("metadataCacheFooterMisses", new LongCount(cacheStats.footerMisses()));
        metrics.put("metadataCacheFilterHits", new LongCount(cacheStats.filterHits()));
        metrics.put("metadataCacheFilterMisses", new LongCount(cacheStats.filterMisses()));
        metrics.put("metadataDiskHits", new LongCount(cacheStats.diskHits()));
        metrics.put("metadataDiskBytesRead", new LongCount(cacheStats.diskBytesRead()));
        Map<String, Metric<?>> readerMetrics = reader.map(value -> value.getMetrics().getMetrics()).orElse(Map.of());
        if (pageReads.isEmpty()) {
            metrics.putAll(readerMetrics);
            Metrics all = new Metrics(metrics.buildKeepingLast());
            return prefetch.map(value -> all.mergeWith(value.metrics())).orElse(all);
        }
        // read by pages: the second read's source fetches only what the probe chose, so its own account of how row
        // groups were read does not apply; what it did not fetch (a LIMIT met) adds to what the probe skipped
        readerMetrics.forEach((name, metric) -> {
            if (!PageReadStats.REPLACED_READER_METRICS.contains(name)) {
                metrics.put(name, metric);
            }
        });
        return new Metrics(metrics.buildKeepingLast()).mergeWith(new Metrics(pageReads.get().toMetrics()));
    }

    /**
     * The output channels in order: a column of the reader, a column of the reader converted, or a constant.
     */
    static final class Builder
    {
        private final ImmutableList.Builder<ProjectedColumn> columns = ImmutableList.builder();

        private Builder() {}

        Builder addSourceColumn(int sourceChannel)
        {
            columns.add(new ProjectedColumn.Source(sourceChannel));
            return this;
        }

        Builder addConvertedColumn(int sourceChannel, ColumnConversion conversion)
        {
            columns.add(new ProjectedColumn.Converted(sourceChannel, conversion));
            return this;
        }

        Builder addConstantColumn(Block value)
        {
            columns.add(new ProjectedColumn.Constant(value));
            return this;
        }

        ParquetBloomPageSource build(
                String path,
                ParquetReader reader,
                List<NoMatchRecorder.ReadRowGroup> rowGroups,
                Optional<NoMatchRecorder> noMatchRecorder,
                PruningStats pruningStats,
                ReadStats readStats,
                PruningTotals totals,
                Optional<OffsetIndexPrefetch> prefetch,
                Optional<LongPredicate> deleted)
        {
            return new ParquetBloomPageSource(path, Optional.of(reader), rowGroups, columns.build(), noMatchRecorder, pruningStats, readStats, totals, Optional.empty(), prefetch, deleted, Optional.empty());
        }

        /**
         * The second read of a split read by pages: its probe counted the row groups read and recorded what matched.
         */
        ParquetBloomPageSource buildReadByPages(String path, ParquetReader reader, List<NoMatchRecorder.ReadRowGroup> rowGroups, Optional<MatchedRows> matchedRows, PruningStats pruningStats, ReadStats readStats, PruningTotals totals, PageReadStats pageReads)
        {
            return new ParquetBloomPageSource(path, Optional.of(reader), rowGroups, columns.build(), Optional.empty(), pruningStats, readStats, totals, Optional.of(pageReads), Optional.empty(), Optional.empty(), matchedRows);
        }
    }
}
