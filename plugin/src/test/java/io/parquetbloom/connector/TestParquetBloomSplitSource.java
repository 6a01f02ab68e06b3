package io.parquetbloom.connector;

import io.airlift.slice.Slices;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.metrics.Count;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.stream.IntStream;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Planning is lazy and bounded: a window of files at a time, batches within the engine's {@code maxSize}, nothing
 * read after {@code close()}, and each file planned with the newest dynamic filter.
 */
final class TestParquetBloomSplitSource
{
    private static final int FILES = 1_000;
    private static final int WINDOW = 4;
    private static final byte[] FILE = TestingParquetFiles.devices(4, 100);
    private static final ParquetBloomColumnHandle DEVICE_ID = new ParquetBloomColumnHandle("deviceid", VARCHAR, false);
    private static final ParquetBloomColumnHandle SEQ = new ParquetBloomColumnHandle("seq", BIGINT, false);

    @Test
    void plansAWindowOfFilesAndNothingAfterClose()
    {
        ManualExecutor executor = new ManualExecutor();
        InMemoryObjectStore store = new InMemoryObjectStore(FILE);
        S3RequestStats reads = new S3RequestStats();
        ParquetBloomSplitSource source = splitSource(store, executor, TupleDomain.withColumnDomains(Map.of(DEVICE_ID, Domain.singleValue(VARCHAR, Slices.utf8Slice("device-150")))), 1);

        CompletableFuture<List<ConnectorSplit>> batch = source.getNextBatch(10, DynamicFilterSnapshot.EMPTY);
        assertThat(batch).isNotDone();
        assertThat(executor.queued()).isEqualTo(WINDOW);

        executor.runOne();
        // device-150 is in row group 1 of every file: one split per planned file
        assertThat(batch.join()).hasSize(1);
        assertThat(executor.queued()).isEqualTo(WINDOW);
        long readsBeforeClose = store.gets();

        source.close();
        assertThat(executor.runAll()).isEqualTo(WINDOW);
        assertThat(store.gets()).isEqualTo(readsBeforeClose);
        assertThat(source.isFinished()).isTrue();
        assertThat(metric(source, "filesPlanned")).isEqualTo(1);
        assertThat(metric(source, "filesNotPlannedOnClose")).isEqualTo(FILES - 1);
    }

    @Test
    void batchesNeverExceedMaxSize()
    {
        Executor direct = Runnable::run;
        // every row group survives and is its own split: four splits per file
        ParquetBloomSplitSource source = splitSource(new InMemoryObjectStore(FILE), direct, TupleDomain.withColumnDomains(Map.of(SEQ, Domain.create(ValueSet.ofRanges(Range.greaterThanOrEqual(BIGINT, 0L)), false))), 1);
        assertThat(drain(source, 3, DynamicFilterSnapshot.EMPTY)).isEqualTo(4 * FILES);

        // nothing to prune by: splits straight from the listing, still within maxSize
        source = splitSource(new InMemoryObjectStore(FILE), direct, TupleDomain.all(), 100);
        assertThat(drain(source, 7, DynamicFilterSnapshot.EMPTY)).isEqualTo(FILES * (int) Math.ceilDiv(FILE.length, 100));
    }

    @Test
    void plansEachFileWithTheNewestDynamicFilter()
    {
        ManualExecutor executor = new ManualExecutor();
        ParquetBloomSplitSource source = splitSource(new InMemoryObjectStore(FILE), executor, TupleDomain.withColumnDomains(Map.of(SEQ, Domain.create(ValueSet.ofRanges(Range.greaterThanOrEqual(BIGINT, 0L)), false))), Long.MAX_VALUE);
        CompletableFuture<List<ConnectorSplit>> first = source.getNextBatch(100, DynamicFilterSnapshot.EMPTY);
        executor.runOne();
        assertThat(first.join()).hasSize(1);

        // the build side finished: no probe value exists in the files, so files planned from now on are pruned
        DynamicFilterSnapshot narrowed = new DynamicFilterSnapshot(TupleDomain.withColumnDomains(Map.<ColumnHandle, Domain>of(DEVICE_ID, Domain.singleValue(VARCHAR, Slices.utf8Slice("absent-device")))), true);
        int splits = 0;
        while (!source.isFinished()) {
            CompletableFuture<List<ConnectorSplit>> batch = source.getNextBatch(100, narrowed);
            executor.runAll();
            splits += batch.join().size();
        }
        // the files already queued when the filter narrowed were planned with it too
        assertThat(splits).isZero();
        assertThat(metric(source, "filesPrunedBeforeSplits")).isEqualTo(FILES - 1);
        assertThat(metric(source, "planningDynamicFilterUpdates")).isEqualTo(1);

        // a dynamic filter that no row can pass ends planning at once
        source = splitSource(new InMemoryObjectStore(FILE), executor, TupleDomain.all(), Long.MAX_VALUE);
        assertThat(source.getNextBatch(100, new DynamicFilterSnapshot(TupleDomain.none(), true)).join()).isEmpty();
        assertThat(source.isFinished()).isTrue();
        assertThat(executor.queued()).isZero();
    }

    private static int drain(ParquetBloomSplitSource source, int maxSize, DynamicFilterSnapshot snapshot)
    {
        int splits = 0;
        while (!source.isFinished()) {
            List<ConnectorSplit> batch = source.getNextBatch(maxSize, snapshot).join();
            assertThat(batch.size()).isLessThanOrEqualTo(maxSize);
            splits += batch.size();
        }
        return splits;
    }

    private static ParquetBloomSplitSource splitSource(InMemoryObjectStore store, Executor executor, TupleDomain<ParquetBloomColumnHandle> constraint, long maxSplitSize)
    {
        TestingMetadata metadata = TestingMetadata.create(store);
        List<LakeFile> files = IntStream.range(0, FILES)
                .mapToObj(i -> new LakeFile(new S3ObjectInfo(new S3Location("bucket", "table/file-%05d.parquet".formatted(i)), FILE.length, "etag-" + i), "file-%05d.parquet".formatted(i), Map.of(), Instant.EPOCH))
                .toList();
        return new ParquetBloomSplitSource(
                files,
                constraint,
                PruningPlans.create(new SchemaTableName("schema", "table"), new PruningPlan.Options(EnumSet.of(PruningPlan.Path.STATISTICS, PruningPlan.Path.BLOOM_FILTERS), 1_000, 0, 0), constraint),
                0,
                executor,
                WINDOW,
                new FileSplitPlanner(metadata.reader(), metadata.pruner(), maxSplitSize, 0, new S3RequestStats(), new PruningTotals()),
                Optional.empty(),
                Optional.empty());
    }

    private static long metric(ParquetBloomSplitSource source, String name)
    {
        return ((Count<?>) source.getMetrics().getMetrics().get(name)).getTotal();
    }

    /**
     * Runs planning tasks only when the test says so.
     */
    private static final class ManualExecutor
            implements Executor
    {
        private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task)
        {
            tasks.add(task);
        }

        synchronized int queued()
        {
            return tasks.size();
        }

        void runOne()
        {
            Runnable task;
            synchronized (this) {
                task = tasks.poll();
            }
            task.run();
        }

        int runAll()
        {
            int ran = 0;
            while (queued() > 0) {
                runOne();
                ran++;
            }
            return ran;
        }
    }

    /**
     * The files here have flat columns only: no type needs the engine's type registry.
     */

}
