package io.parquetbloom.s3;

import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ListMultimap;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * together (one GET for a small file, as trino-parquet does). With filter columns, their chunks are fetched first, a few
 * row groups ahead of the reader on a separate executor so that the GETs overlap; the other chunks of a row group are
 * fetched together, in one GET when adjacent, only when the reader asks for one of them. The engine evaluates the
 * filter before it loads the other columns of a page, so a row group without a wanted row never fetches them; the
 * bytes so avoided are reported as {@value #SKIPPED_BYTES_METRIC}.
 */
public class S3ParquetDataSource
        implements ParquetDataSource
{
    public static final String SKIPPED_BYTES_METRIC = "columnChunkBytesSkipped";

    // row groups' filter chunks fetched ahead of the one being read; bounds the memory a split holds to a few chunks,
    // each reserved in the reader's memory context from the moment its GET is sent
    private static final int FILTER_CHUNKS_AHEAD = 4;

    private final ParquetDataSourceId id;
    private final S3ObjectStore store;
    private final S3ObjectInfo object;
    private final S3RequestStats stats;
    private final ColumnChunkLayout layout;
    private final Executor prefetchExecutor;
    private final long maxBufferSize;
    private final long maxMergeDistance;
    private final List<FetchedRange> planned = new ArrayList<>();
    private final List<FetchedRange> filterRanges = new ArrayList<>();
    private int filterRangesSubmitted;
    private long readBytes;
    private long readTimeNanos;

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options)
    {
        this(store, object, stats, options, ColumnChunkLayout.unfiltered(), Runnable::run);
    }

    public S3ParquetDataSource(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, ParquetReaderOptions options, ColumnChunkLayout layout, Executor prefetchExecutor)
    {
        this.store = requireNonNull(store, "store is null");
        this.object = requireNonNull(object, "object is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.layout = requireNonNull(layout, "layout is null");
        this.prefetchExecutor = requireNonNull(prefetchExecutor, "prefetchExecutor is null");
        this.id = new ParquetDataSourceId(object.location().toString());
        this.maxBufferSize = options.getMaxBufferSize().toBytes();
        this.maxMergeDistance = options.getMaxMergeDistance().toBytes();
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
        byte[] bytes = store.read(object, position, length, stats);
        readTimeNanos += System.nanoTime() - start;
        readBytes += bytes.length;
        return Slices.wrappedBuffer(bytes);
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
            Map<Integer, List<Map.Entry<K, DiskRange>>> filterEntriesByRowGroup = new TreeMap<>();
            Map<Integer, List<Map.Entry<K, DiskRange>>> otherEntriesByRowGroup = new TreeMap<>();
            for (Map.Entry<K, DiskRange> entry : diskRanges.entries()) {
                Map<Integer, List<Map.Entry<K, DiskRange>>> group = layout.isFilterChunk(entry.getValue()) ? filterEntriesByRowGroup : otherEntriesByRowGroup;
                group.computeIfAbsent(layout.rowGroupOf(entry.getValue()), _ -> new ArrayList<>()).add(entry);
            }
            // in the order the reader reads row groups, which need not be the order of their offsets in the file: the
            // window ahead is counted in row groups the reader will reach next
            for (List<Map.Entry<K, DiskRange>> entries : filterEntriesByRowGroup.values()) {
                filterRanges.addAll(planAdjacentReads(entries, readers, memoryContext));
            }
            for (int i = 0; i < filterRanges.size(); i++) {
                filterRanges.get(i).filterIndex = i;
            }
            for (List<Map.Entry<K, DiskRange>> entries : otherEntriesByRowGroup.values()) {
                planAdjacentReads(entries, readers, memoryContext);
            }
            // the first filter chunks are fetched while the engine is still setting up the page source
            prefetchFilterRangesThrough(-1);
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
     * Small ranges that lie close together are fetched in one GET, large ones in pieces of at most the reader's buffer
     * size, each when it is first read; as trino-parquet's own data sources do.
     */
    private <K> List<FetchedRange> planAdjacentReads(Iterable<Map.Entry<K, DiskRange>> entries, ListMultimap<K, ChunkReader> readers, AggregatedMemoryContext memoryContext)
    {
        List<FetchedRange> ranges = new ArrayList<>();
        List<Map.Entry<K, DiskRange>> small = new ArrayList<>();
        for (Map.Entry<K, DiskRange> entry : entries) {
            if (entry.getValue().length() <= maxBufferSize) {
                small.add(entry);
            }
            else {
                for (DiskRange piece : splitLargeRange(entry.getValue())) {
                    FetchedRange range = plan(piece, memoryContext);
                    ranges.add(range);
                    readers.put(entry.getKey(), range.view(piece));
                }
            }
        }
        for (MergedRanges.Read<Map.Entry<K, DiskRange>> read : MergedRanges.merge(small, entry -> entry.getValue().offset(), entry -> entry.getValue().end(), maxMergeDistance, maxBufferSize)) {
            FetchedRange range = plan(new DiskRange(read.start(), read.length()), memoryContext);
            ranges.add(range);
            for (Map.Entry<K, DiskRange> member : read.members()) {
                readers.put(member.getKey(), range.view(member.getValue()));
            }
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

    private void prefetchFilterRangesThrough(int readingIndex)
    {
        int last = Math.min(filterRanges.size() - 1, readingIndex + FILTER_CHUNKS_AHEAD);
        while (filterRangesSubmitted <= last) {
            filterRanges.get(filterRangesSubmitted++).prefetch();
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
        return new Metrics(ImmutableMap.of(SKIPPED_BYTES_METRIC, new LongCount(skipped)));
    }

    @Override
    public void close()
    {
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
        private int filterIndex = -1;
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

        ChunkReader view(DiskRange part)
        {
            references++;
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
                    return FetchedRange.this.read().slice(offset, length);
                }

                @Override
                public void free()
                {
                    FetchedRange.this.free();
                }
            };
        }

        void prefetch()
        {
            if (pending == null && data == null && !released) {
                fetched = true;
                // the bytes will arrive whether or not anyone reads them: the query's memory counts them from now on
                memory.setBytes(range.length());
                FutureTask<byte[]> task = new FutureTask<>(() -> store.read(object, range.offset(), toIntExact(range.length()), stats));
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
                if (filterIndex >= 0) {
                    prefetchFilterRangesThrough(filterIndex);
                }
                long start = System.nanoTime();
                byte[] bytes = pending == null ? store.read(object, range.offset(), toIntExact(range.length()), stats) : await(pending);
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
