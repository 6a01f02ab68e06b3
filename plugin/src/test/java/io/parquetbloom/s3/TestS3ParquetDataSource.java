package io.parquetbloom.s3;

import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ListMultimap;
import io.airlift.units.DataSize;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.plugin.base.metrics.LongCount;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

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
