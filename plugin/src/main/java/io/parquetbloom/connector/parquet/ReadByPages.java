package io.parquetbloom.connector.parquet;

import io.airlift.units.DataSize;
import io.parquetbloom.keyindex.KeyColumnPages;
import io.parquetbloom.metadata.ChunkPages;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.OffsetIndexLoader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.NoMatchCache;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.trino.parquet.Column;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.predicate.Domain;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;

import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static java.util.Objects.requireNonNull;

/**
 * Reads a split's row groups by pages, in two reads: its filter columns whole ({@link RowMatchProbe}), which tells the
 * rows that match; then of every projected column only the pages holding those rows, located by the column's offset
 * index, all of them fetched side by side. A row group without a matching row costs its filter chunks only; one with a
 * handful of matching rows costs a page or two of each other column instead of its chunks. A row group where any
 * projected column lacks a usable offset index (a writer that writes none, a damaged one) has its matching row groups
 * read whole, and is counted.
 */
final class ReadByPages
{
    /**
     * Runs of pages closer than this are one GET: a GET costs a round trip (tens of milliseconds on S3, megabytes of
     * transfer), while 32 KiB more costs well under a millisecond.
     */
    static final long PAGE_MERGE_GAP = 32 << 10;

    /**
     * A filter column the probe reads, and whether a row group without a match is recorded for it.
     */
    record FilterColumn(RowMatchProbe.ProbeColumn probe, String name, Domain domain, boolean recordNoMatch) {}

    /**
     * One split as the provider resolved it.
     *
     * @param ordinals the row groups' ordinals in the file, in the reader's order
     * @param readerColumns the columns the reader returns, in its channel order
     */
    record Split(String path, S3ObjectInfo object, ParquetFileMetadata file, List<Integer> ordinals, List<RowGroupInfo> rowGroups, List<Column> readerColumns, List<FilterColumn> filterColumns, Optional<KeyColumnPages> keyPages) {}

    private final S3ObjectStore store;
    private final OffsetIndexLoader offsetIndexes;
    private final NoMatchCache noMatchCache;
    private final Executor executor;
    private final ParquetReaderOptions options;
    private final PruningTotals totals;
    private final ConcurrentMap<Prefetching, CompletableFuture<Void>> prefetching = new ConcurrentHashMap<>();

    ReadByPages(S3ObjectStore store, OffsetIndexLoader offsetIndexes, NoMatchCache noMatchCache, Executor executor, ParquetReaderOptions readerOptions, PruningTotals totals)
    {
        this.store = requireNonNull(store, "store is null");
        this.offsetIndexes = requireNonNull(offsetIndexes, "offsetIndexes is null");
        this.noMatchCache = requireNonNull(noMatchCache, "noMatchCache is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.options = ParquetReaderOptions.builder(readerOptions)
                .withUseColumnIndex(true)
                .withMaxMergeDistance(DataSize.ofBytes(PAGE_MERGE_GAP))
                .build();
        this.totals = requireNonNull(totals, "totals is null");
    }

    /**
     * Whether the split can be read by pages: flat columns only (the pages of a nested column need not start at a row),
     * and either the key index's pages of the key column or a column to read beyond the filter columns (otherwise the
     * probe would read whole what the reader reads anyway: a count of a key without the index).
     */
    static boolean applies(List<Column> readerColumns, List<FilterColumn> filterColumns, Optional<KeyColumnPages> keyPages)
    {
        Set<String> probed = new HashSet<>();
        filterColumns.forEach(column -> probed.add(column.probe().column().name()));
        return !filterColumns.isEmpty()
                && readerColumns.stream().allMatch(column -> column.field() instanceof PrimitiveField)
                && (keyPages.isPresent() || readerColumns.stream().anyMatch(column -> !probed.contains(column.name())));
    }

    /**
     * Whether this node has yet to load an offset index of the split's projected chunks. Such a split is read by whole
     * chunks meanwhile ({@link #prefetch}): by pages, its key chunks would be read whole all the same (their pages
     * are not known), and the other columns' pages would cost more GETs than their chunks, for a saving in bytes a
     * cold read does not need.
     */
    boolean offsetIndexesPending(Split split)
    {
        for (int rowGroup = 0; rowGroup < split.rowGroups().size(); rowGroup++) {
            RowGroupInfo info = split.rowGroups().get(rowGroup);
            long rowCount = info.prunedBlockMetadata().getRowCount();
            for (Column column : split.readerColumns()) {
                ColumnChunkMetadata chunk = chunk(info, column);
                if (offsetIndexes.awaitsLoad(split.file(), new OffsetIndexLoader.Chunk(split.ordinals().get(rowGroup), chunk, rowCount))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Starts loading the file's offset indexes for a split read by whole chunks.
     */
    OffsetIndexPrefetch prefetch(Split split, ReadStats readStats)
    {
        PageReadStats stats = new PageReadStats();
        stats.addReadWholeOffsetIndexUncached(split.rowGroups().size());
        Prefetching key = new Prefetching(FileKey.of(split.object()), split.readerColumns().stream().map(ReadByPages::path).toList());
        // another split of the file (a file of several splits) that is loading them already: its GET serves both
        CompletableFuture<Void> load = prefetching.computeIfAbsent(key, ignored -> CompletableFuture.runAsync(() -> loadOffsetIndexes(split, readStats, stats), executor));
        load.whenComplete((ignored, failure) -> prefetching.remove(key, load));
        return new OffsetIndexPrefetch(load, stats);
    }

    /**
     * A file's offset indexes of some columns being loaded on this node.
     */
    private record Prefetching(FileKey file, List<ColumnPath> columns) {}

    ConnectorPageSource open(Split split, ParquetBloomPageSource.Builder pageSource, PruningStats pruningStats, RowGroupMatches matches, ReadStats readStats)
    {
        PageReadStats pageStats = new PageReadStats();
        CompletableFuture<Map<ChunkKey, ChunkPages>> pages = CompletableFuture.supplyAsync(() -> loadOffsetIndexes(split, readStats, pageStats), executor);
        SecondRead second = new SecondRead(store, executor, options, split, pages, pageStats);
        try {
            List<RowMatchProbe.Target> targets = targets(split, pageStats);
            new RowMatchProbe(store, split.object(), readStats.requests(), executor, options, createdBy(split), 2 * options.getMaxBufferSize().toBytes())
                    .probe(targets, (probed, bytes) -> {
                        pruningStats.addRowGroupsRead(1);
                        pageStats.addProbed(probed.matchedRows().length > 0, otherChunkBytes(split, probed.rowGroup()));
                        pageStats.addProbeKind(probed.how());
                        matches.record(probed.matchedRows().length > 0);
                        if (probed.complete()) {
                            recordNoMatch(split, probed, pruningStats);
                        }
                        else {
                            pageStats.addProbedByKeyPages();
                        }
                        second.add(probed, bytes);
                    });
        }
        catch (IOException | RuntimeException e) {
            pages.cancel(true);
            throw readError(split.path(), e);
        }
        if (second.isEmpty()) {
            pages.cancel(true);
            return ParquetBloomPageSource.emptyAfterProbe(split.path(), pruningStats, readStats, totals, pageStats);
        }
        ParquetReader reader = second.reader(readStats);
        return pageSource.buildReadByPages(split.path(), reader, second.readRowGroups(), second.matchedRows(), pruningStats, readStats, totals, pageStats);
    }

    /**
     * Each row group's probe: the key index's pages of the key column where the split has them and this node has the
     * chunk's offset index already, with the pages the index was built with; the filter columns whole otherwise. A
     * file whose offset indexes this node has yet to load is not read here ({@link #offsetIndexesPending}); one whose
     * indexes it does not cache (no version to pin them to) has its key chunks read whole rather than after one more
     * GET, which would cost a round trip more than the chunk.
     */
    private List<RowMatchProbe.Target> targets(Split split, PageReadStats pageStats)
    {
        List<RowMatchProbe.ProbeColumn> all = split.filterColumns().stream().map(FilterColumn::probe).toList();
        Optional<FilterColumn> keyColumn = split.keyPages().flatMap(keyPages -> split.filterColumns().stream().filter(column -> column.name().equals(keyPages.column())).findFirst());
        List<RowMatchProbe.Target> targets = new ArrayList<>();
        for (int rowGroup = 0; rowGroup < split.rowGroups().size(); rowGroup++) {
            RowGroupInfo info = split.rowGroups().get(rowGroup);
            KeyColumnPages.RowGroupPages named = keyColumn.isEmpty() ? null : split.keyPages().orElseThrow().rowGroups().get(split.ordinals().get(rowGroup));
            Optional<RowMatchProbe.ProbedPages> probed = Optional.empty();
            if (named != null) {
                ColumnChunkMetadata keyChunk = chunk(info, keyColumn.get().probe().column());
                Optional<ChunkPages> cached = offsetIndexes.cached(split.file(), new OffsetIndexLoader.Chunk(split.ordinals().get(rowGroup), keyChunk, info.prunedBlockMetadata().getRowCount()));
                if (cached.isEmpty()) {
                    pageStats.addKeyPagesUncached();
                }
                else {
                    probed = keyPagesOf(info, keyColumn.get().probe().column(), cached.get(), named);
                    if (probed.isEmpty()) {
                        pageStats.addKeyPagesUnusable();
                    }
                }
            }
            int position = rowGroup;
            List<DiskRange> alongside = probed.map(pages -> pagesAlongside(split, position, pages)).orElse(List.of());
            targets.add(new RowMatchProbe.Target(rowGroup, info, probed.isPresent() ? List.of(keyColumn.get().probe()) : all, probed, alongside));
        }
        return targets;
    }

    /**
     * Of the other projected columns whose offset indexes this node has, the pages holding the rows of the key
     * pages probed: every matching row is among those, so the second read finds its pages fetched already, and a
     * lookup through the key index costs one round trip. What they add is at most a page or two per column, and
     * only where the key index named the row group (it is wrong about one in 4,000 absent keys).
     */
    private List<DiskRange> pagesAlongside(Split split, int rowGroup, RowMatchProbe.ProbedPages keyPages)
    {
        RowGroupInfo info = split.rowGroups().get(rowGroup);
        long rowCount = info.prunedBlockMetadata().getRowCount();
        RowRanges rows = PageSelector.rowRanges(keyPages.store(), List.of(keyPages.column()), rowCount);
        List<DiskRange> ranges = new ArrayList<>();
        for (Column column : split.readerColumns()) {
            ColumnChunkMetadata chunk = chunk(info, column);
            if (chunk.getPath().equals(keyPages.column()) || !chunk.getPath().equals(path(column))) {
                continue;
            }
            offsetIndexes.cached(split.file(), new OffsetIndexLoader.Chunk(split.ordinals().get(rowGroup), chunk, rowCount)).ifPresent(pages -> {
                BitSet overlapping = new BitSet(pages.getPageCount());
                for (int page = 0; page < pages.getPageCount(); page++) {
                    if (rows.isOverlapping(pages.getFirstRowIndex(page), pages.getLastRowIndex(page, rowCount))) {
                        overlapping.set(page);
                    }
                }
                ranges.addAll(PageSelector.ranges(pages, chunk.getStartingPos(), overlapping));
            });
        }
        return ranges;
    }

    /**
     * The key index's pages of the key chunk, where its offset index (validated, at the planned object version) has
     * as many pages as when the index was built: otherwise the pages are not known to be the same.
     */
    private static Optional<RowMatchProbe.ProbedPages> keyPagesOf(RowGroupInfo info, Column keyColumn, ChunkPages chunkPages, KeyColumnPages.RowGroupPages named)
    {
        if (chunkPages == null || chunkPages.getPageCount() != named.pageCount() || named.pages().isEmpty() || named.pages().stream().anyMatch(page -> page < 0 || page >= named.pageCount())) {
            return Optional.empty();
        }
        ColumnChunkMetadata chunk = chunk(info, keyColumn);
        if (!chunk.getPath().equals(path(keyColumn))) {
            return Optional.empty();
        }
        BitSet selected = new BitSet(named.pageCount());
        named.pages().forEach(selected::set);
        SelectedPages store = new SelectedPages(Map.of(chunk.getPath(), chunkPages), Map.of(chunk.getPath(), selected));
        return Optional.of(new RowMatchProbe.ProbedPages(store, chunk.getPath(), PageSelector.ranges(chunkPages, chunk.getStartingPos(), selected)));
    }

    static Optional<String> createdBy(Split split)
    {
        return Optional.ofNullable(split.file().metadata().getFileMetaData().getCreatedBy());
    }

    private void recordNoMatch(Split split, RowMatchProbe.Probed probed, PruningStats pruningStats)
    {
        for (int i = 0; i < split.filterColumns().size(); i++) {
            FilterColumn column = split.filterColumns().get(i);
            if (column.recordNoMatch() && !probed.columnMatched()[i]) {
                noMatchCache.recordNoMatch(FileKey.of(split.object()), split.ordinals().get(probed.rowGroup()), column.name(), column.domain());
                pruningStats.addRecordedNoMatch();
            }
        }
    }

    /**
     * A column chunk of the split: its row group's position among the split's, and its path.
     */
    record ChunkKey(int rowGroup, ColumnPath path) {}

    /**
     * The offset indexes of the projected columns in every row group of the file, not only the split's: they lie
     * together, so the GET is the same, and later lookups of other keys in this file then find them cached (a key
     * index's key pages are used only where the key column's is cached: see {@link #targets}).
     */
    private Map<ChunkKey, ChunkPages> loadOffsetIndexes(Split split, ReadStats readStats, PageReadStats pageStats)
    {
        Map<Integer, Integer> positions = new HashMap<>();
        for (int rowGroup = 0; rowGroup < split.ordinals().size(); rowGroup++) {
            positions.put(split.ordinals().get(rowGroup), rowGroup);
        }
        List<BlockMetadata> blocks;
        try {
            blocks = split.file().blocks();
        }
        catch (IOException e) {
            // the footer parsed for the split: its row groups did
            throw new UncheckedIOException(e);
        }
        Map<OffsetIndexLoader.Chunk, ChunkKey> keys = new HashMap<>();
        List<OffsetIndexLoader.Chunk> chunks = new ArrayList<>();
        for (int ordinal = 0; ordinal < blocks.size(); ordinal++) {
            for (Column column : split.readerColumns()) {
                int rowGroup = ordinal;
                split.file().columnChunk(ordinal, List.of(path(column).toArray())).ifPresent(chunk -> {
                    OffsetIndexLoader.Chunk loaded = new OffsetIndexLoader.Chunk(rowGroup, chunk, blocks.get(rowGroup).rowCount());
                    chunks.add(loaded);
                    Optional.ofNullable(positions.get(rowGroup)).ifPresent(position -> keys.put(loaded, new ChunkKey(position, chunk.getPath())));
                });
            }
        }
        OffsetIndexLoader.Loaded loaded = offsetIndexes.load(split.file(), chunks, readStats);
        pageStats.addOffsetIndexes(loaded.cacheHits(), loaded.loaded(), loaded.unusable());
        Map<ChunkKey, ChunkPages> pages = new HashMap<>();
        loaded.pages().forEach((chunk, chunkPages) -> {
            ChunkKey key = keys.get(chunk);
            if (key != null) {
                pages.put(key, chunkPages);
            }
        });
        return pages;
    }

    /**
     * Bytes of the row group's projected chunks beyond its filter columns'.
     */
    private static long otherChunkBytes(Split split, int rowGroup)
    {
        Set<String> probed = new HashSet<>();
        split.filterColumns().forEach(column -> probed.add(column.probe().column().name()));
        long bytes = 0;
        for (Column column : split.readerColumns()) {
            if (!probed.contains(column.name())) {
                bytes += chunk(split.rowGroups().get(rowGroup), column).getTotalSize();
            }
        }
        return bytes;
    }

    static ColumnPath path(Column column)
    {
        return ColumnPath.get(((PrimitiveField) column.field()).getDescriptor().getPath());
    }

    static ColumnChunkMetadata chunk(RowGroupInfo rowGroup, Column column)
    {
        try {
            return rowGroup.prunedBlockMetadata().getColumnChunkMetaData(((PrimitiveField) column.field()).getDescriptor());
        }
        catch (ParquetCorruptionException e) {
            throw new IllegalStateException(e);
        }
    }
}
