package io.parquetbloom.connector.parquet;

import com.google.common.collect.ImmutableMap;
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

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Reads the row groups that survived pruning and reports, as metrics, what pruning saved and what S3 cost.
 */
public class ParquetBloomPageSource
        implements ConnectorPageSource
{
    private final String path;
    private final Optional<ParquetReader> reader;
    private final List<NoMatchRecorder.ReadRowGroup> rowGroups;
    private final Map<Integer, UnsignedConversion> conversions;
    private final Optional<NoMatchRecorder> noMatchRecorder;
    private final int[] channels;
    private final Block[] constants;
    private final PruningStats pruningStats;
    private final S3RequestStats requestStats;
    private final MetadataCacheStats cacheStats;
    private long completedPositions;
    private int currentRowGroup = -1;
    private boolean closed;
    private boolean counted;

    /**
     * @param reader empty when no row group can match: the source is finished without reading data
     * @param rowGroups the row groups the reader returns, in its order
     * @param conversions reader channels holding unsigned integers, to convert
     */
    private final PruningTotals totals;

    public ParquetBloomPageSource(
            String path,
            Optional<ParquetReader> reader,
            List<NoMatchRecorder.ReadRowGroup> rowGroups,
            Map<Integer, UnsignedConversion> conversions,
            Optional<NoMatchRecorder> noMatchRecorder,
            int[] channels,
            Block[] constants,
            PruningStats pruningStats,
            ReadStats readStats,
            PruningTotals totals)
    {
        this.totals = requireNonNull(totals, "totals is null");
        this.cacheStats = readStats.cache();
        this.path = requireNonNull(path, "path is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.rowGroups = List.copyOf(rowGroups);
        this.conversions = Map.copyOf(conversions);
        this.noMatchRecorder = requireNonNull(noMatchRecorder, "noMatchRecorder is null");
        this.channels = requireNonNull(channels, "channels is null");
        this.constants = requireNonNull(constants, "constants is null");
        this.pruningStats = requireNonNull(pruningStats, "pruningStats is null");
        this.requestStats = readStats.requests();
        this.closed = reader.isEmpty();
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
        return reader.map(value -> value.getMemoryContext().getBytes()).orElse(0L);
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
            SourcePage readerPage = parquetReader.nextPage();
            if (readerPage != null) {
                page = new ProjectedSourcePage(path, readerPage, channels, constants, conversions);
                long firstRow = parquetReader.lastBatchStartRow();
                countRowGroupRead(firstRow);
                if (noMatchRecorder.isPresent()) {
                    noMatchRecorder.get().observe(page, firstRow);
                }
            }
            else if (noMatchRecorder.isPresent()) {
                noMatchRecorder.get().finish();
            }
        }
        catch (IOException | RuntimeException e) {
            closeQuietly();
            if (e instanceof TrinoException trinoException) {
                throw trinoException;
            }
            throw new TrinoException(PARQUET_BLOOM_READ_ERROR, "Failed to read Parquet file %s: %s".formatted(path, e.getMessage()), e);
        }
        if (page == null) {
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
    }

    /**
     * Counts a row group when the reader returns its first rows: row groups actually read, not merely planned.
     */
    private void countRowGroupRead(long firstRow)
    {
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
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        metrics.putAll(pruningStats.toMetrics());
        metrics.put("s3GetRequests", new LongCount(requestStats.getRequests()));
        metrics.put("s3BytesRead", new LongCount(requestStats.getBytes()));
        metrics.put("s3Retries", new LongCount(requestStats.retries()));
        metrics.put("s3ThrottledAttempts", new LongCount(requestStats.throttledAttempts()));
        metrics.put("s3FailedAttempts", new LongCount(requestStats.failedAttempts()));
        metrics.put("metadataCacheFooterHits", new LongCount(cacheStats.footerHits()));
        metrics.put("metadataCacheFooterMisses", new LongCount(cacheStats.footerMisses()));
        metrics.put("metadataCacheFilterHits", new LongCount(cacheStats.filterHits()));
        metrics.put("metadataCacheFilterMisses", new LongCount(cacheStats.filterMisses()));
        Map<String, Metric<?>> readerMetrics = reader.map(value -> value.getMetrics().getMetrics()).orElse(Map.of());
        metrics.putAll(readerMetrics);
        return new Metrics(metrics.buildKeepingLast());
    }
}
