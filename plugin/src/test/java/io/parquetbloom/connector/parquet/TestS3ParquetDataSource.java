package io.parquetbloom.connector.parquet;

import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ListMultimap;
import io.airlift.units.DataSize;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.plugin.base.metrics.LongCount;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How planned column chunks become GETs: adjacent chunks together without filter columns; with them, filter chunks
 * first and ahead of the reader, a row group's other chunks together and only when asked for.
 */
final class TestS3ParquetDataSource
{
    // two row groups of three columns each; "key" is the filter column
    private static final DiskRange KEY_0 = new DiskRange(4, 100);
    private static final DiskRange A_0 = new DiskRange(104, 200);
    private static final DiskRange B_0 = new DiskRange(304, 300);
    private static final DiskRange KEY_1 = new DiskRange(604, 100);
    private static final DiskRange A_1 = new DiskRange(704, 200);
    private static final DiskRange B_1 = new DiskRange(904, 300);
    private static final ParquetReaderOptions OPTIONS = ParquetReaderOptions.builder().build();

    private final byte[] file = bytes(1300);

    @Test
    void withoutFilterColumnsAdjacentChunksAreOneGet()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        assertThat(store.reads()).isEmpty();
        assertBytes(streams.get("a1"), A_1);
        assertBytes(streams.get("key0"), KEY_0);
        assertThat(store.reads()).containsExactly("4+1200");
    }

    @Test
    void filterChunksFirstAndOtherChunksOnlyWhenRead()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<Runnable> prefetches = new ArrayList<>();
        Executor queued = prefetches::add;
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS, layout(), queued);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        // both row groups' key chunks are fetched ahead, before the reader asks
        assertThat(prefetches).hasSize(2);
        prefetches.forEach(Runnable::run);
        assertThat(store.reads()).containsExactlyInAnyOrder("4+100", "604+100");

        assertBytes(streams.get("key0"), KEY_0);
        assertBytes(streams.get("key1"), KEY_1);
        assertThat(store.gets()).isEqualTo(2);

        // a row of row group 1 is wanted: its other two chunks arrive in one GET; row group 0's are never read
        assertBytes(streams.get("b1"), B_1);
        assertBytes(streams.get("a1"), A_1);
        assertThat(store.reads()).containsExactlyInAnyOrder("4+100", "604+100", "704+500");
        streams.values().forEach(ChunkedInputStream::close);
        assertThat(((LongCount) source.getMetrics().getMetrics().get(S3ParquetDataSource.SKIPPED_BYTES_METRIC)).getTotal())
                .isEqualTo(A_0.length() + B_0.length());
        source.close();
    }

    @Test
    void largeChunksAreReadInPiecesOfTheBufferSize()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        ParquetReaderOptions options = ParquetReaderOptions.builder().withMaxBufferSize(DataSize.ofBytes(250)).build();
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), options, layout(), Runnable::run);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        assertBytes(streams.get("b0"), B_0);
        assertThat(store.reads()).containsExactlyInAnyOrder("4+100", "604+100", "304+250", "554+50");
    }

    /**
     * The page-read probe holds a large chunk in pieces of the buffer size from its start (never one array of the
     * chunk, which could pass 2 GiB); the reader splits the chunk the same way, so each piece serves its read, and
     * pieces copied for the second read stay pieces.
     */
    @Test
    void aLargeChunkHeldInPiecesOfTheBufferSizeIsReadWithoutAGet()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        ParquetReaderOptions options = ParquetReaderOptions.builder().withMaxBufferSize(DataSize.ofBytes(250)).build();
        HeldRanges probed = new HeldRanges();
        probed.add(304, Arrays.copyOfRange(file, 304, 554));
        probed.add(554, Arrays.copyOfRange(file, 554, 604));
        HeldRanges kept = new HeldRanges();
        probed.copyTo(kept, B_0.offset(), B_0.length());
        assertThat(kept.bytes()).isEqualTo(B_0.length());
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), options, ColumnChunkLayout.unfiltered(), Runnable::run, RowGroupMatches.NONE, kept);
        Map<String, ChunkedInputStream> streams = source.planRead(ImmutableListMultimap.of("b0", B_0), newSimpleAggregatedMemoryContext());
        assertBytes(streams.get("b0"), B_0);
        assertThat(store.reads()).isEmpty();
        // a span across two pieces is copied as its two parts
        HeldRanges span = new HeldRanges();
        probed.copyTo(span, 500, 100);
        assertThat(span.slice(500, 54)).contains(Arrays.copyOfRange(file, 500, 554));
        assertThat(span.slice(554, 46)).contains(Arrays.copyOfRange(file, 554, 600));
        assertThat(span.bytes()).isEqualTo(100);
    }

    @Test
    void prefetchedBytesAreInTheMemoryContextFromTheirRequest()
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<Runnable> prefetches = new ArrayList<>();
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS, layout(), prefetches::add);
        AggregatedMemoryContext memory = newSimpleAggregatedMemoryContext();
        source.planRead(chunks(), memory);
        // both key chunks are requested: their bytes count before they arrive, and after, though nobody read them yet
        assertThat(memory.getBytes()).isEqualTo(KEY_0.length() + KEY_1.length());
        prefetches.forEach(Runnable::run);
        assertThat(memory.getBytes()).isEqualTo(KEY_0.length() + KEY_1.length());
        source.close();
        assertThat(memory.getBytes()).isZero();
    }

    @Test
    void prefetchWindowFollowsTheReadersRowGroupOrderNotFileOffsets()
            throws IOException
    {
        // ten row groups stored in descending offset order: the reader's first row group is the last in the file
        int rowGroups = 10;
        byte[] descending = bytes(4 + rowGroups * 100);
        ImmutableListMultimap.Builder<String, DiskRange> chunks = ImmutableListMultimap.builder();
        Map<DiskRange, Integer> rowGroupOf = new HashMap<>();
        for (int rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
            DiskRange key = new DiskRange(4 + (rowGroups - 1 - rowGroup) * 100L, 100);
            chunks.put("key" + rowGroup, key);
            rowGroupOf.put(key, rowGroup);
        }
        InMemoryObjectStore store = new InMemoryObjectStore(descending);
        AtomicInteger submitted = new AtomicInteger();
        Executor counting = task -> {
            submitted.incrementAndGet();
            task.run();
        };
        // a window of twice the buffer size: 400 bytes, four key chunks
        ParquetReaderOptions options = ParquetReaderOptions.builder().withMaxBufferSize(DataSize.ofBytes(200)).build();
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), options, new ColumnChunkLayout(Set.copyOf(rowGroupOf.keySet()), rowGroupOf), counting);
        AggregatedMemoryContext memory = newSimpleAggregatedMemoryContext();
        Map<String, ChunkedInputStream> streams = source.planRead(chunks.build(), memory);
        assertThat(submitted).hasValue(4);
        // reading row group 0 moves the window one row group on, not to the end of the file
        streams.get("key0").readNBytes(100);
        assertThat(submitted).hasValue(5);
        assertThat(store.reads()).containsExactly("904+100", "804+100", "704+100", "604+100", "504+100");
        assertThat(memory.getBytes()).isLessThanOrEqualTo(5 * 100);
        source.close();
    }

    @Test
    void closeInterruptsPrefetchesInFlight()
            throws Exception
    {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        S3ObjectStore blocking = new S3ObjectStore(S3Client.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build())
        {
            @Override
            public byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
            {
                started.countDown();
                try {
                    // a GET that hangs until interrupted (or until the test ends)
                    released.await();
                }
                catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return new byte[length];
            }
        };
        S3ObjectInfo object = new S3ObjectInfo(new S3Location("lake", "t/part-0.parquet"), file.length, "etag");
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            S3ParquetDataSource source = new S3ParquetDataSource(blocking, object, new S3RequestStats(), OPTIONS, layout(), executor);
            AggregatedMemoryContext memory = newSimpleAggregatedMemoryContext();
            source.planRead(chunks(), memory);
            try {
                assertThat(started.await(1, TimeUnit.MINUTES)).isTrue();
                // a LIMIT was reached: the GETs still running are stopped, and nothing they bring is kept
                source.close();
                assertThat(interrupted.await(20, TimeUnit.SECONDS)).as("the GET in flight was interrupted").isTrue();
                assertThat(memory.getBytes()).isZero();
            }
            finally {
                released.countDown();
            }
        }
    }

    @Test
    void rowGroupsReadWholeAreOneGetAheadOfTheReader()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<Runnable> prefetches = new ArrayList<>();
        ColumnChunkLayout whole = new ColumnChunkLayout(layout().filterChunks(), layout().rowGroupOfChunk(), Set.of(0, 1));
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS, whole, prefetches::add);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        // both row groups lie together: one GET of all their projected chunks, sent before the reader asks
        assertThat(prefetches).hasSize(1);
        prefetches.forEach(Runnable::run);
        assertBytes(streams.get("key0"), KEY_0);
        assertBytes(streams.get("a0"), A_0);
        assertBytes(streams.get("key1"), KEY_1);
        assertBytes(streams.get("b1"), B_1);
        assertThat(store.reads()).containsExactly("4+1200");
        assertThat(counts(source)).isEqualTo(Map.of(S3ParquetDataSource.KEY_FIRST_METRIC, 0L, S3ParquetDataSource.WHOLE_METRIC, 2L, S3ParquetDataSource.WHOLE_AFTER_MATCHES_METRIC, 0L, S3ParquetDataSource.SKIPPED_BYTES_METRIC, 0L));
        source.close();
    }

    @Test
    void theWindowFollowsTheReaderThroughLargeChunksOfRowGroupsReadWhole()
    {
        // chunks larger than the buffer (150 bytes) are read in pieces; the window (300 bytes) takes row group 0's
        // first pieces in file order, not every large piece of the split first
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<Runnable> prefetches = new ArrayList<>();
        ParquetReaderOptions options = ParquetReaderOptions.builder().withMaxBufferSize(DataSize.ofBytes(150)).build();
        ColumnChunkLayout whole = new ColumnChunkLayout(layout().filterChunks(), layout().rowGroupOfChunk(), Set.of(0, 1));
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), options, whole, prefetches::add);
        AggregatedMemoryContext memory = newSimpleAggregatedMemoryContext();
        source.planRead(chunks(), memory);
        prefetches.forEach(Runnable::run);
        assertThat(store.reads()).containsExactly("4+100", "104+150", "254+50");
        assertThat(memory.getBytes()).isEqualTo(300);
        source.close();
    }

    @Test
    void onceMostRowGroupsMatchTheRestIsFetchedAlongsideTheKeyChunks()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<Runnable> prefetches = new ArrayList<>();
        RecordingMatches matches = new RecordingMatches(true);
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS, layout(), prefetches::add, matches);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        // each row group's key chunk and its other chunks: two GETs side by side, not one after the other
        assertThat(prefetches).hasSize(4);
        prefetches.forEach(Runnable::run);
        assertThat(store.reads()).containsExactlyInAnyOrder("4+100", "104+500", "604+100", "704+500");
        assertBytes(streams.get("key0"), KEY_0);
        assertBytes(streams.get("key1"), KEY_1);
        assertBytes(streams.get("a1"), A_1);
        assertThat(store.gets()).isEqualTo(4);
        assertThat(counts(source)).containsEntry(S3ParquetDataSource.KEY_FIRST_METRIC, 0L).containsEntry(S3ParquetDataSource.WHOLE_METRIC, 2L).containsEntry(S3ParquetDataSource.WHOLE_AFTER_MATCHES_METRIC, 2L);
        source.close();
    }

    @Test
    void recordsWhetherEachRowGroupReadKeyFirstMatched()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        RecordingMatches matches = new RecordingMatches(false);
        S3ParquetDataSource source = new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS, layout(), Runnable::run, matches);
        Map<String, ChunkedInputStream> streams = source.planRead(chunks(), newSimpleAggregatedMemoryContext());
        // row group 0: only its key column is read (no row wanted); row group 1: a row is wanted
        assertBytes(streams.get("key0"), KEY_0);
        assertBytes(streams.get("key1"), KEY_1);
        assertThat(matches.outcomes).containsExactly(false);
        assertBytes(streams.get("a1"), A_1);
        source.close();
        assertThat(matches.outcomes).containsExactly(false, true);
        assertThat(counts(source)).containsEntry(S3ParquetDataSource.KEY_FIRST_METRIC, 2L).containsEntry(S3ParquetDataSource.WHOLE_METRIC, 0L);
    }

    private static Map<String, Long> counts(S3ParquetDataSource source)
    {
        Map<String, Long> counts = new HashMap<>();
        source.getMetrics().getMetrics().forEach((name, metric) -> counts.put(name, ((LongCount) metric).getTotal()));
        return counts;
    }

    private static final class RecordingMatches
            implements RowGroupMatches
    {
        private final boolean mostMatch;
        private final List<Boolean> outcomes = new ArrayList<>();

        private RecordingMatches(boolean mostMatch)
        {
            this.mostMatch = mostMatch;
        }

        @Override
        public boolean mostMatch()
        {
            return mostMatch;
        }

        @Override
        public void record(boolean matched)
        {
            outcomes.add(matched);
        }
    }

    private static ColumnChunkLayout layout()
    {
        return new ColumnChunkLayout(Set.of(KEY_0, KEY_1), Map.of(KEY_0, 0, A_0, 0, B_0, 0, KEY_1, 1, A_1, 1, B_1, 1));
    }

    private static ListMultimap<String, DiskRange> chunks()
    {
        return ImmutableListMultimap.<String, DiskRange>builder()
                .put("key0", KEY_0).put("a0", A_0).put("b0", B_0)
                .put("key1", KEY_1).put("a1", A_1).put("b1", B_1)
                .build();
    }

    private void assertBytes(ChunkedInputStream stream, DiskRange range)
            throws IOException
    {
        byte[] read = stream.readNBytes((int) range.length());
        for (int i = 0; i < read.length; i++) {
            assertThat(read[i]).isEqualTo(file[(int) range.offset() + i]);
        }
        assertThat(read).hasSize((int) range.length());
    }

    private static byte[] bytes(int length)
    {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
