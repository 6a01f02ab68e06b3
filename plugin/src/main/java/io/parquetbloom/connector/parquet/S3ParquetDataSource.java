package io.parquetbloom.connector.parquet;

import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ListMultimap;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.memory.context.LocalMemoryContext;
import io.trino.parquet.ChunkReader;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

import static com.google.common.base.Preconditions.checkState;
import static java.lang.Math.toIntExact;
import static java.util.Comparator.comparingLong;
import static java.util.Objects.requireNonNull;

/**
 * trino-parquet's view of one version of an S3 object: every read is one ranged GET pinned to the listed ETag, counted
 * in the page source's stats.
 * <p>
 * The reader plans every projected column chunk of every row group up front and reads a chunk when it first needs its
 * bytes. How chunks become GETs follows the {@link ColumnChunkLayout}: without filter columns, adjacent chunks are read
 * together (one GET for a small file, as trino-parquet does). With filter columns, each row group is read key first or
 * whole. What is read ahead (the filter chunks of a row group read key first; every chunk of consecutive row groups
 * read whole, merged as trino-parquet merges) is fetched ahead of the reader on a separate executor, as many bytes
 * ahead as the window holds, so that the GETs overlap and one slow GET does not stall the others. The other chunks of a
 * row group read key first are fetched together, in one GET when adjacent, only when the reader asks for one of them.
 * The engine evaluates the filter before it loads the other columns of a page, so a row group without a wanted row
 * never fetches them; the bytes so avoided are reported as {@value #SKIPPED_BYTES_METRIC}. Once most row groups read
 * key first have matched ({@link RowGroupMatches}), the rest of the next ones is fetched alongside their key chunks.
 */
public class S3ParquetDataSource
        implements ParquetDataSource
{
    public static final String SKIPPED_BYTES_METRIC = "columnChunkBytesSkipped";
    public static final String KEY_FIRST_METRIC = "rowGroupsReadKeyFirst";
    public static final String WHOLE_METRIC = "rowGroupsReadWhole";
    public static final String WHOLE_AFTER_MATCHES_METRIC = "rowGroupsReadWholeAfterMatches";

    // GETs in flight ahead of the reader at most, however small: a split must not take the connection pool
    private static final int MAX_READS_AHEAD = 16;

    private final ParquetDataSourceId id;
    private final S3ObjectStore store;
    private final S3ObjectInfo object;
    private final S3RequestStats stats;
    private final ColumnChunkLayout layout;
    private final Executor prefetchExecutor;
    private final long maxBufferSize;
    private final long maxMergeDistance;
    // bytes fetched ahead of the read the reader is in: bounds the memory a split holds, each read reserved in the
    // reader's memory context from the moment its GET is sent, while enough GETs overlap that one slow GET stalls none
    private final long prefetchWindowBytes;
    private final RowGroupMatches matches;
    private final HeldBytes tail;
    private final List<FetchedRange> planned = new ArrayList<>();
    private final List<FetchedRange> aheadRanges = new ArrayList<>();
    // the reads of a row group read key first that the reader has not asked for yet, by row group
    private final Map<Integer, List<FetchedRange>> onDemandRanges = new TreeMap<>();
    // the row groups with projected chunks beyond the filter columns', which show by being read whether a row matched
    private final SortedSet<Integer> rowGroupsWithOtherColumns = new TreeSet<>();
    private final Set<Integer> matchedRowGroups = new HashSet<>();
    private final Set<Integer> switchedToWhole = new HashSet<>();
    private int aheadSubmitted;
    private int rowGroupsStarted;
    private long readBytes;
    private long readTimeNanos;

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options)
    {
        this(store, object, stats, options, ColumnChunkLayout.unfiltered(), Runnable::run);
    }

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options, ColumnChunkLayout layout, Executor prefetchExecutor)
    {
        this(store, object, stats, options, layout, prefetchExecutor, RowGroupMatches.NONE);
    }

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options, ColumnChunkLayout layout, Executor prefetchExecutor, RowGroupMatches matches)
    {
        this(store, object, stats, options, layout, prefetchExecutor, matches, FileTail.NONE);
    }

    /**
     * @param tail bytes of the file's end the footer read already brought (a small file read whole): reads inside it
     * cost no GET
     */
    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options, ColumnChunkLayout layout, Executor prefetchExecutor, RowGroupMatches matches, HeldBytes tail)
    {
        this.matches = requireNonNull(matches, "matches is null");
        this.tail = requireNonNull(tail, "tail is null");
        this.store = requireNonNull(store, "store is null");
        this.object = requireNonNull(object, "object is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.prefetchExecutor = requireNonNull(prefetchExecutor, "prefetchExecutor is null");
        this.id = new ParquetDataSourceId(object.location().toString());
        this.maxBufferSize = options.getMaxBufferSize().toBytes();
        this.maxMergeDistance = options.getMaxMergeDistance().toBytes();
        this.prefetchWindowBytes = 2 * maxBufferSize;
    }

    @Override
    public ParquetDataSourceId getId()
    {
        return id;
    }

    @Override
    public long getReadBytes()
    {
        return readBytes;
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public long getEstimatedSize()
    {
        return object.size();
    }

    @Override
    public Slice readTail(int length)
            throws IOException
    {
        int tail = toIntExact(Math.min(length, object.size()));
        return readFully(object.size() - tail, tail);
    }

    @Override
    public Slice readFully(long position, int length)
    {
        long start = System.nanoTime();
        byte[] bytes = bytesAt(position, length);
        readTimeNanos += System.nanoTime() - start;
        readBytes += bytes.length;
        return Slices.wrappedBuffer(bytes);
    }

    /**
     * The bytes at {@code [position, position + length)}: from the tail already read where it holds them, else one GET.
     */
    private byte[] bytesAt(long position, int length)
    {
        return tail.slice(position, length).orElseGet(() -> store.read(object, position, length, stats));
    }

    @Override
    public <K> Map<K, ChunkedInputStream> planRead(ListMultimap<K, DiskRange> diskRanges, AggregatedMemoryContext memoryContext)
    {
        requireNonNull(diskRanges, "diskRanges is null");
        if (diskRanges.isEmpty()) {
            return ImmutableMap.of();
        }
        ListMultimap<K, ChunkReader> readers = ArrayListMultimap.create();
        if (!layout.readsFilterColumnsFirst()) {
            planAdjacentReads(diskRanges.entries(), readers, memoryContext);
        }
        else {
            planRowGroupReads(diskRanges.entries(), readers, memoryContext);
            // the first reads are sent while the engine is still setting up the page source
            prefetchAheadThrough(-1);
        }

        Map<K, ChunkedInputStream> streams = new LinkedHashMap<>();
        for (K key : readers.keySet()) {
            List<ChunkReader> chunks = new ArrayList<>(readers.get(key));
            // the page reader expects a chunk's pieces in file order
            chunks.sort(comparingLong(ChunkReader::getDiskOffset));
            streams.put(key, new ChunkedInputStream(chunks));
        }
        return streams;
    }

    /**
     * Plans the reads ahead in the order the reader reads row groups (which need not be the order of their offsets in
     * the file: the window ahead follows the reader), then the reads on demand, each served by a read ahead that
     * covers it where there is one.
     */
    private <K> void planRowGroupReads(Collection<Map.Entry<K, DiskRange>> entries, ListMultimap<K, ChunkReader> readers, AggregatedMemoryContext memoryContext)
    {
        Map<Integer, List<Map.Entry<K, DiskRange>>> aheadByRowGroup = new TreeMap<>();
        Map<Integer, List<Map.Entry<K, DiskRange>>> onDemandByRowGroup = new TreeMap<>();
        for (Map.Entry<K, DiskRange> entry : entries) {
            int rowGroup = layout.rowGroupOf(entry.getValue());
            Map<Integer, List<Map.Entry<K, DiskRange>>> group = layout.readsAhead(entry.getValue()) ? aheadByRowGroup : onDemandByRowGroup;
            group.computeIfAbsent(rowGroup, _ -> new ArrayList<>()).add(entry);
            if (rowGroup >= 0 && !layout.isFilterChunk(entry.getValue())) {
                rowGroupsWithOtherColumns.add(rowGroup);
            }
        }
        for (List<Map.Entry<K, DiskRange>> run : runsReadTogether(aheadByRowGroup)) {
            List<FetchedRange> ranges = planAdjacentReads(run, readers, memoryContext);
            // in the reader's order, so that the window holds the row groups it reaches next, not every large chunk
            ranges.sort(Comparator.comparingInt(FetchedRange::firstRowGroup).thenComparingLong(range -> range.range.offset()));
            aheadRanges.addAll(ranges);
        }
        for (int i = 0; i < aheadRanges.size(); i++) {
            aheadRanges.get(i).aheadIndex = i;
        }
        onDemandByRowGroup.forEach((rowGroup, rowGroupEntries) -> {
            List<Map.Entry<K, DiskRange>> uncovered = new ArrayList<>();
            for (Map.Entry<K, DiskRange> entry : rowGroupEntries) {
                coveringAheadRange(entry.getValue()).ifPresentOrElse(range -> readers.put(entry.getKey(), range.view(entry.getValue(), rowGroup)), () -> uncovered.add(entry));
            }
            if (uncovered.isEmpty()) {
                return;
            }
            List<FetchedRange> ranges = planAdjacentReads(uncovered, readers, memoryContext);
            if (rowGroup >= 0) {
                // chunks of no known row group are read when asked for
                onDemandRanges.put(rowGroup, ranges);
            }
        });
    }

    /**
     * The chunks read ahead, grouped into what may be merged into one GET: consecutive row groups read whole together
     * where what lies unread between them is at most the reader's merge distance ({@code parquet.max-merge-distance},
     * 1 MB), as trino-parquet merges a file's ranges; a row group read key first alone, so that a false positive
     * never costs the bytes of columns nobody reads. A count of the key column over small row groups is then one GET
     * per file rather than one per row group: at 2,500-row row groups and 20 ms per request, 8 GETs per file made
     * an IN list of 2,000 keys slower than Hive's one.
     */
    private <K> List<List<Map.Entry<K, DiskRange>>> runsReadTogether(Map<Integer, List<Map.Entry<K, DiskRange>>> aheadByRowGroup)
    {
        List<List<Map.Entry<K, DiskRange>>> runs = new ArrayList<>();
        boolean previousWhole = false;
        long previousEnd = 0;
        for (Map.Entry<Integer, List<Map.Entry<K, DiskRange>>> rowGroup : aheadByRowGroup.entrySet()) {
            boolean whole = layout.wholeRowGroups().contains(rowGroup.getKey());
            long start = rowGroup.getValue().stream().mapToLong(entry -> entry.getValue().offset()).min().orElse(0);
            if (runs.isEmpty() || !(whole && previousWhole && start >= previousEnd && start - previousEnd <= maxMergeDistance)) {
                runs.add(new ArrayList<>());
            }
            runs.getLast().addAll(rowGroup.getValue());
            previousWhole = whole;
            previousEnd = rowGroup.getValue().stream().mapToLong(entry -> entry.getValue().end()).max().orElse(0);
        }
        return runs;
    }

    private Optional<FetchedRange> coveringAheadRange(DiskRange chunk)
    {
        for (FetchedRange range : aheadRanges) {
            if (range.range.offset() <= chunk.offset() && chunk.end() <= range.range.end()) {
                return Optional.of(range);
            }
        }
        return Optional.empty();
    }

    /**
     * Small ranges that lie close together are fetched in one GET, large ones in pieces of at most the reader's buffer
     * size, each when it is first read; as trino-parquet's own data sources do.
     */
    private <K> List<FetchedRange> planAdjacentReads(Iterable<Map.Entry<K, DiskRange>> entries, ListMultimap<K, ChunkReader> readers, AggregatedMemoryContext memoryContext)
    {
        List<FetchedRange> ranges = new ArrayList<>();
        List<Map.Entry<K, DiskRange>> small = new ArrayList<>();
        List<Map.Entry<K, DiskRange>> held = new ArrayList<>();
        for (Map.Entry<K, DiskRange> entry : entries) {
            if (tail.contains(entry.getValue().offset(), entry.getValue().length())) {
                // in memory already: merged with a range that is not, it would be fetched again
                held.add(entry);
            }
            else if (entry.getValue().length() <= maxBufferSize) {
                small.add(entry);
            }
            else {
                for (DiskRange piece : splitLargeRange(entry.getValue())) {
                    FetchedRange range = plan(piece, memoryContext);
                    ranges.add(range);
                    readers.put(entry.getKey(), range.view(piece, layout.rowGroupOf(entry.getValue())));
                }
            }
        }
        for (MergedRanges.Read<Map.Entry<K, DiskRange>> read : MergedRanges.merge(small, entry -> entry.getValue().offset(), entry -> entry.getValue().end(), maxMergeDistance, maxBufferSize)) {
            FetchedRange range = plan(new DiskRange(read.start(), read.length()), memoryContext);
            ranges.add(range);
            for (Map.Entry<K, DiskRange> member : read.members()) {
                readers.put(member.getKey(), range.view(member.getValue(), layout.rowGroupOf(member.getValue())));
            }
        }
        for (Map.Entry<K, DiskRange> entry : held) {
            FetchedRange range = plan(entry.getValue(), memoryContext);
            ranges.add(range);
            readers.put(entry.getKey(), range.view(entry.getValue(), layout.rowGroupOf(entry.getValue())));
        }
        return ranges;
    }

    private List<DiskRange> splitLargeRange(DiskRange range)
    {
        List<DiskRange> pieces = new ArrayList<>();
        long offset = range.offset();
        while (offset < range.end()) {
            long length = Math.min(maxBufferSize, range.end() - offset);
            pieces.add(new DiskRange(offset, length));
            offset += length;
        }
        return pieces;
    }

    private FetchedRange plan(DiskRange range, AggregatedMemoryContext memoryContext)
    {
        FetchedRange fetched = new FetchedRange(range, memoryContext.newLocalMemoryContext(S3ParquetDataSource.class.getSimpleName()));
        planned.add(fetched);
        return fetched;
    }

    /**
     * Sends the reads ahead of {@code readingIndex} (the read ahead the reader is in, -1 before it starts) until the
     * window is full, and always the next one. Once most row groups read key first have matched, the rest of each row
     * group whose key chunks are sent goes with them: two GETs side by side rather than one after the other.
     */
    private void prefetchAheadThrough(int readingIndex)
    {
        long bytesAhead = 0;
        for (int i = readingIndex + 1; i < aheadSubmitted; i++) {
            bytesAhead += aheadRanges.get(i).range.length() + switchedBytes(aheadRanges.get(i));
        }
        while (aheadSubmitted < aheadRanges.size() && (aheadSubmitted <= readingIndex + 1 || (bytesAhead < prefetchWindowBytes && aheadSubmitted - readingIndex <= MAX_READS_AHEAD))) {
            FetchedRange next = aheadRanges.get(aheadSubmitted++);
            next.prefetch();
            if (!onDemandRanges.isEmpty() && matches.mostMatch()) {
                switchToWhole(next);
            }
            bytesAhead += next.range.length() + switchedBytes(next);
        }
    }

    /**
     * Sends the rest of the row groups whose key chunks {@code ahead} holds, where that rest fits the window: a larger
     * one is still read piece by piece as the reader reaches it.
     */
    private void switchToWhole(FetchedRange ahead)
    {
        for (int rowGroup : ahead.rowGroups) {
            List<FetchedRange> rest = onDemandRanges.get(rowGroup);
            if (rest != null && !switchedToWhole.contains(rowGroup) && bytesOf(rest) <= prefetchWindowBytes) {
                switchedToWhole.add(rowGroup);
                rest.forEach(FetchedRange::prefetch);
            }
        }
    }

    /**
     * Bytes of the rest of the row groups switched to whole whose key chunks {@code ahead} holds.
     */
    private long switchedBytes(FetchedRange ahead)
    {
        long bytes = 0;
        for (int rowGroup : ahead.rowGroups) {
            if (switchedToWhole.contains(rowGroup)) {
                bytes += bytesOf(onDemandRanges.get(rowGroup));
            }
        }
        return bytes;
    }

    private static long bytesOf(List<FetchedRange> ranges)
    {
        long bytes = 0;
        for (FetchedRange range : ranges) {
            bytes += range.range.length();
        }
        return bytes;
    }

    /**
     * The reader moved on to {@code rowGroup}: every row group read key first before it has shown whether it matched.
     */
    private void startRowGroup(int rowGroup)
    {
        rowGroupsStarted = Math.max(rowGroupsStarted, rowGroup + 1);
        recordOutcomesBefore(rowGroup);
    }

    private void recordOutcomesBefore(int rowGroup)
    {
        while (!rowGroupsWithOtherColumns.isEmpty() && rowGroupsWithOtherColumns.first() < rowGroup) {
            int done = rowGroupsWithOtherColumns.first();
            rowGroupsWithOtherColumns.remove(done);
            matches.record(matchedRowGroups.contains(done));
        }
    }

    @Override
    public Metrics getMetrics()
    {
        long skipped = 0;
        for (FetchedRange range : planned) {
            if (!range.fetched) {
                skipped += range.range.length();
            }
        }
        if (!layout.readsFilterColumnsFirst()) {
            return new Metrics(ImmutableMap.of(SKIPPED_BYTES_METRIC, new LongCount(skipped)));
        }
        Set<Integer> rowGroups = new HashSet<>(layout.rowGroupOfChunk().values());
        long keyFirst = onDemandRanges.keySet().stream().filter(rowGroup -> !switchedToWhole.contains(rowGroup)).count();
        return new Metrics(ImmutableMap.of(
                SKIPPED_BYTES_METRIC, new LongCount(skipped),
                KEY_FIRST_METRIC, new LongCount(keyFirst),
                WHOLE_METRIC, new LongCount(rowGroups.size() - keyFirst),
                WHOLE_AFTER_MATCHES_METRIC, new LongCount(switchedToWhole.size())));
    }

    @Override
    public void close()
    {
        // every row group the reader reached has shown whether it matched; the last one may have been cut short by a
        // LIMIT and counts as without a match (a bias towards reading key first, which never costs a wrong row)
        recordOutcomesBefore(rowGroupsStarted);
        for (FetchedRange range : planned) {
            range.release();
        }
    }

    /**
     * One GET's worth of bytes, shared by the chunks (or the piece of a chunk) it covers; fetched when first read, or
     * ahead of that when it holds a filter chunk, and dropped when every chunk it covers is done with it.
     */
    private final class FetchedRange
    {
        private final DiskRange range;
        private final LocalMemoryContext memory;
        private final Set<Integer> rowGroups = new HashSet<>();
        private int aheadIndex = -1;
        private int references;
        private FutureTask<byte[]> pending;
        private boolean fetched;
        private boolean released;
        private Slice data;

        private FetchedRange(DiskRange range, LocalMemoryContext memory)
        {
            this.range = range;
            this.memory = memory;
        }

        /**
         * @param rowGroup the row group of the chunk the view serves, -1 when unknown
         */
        ChunkReader view(DiskRange part, int rowGroup)
        {
            references++;
            rowGroups.add(rowGroup);
            int offset = toIntExact(part.offset() - range.offset());
            int length = toIntExact(part.length());
            return new ChunkReader()
            {
                @Override
                public long getDiskOffset()
                {
                    return part.offset();
                }

                @Override
                public Slice read()
                        throws IOException
                {
                    if (!layout.isFilterChunk(part)) {
                        // the reader wants a column beyond the filter's: the engine found a row of this row group
                        matchedRowGroups.add(rowGroup);
                    }
                    return FetchedRange.this.read().slice(offset, length);
                }

                @Override
                public void free()
                {
                    FetchedRange.this.free();
                }
            };
        }

        /**
         * The first row group (in the reader's order) the range serves, -1 when it serves only chunks of none known.
         */
        int firstRowGroup()
        {
            return rowGroups.stream().filter(rowGroup -> rowGroup >= 0).mapToInt(Integer::intValue).min().orElse(-1);
        }

        void prefetch()
        {
            if (pending == null && data == null && !released && !tail.contains(range.offset(), range.length())) {
                fetched = true;
                // the bytes will arrive whether or not anyone reads them: the query's memory counts them from now on
                memory.setBytes(range.length());
                FutureTask<byte[]> task = new FutureTask<>(() -> bytesAt(range.offset(), toIntExact(range.length())));
                pending = task;
                prefetchExecutor.execute(() -> {
                    task.run();
                    if (task.isCancelled()) {
                        // the interrupt of cancel(true) must not reach whatever this thread of a pool runs next
                        Thread.interrupted();
                    }
                });
            }
        }

        Slice read()
                throws IOException
        {
            checkState(!released, "range %s is already released", range);
            if (data == null) {
                if (aheadIndex >= 0) {
                    int first = firstRowGroup();
                    if (first >= 0) {
                        startRowGroup(first);
                    }
                    prefetchAheadThrough(aheadIndex);
                }
                long start = System.nanoTime();
                byte[] bytes = pending == null ? bytesAt(range.offset(), toIntExact(range.length())) : await(pending);
                readTimeNanos += System.nanoTime() - start;
                readBytes += bytes.length;
                fetched = true;
                pending = null;
                data = Slices.wrappedBuffer(bytes);
                memory.setBytes(bytes.length);
            }
            return data;
        }

        void free()
        {
            if (released) {
                return;
            }
            references--;
            if (references == 0) {
                release();
            }
        }

        void release()
        {
            if (released) {
                return;
            }
            released = true;
            references = 0;
            data = null;
            if (pending != null) {
                // a fetch nobody will read (LIMIT reached, query cancelled): interrupt its GET, keep nothing of it
                pending.cancel(true);
                pending = null;
            }
            memory.close();
        }

        private static byte[] await(Future<byte[]> future)
                throws IOException
        {
            try {
                return future.get();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading");
            }
            catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof IOException io) {
                    throw io;
                }
                throw new IOException(cause);
            }
        }
    }
}
