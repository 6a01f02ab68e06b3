package io.parquetbloom.connector.procedure;

import io.parquetbloom.keyindex.BuildCancellation;
import io.parquetbloom.keyindex.SegmentBuilder;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static io.airlift.concurrent.MoreFutures.getFutureValue;
import static java.util.Objects.requireNonNull;

/**
 * A node's share of a key index build, run as a scan: it reads its split's files' key columns through the reader a
 * query uses, hashes and sorts them and uploads one segment, and returns no rows. The build runs beside the driver,
 * which waits on it as on a blocked source, so the engine's threads are not held; closing the source before it
 * finished (the query cancelled, failed or past {@code query_max_run_time}) stops it within about one row group's
 * read, and deletes the segment if it was uploaded by then.
 */
final class KeyIndexBuildPageSource
        implements ConnectorPageSource
{
    private final KeyIndexBuildSplit split;
    private final SegmentBuilder segmentBuilder;
    private final Executor executor;
    private final long memoryBytes;
    private final Consumer<SegmentBuilder.NewSegment> abandon;
    private final S3RequestStats requests = new S3RequestStats();
    private final AtomicBoolean closed = new AtomicBoolean();
    private CompletableFuture<SegmentBuilder.NewSegment> running;
    // what the engine waits on: its own future, so that the engine cancelling it cannot cancel the build
    private CompletableFuture<?> blocked = NOT_BLOCKED;
    private boolean finished;

    /**
     * @param abandon deletes a segment the build uploaded after its query stopped
     */
    KeyIndexBuildPageSource(KeyIndexBuildSplit split, SegmentBuilder segmentBuilder, Executor executor, long memoryBytes, Consumer<SegmentBuilder.NewSegment> abandon)
    {
        this.abandon = requireNonNull(abandon, "abandon is null");
        this.split = requireNonNull(split, "split is null");
        this.segmentBuilder = requireNonNull(segmentBuilder, "segmentBuilder is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.memoryBytes = memoryBytes;
    }

    @Override
    public long getCompletedBytes()
    {
        return requests.getBytes();
    }

    @Override
    public long getReadTimeNanos()
    {
        return 0;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (running == null) {
            running = CompletableFuture.supplyAsync(this::build, executor);
            blocked = running.handle((_, _) -> null);
            return null;
        }
        if (running.isDone()) {
            // a failed build fails the query, naming what failed
            getFutureValue(running);
            finished = true;
        }
        return null;
    }

    private SegmentBuilder.NewSegment build()
    {
        SegmentBuilder.SegmentSpec spec = new SegmentBuilder.SegmentSpec(split.segmentName(), split.indexType(), split.indexedEntries(), split.segmentsInBuild());
        BuildCancellation cancellation = new BuildCancellation(split.schemaTableName(), split.column().name(), closed::get);
        return segmentBuilder.write(split.schemaTableName(), S3Location.parse(split.indexes()), split.dataColumn(), split.lakeFiles(), spec, cancellation, requests);
    }

    @Override
    public CompletableFuture<?> isBlocked()
    {
        return blocked;
    }

    @Override
    public long getMemoryUsage()
    {
        // the build's sorter and the row groups being hashed, bounded by key-index.build-memory
        return running != null && !running.isDone() ? memoryBytes : 0;
    }

    @Override
    public void close()
    {
        closed.set(true);
        if (running != null && !finished) {
            // the engine stopped reading before the build ended: its segment, if uploaded, is never published
            running.thenAccept(abandon);
        }
    }
}
