package io.parquetbloom.connector.parquet;

import io.parquetbloom.metadata.ChunkPages;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.NoMatchRecorder;
import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.S3ObjectStore;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.Column;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static java.util.Objects.requireNonNull;

/**
 * The row groups the probe found a match in, each with the pages to read, and the bytes of the probe's the second
 * read needs again.
 */
final class SecondRead
{
    private final S3ObjectStore store;
    private final Executor executor;
    private final ParquetReaderOptions options;
    private final ReadByPages.Split split;
    private final CompletableFuture<Map<ReadByPages.ChunkKey, ChunkPages>> pages;
    private final PageReadStats pageStats;
    private final List<RowGroupInfo> rowGroups = new ArrayList<>();
    private final List<NoMatchRecorder.ReadRowGroup> readRowGroups = new ArrayList<>();
    private final Map<DiskRange, Integer> rowGroupOfChunk = new HashMap<>();
    private final HeldRanges held = new HeldRanges();
    private final MatchedRows matchedRows = new MatchedRows();
    private boolean matchedRowsPlaced = true;

    SecondRead(S3ObjectStore store, Executor executor, ParquetReaderOptions options, ReadByPages.Split split, CompletableFuture<Map<ReadByPages.ChunkKey, ChunkPages>> pages, PageReadStats pageStats)
    {
        this.store = requireNonNull(store, "store is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.options = requireNonNull(options, "options is null");
        this.split = requireNonNull(split, "split is null");
        this.pages = requireNonNull(pages, "pages is null");
        this.pageStats = requireNonNull(pageStats, "pageStats is null");
    }

    boolean isEmpty()
    {
        return rowGroups.isEmpty();
    }

    List<NoMatchRecorder.ReadRowGroup> readRowGroups()
    {
        return readRowGroups;
    }

    /**
     * The rows the probe matched among those the reader returns, or empty where one was not among them (then every
     * row is returned, and the engine filters them).
     */
    Optional<MatchedRows> matchedRows()
    {
        return matchedRowsPlaced ? Optional.of(matchedRows) : Optional.empty();
    }

    void add(RowMatchProbe.Probed probed, HeldRanges probeBytes)
    {
        if (probed.matchedRows().length == 0) {
            return;
        }
        RowGroupInfo info = split.rowGroups().get(probed.rowGroup());
        Map<ColumnPath, ColumnChunkMetadata> chunks = new HashMap<>();
        Map<ColumnPath, ChunkPages> chunkPages = new HashMap<>();
        Map<ReadByPages.ChunkKey, ChunkPages> loaded = pages.join();
        for (Column column : split.readerColumns()) {
            ColumnChunkMetadata chunk = ReadByPages.chunk(info, column);
            chunks.put(chunk.getPath(), chunk);
            // the reader asks for offset indexes by the chunk's path and selects pages by the schema's: only where
            // they agree are the pages the ones selected
            if (chunk.getPath().equals(ReadByPages.path(column))) {
                Optional.ofNullable(loaded.get(new ReadByPages.ChunkKey(probed.rowGroup(), chunk.getPath()))).ifPresent(value -> chunkPages.put(chunk.getPath(), value));
            }
            rowGroupOfChunk.put(new DiskRange(chunk.getStartingPos(), chunk.getTotalSize()), rowGroups.size());
        }
        long rowCount = info.prunedBlockMetadata().getRowCount();
        Optional<PageSelector.Selection> selection = chunkPages.size() == chunks.size()
                ? PageSelector.select(rowCount, chunkPages, chunks, probed.matchedRows())
                : Optional.empty();
        if (chunkPages.size() < chunks.size()) {
            pageStats.addWithoutOffsetIndex();
        }
        selection.ifPresent(value -> pageStats.addReadByPages(value.pagesRead(), value.pagesSkipped(), value.bytesSkipped()));
        // the probe's matched rows are all of those the predicate can select here: the others are not returned
        matchedRowsPlaced &= matchedRows.add(info.fileRowOffset(), rowCount, probed.matchedRows(), selection.map(PageSelector.Selection::rows));
        keepProbeBytes(probeBytes, chunks, selection);
        rowGroups.add(new RowGroupInfo(info.prunedBlockMetadata(), info.fileRowOffset(), selection.map(PageSelector.Selection::store)));
        readRowGroups.add(new NoMatchRecorder.ReadRowGroup(split.ordinals().get(probed.rowGroup()), info.fileRowOffset(), rowCount));
    }

    /**
     * Keeps of the probe's bytes what the second read reads again: every projected column's selected pages, or
     * chunks, that the probe fetched (its own, and those fetched alongside it).
     */
    private void keepProbeBytes(HeldRanges probeBytes, Map<ColumnPath, ColumnChunkMetadata> chunks, Optional<PageSelector.Selection> selection)
    {
        for (Column column : split.readerColumns()) {
            ColumnChunkMetadata chunk = chunks.get(ReadByPages.path(column));
            if (chunk == null) {
                continue;
            }
            List<DiskRange> ranges = selection.map(value -> value.ranges().get(chunk.getPath())).orElse(List.of(new DiskRange(chunk.getStartingPos(), chunk.getTotalSize())));
            for (MergedRanges.Read<DiskRange> span : MergedRanges.merge(ranges, DiskRange::offset, DiskRange::end, ReadByPages.PAGE_MERGE_GAP, Long.MAX_VALUE)) {
                probeBytes.copyTo(held, span.start(), span.length());
            }
        }
    }

    ParquetReader reader(ReadStats readStats)
    {
        ColumnChunkLayout layout = new ColumnChunkLayout(rowGroupOfChunk.keySet(), rowGroupOfChunk, new HashSet<>(rowGroupOfChunk.values()));
        S3ParquetDataSource dataSource = new S3ParquetDataSource(store, split.object(), readStats.requests(), options, layout, executor, RowGroupMatches.NONE, held);
        List<ColumnPath> paths = split.readerColumns().stream().map(ReadByPages::path).toList();
        try {
            // the probe's bytes kept for this read count as the reader's memory, which the page source reports
            AggregatedMemoryContext memory = newSimpleAggregatedMemoryContext();
            memory.newLocalMemoryContext(SecondRead.class.getSimpleName()).setBytes(held.bytes());
            return new ParquetReader(ReadByPages.createdBy(split), split.readerColumns(), false, rowGroups, dataSource, DateTimeZone.UTC, memory, options,
                    exception -> readError(split.path(), exception), Optional.of(new PageSelectionPredicate(paths)), Optional.empty(), Optional.empty());
        }
        catch (IOException | RuntimeException e) {
            throw readError(split.path(), e);
        }
    }
}
