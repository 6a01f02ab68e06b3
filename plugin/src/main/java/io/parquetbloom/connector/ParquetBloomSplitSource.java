package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.util.concurrent.ListenableFutureTask;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.pruning.RowGroupScope;
import io.parquetbloom.pruning.RowGroupSelection;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.util.concurrent.MoreExecutors.directExecutor;
import static io.airlift.concurrent.MoreFutures.toCompletableFuture;
import static java.util.Objects.requireNonNull;

/**
 * Turns the table's candidate files into splits, pruning before splitting: for files the predicate (including the
 * join's dynamic filter) constrains, the footer and the bloom filters are read (from the node's cache when warm) and
 * files where no row group can match never become splits; the surviving row groups travel in the splits so workers do
 * not decide again. Files whose metadata cannot be read become splits unpruned (fail open): the worker then reports
 * the file's problem.
 * <p>
 * Planning is lazy and bounded per query: at most {@code window} files are planned at a time, on this query's share
 * of the planning threads, and no new file is started while {@link #MAX_OUTSTANDING_SPLITS} planned splits wait for
 * the engine; {@link #close()} (query finished, {@code LIMIT} satisfied, cancelled) cancels what is queued and
 * interrupts what is running. Each file is planned with the newest dynamic filter the engine has handed over.
 */
final class ParquetBloomSplitSource
        implements ConnectorSplitSource
{
    /**
     * Splits planned and not yet taken by the engine beyond which no new file is started (as Hive's
     * {@code hive.max-outstanding-splits}).
     */
    static final int MAX_OUTSTANDING_SPLITS = 1000;

    /**
     * A candidate file with its partition values.
     */
    record PlannedFile(LakeFile file, Map<String, Optional<String>> partitionValues) {}

    private final List<PlannedFile> files;
    private final TupleDomain<ParquetBloomColumnHandle> tableConstraint;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;
    private final Executor executor;
    private final int window;
    private final ParquetMetadataReader metadataReader;
    private final RowGroupPruner pruner;
    private final S3RequestStats planningStats;
    private final ReadStats pruningReads = new ReadStats();
    private final PruningStats pruningStats = new PruningStats();
    private final AtomicLong filesPruned = new AtomicLong();
    private final AtomicLong filesFailedOpen = new AtomicLong();
    private final AtomicLong filesPlanned = new AtomicLong();
    private final AtomicLong dynamicFilterUpdates = new AtomicLong();

    // the newest plan: the table's constraint and the dynamic filter as of the latest batch
    private volatile PruningPlan plan;
    // guarded by this
    private int next;
    private final List<Planning> inFlight = new ArrayList<>();
    private final ArrayDeque<ConnectorSplit> ready = new ArrayDeque<>();
    private TupleDomain<ColumnHandle> lastDynamicFilter;
    private volatile boolean closed;
    private long filesCancelled;

    private record Planning(ListenableFutureTask<List<ConnectorSplit>> task, CompletableFuture<List<ConnectorSplit>> result) {}

    private final long metadataCacheFlush;
    private final PruningTotals totals;

    ParquetBloomSplitSource(
            List<PlannedFile> files,
            TupleDomain<ParquetBloomColumnHandle> tableConstraint,
            PruningPlan plan,
            long maxSplitSize,
            long dynamicFilterWaitMillis,
            Executor executor,
            int window,
            ParquetMetadataReader metadataReader,
            RowGroupPruner pruner,
            S3RequestStats planningStats,
            long metadataCacheFlush,
            PruningTotals totals)
    {
        this.totals = requireNonNull(totals, "totals is null");
        this.metadataCacheFlush = metadataCacheFlush;
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.tableConstraint = requireNonNull(tableConstraint, "tableConstraint is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.maxSplitSize = maxSplitSize;
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.executor = requireNonNull(executor, "executor is null");
        this.window = window;
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
        this.planningStats = requireNonNull(planningStats, "planningStats is null");
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilterSnapshot)
    {
        int batchSize = Math.max(1, maxSize);
        CompletableFuture<?>[] pending;
        synchronized (this) {
            narrow(dynamicFilterSnapshot);
            if (plan.none()) {
                // nothing can match: neither what is planned nor what is left
                filesPruned.addAndGet(files.size() - next);
                totals.addFilesPruned(files.size() - next);
                next = files.size();
                ready.clear();
                cancelInFlight();
                return CompletableFuture.completedFuture(ImmutableList.of());
            }
            if (!plan.prunesFiles()) {
                // no metadata to read: splits straight from the listing, at most a batch at a time
                while (ready.size() < batchSize && next < files.size()) {
                    ready.addAll(unprunedSplits(files.get(next++)));
                }
                return CompletableFuture.completedFuture(take(batchSize));
            }
            startPlanning();
            collectPlanned();
            if (!ready.isEmpty() || inFlight.isEmpty()) {
                List<ConnectorSplit> batch = take(batchSize);
                startPlanning();
                return CompletableFuture.completedFuture(batch);
            }
            pending = inFlight.stream().map(Planning::result).toArray(CompletableFuture[]::new);
        }
        // hand out splits as soon as any file is planned: cold, workers read the first files while the rest are planned
        return CompletableFuture.anyOf(pending)
                .handle((_, _) -> null)
                .thenApply(_ -> {
                    synchronized (this) {
                        collectPlanned();
                        List<ConnectorSplit> batch = take(batchSize);
                        startPlanning();
                        return batch;
                    }
                });
    }

    /**
     * Uses the engine's newest dynamic filter from now on; files already planned with a wider one stay correct.
     */
    private void narrow(DynamicFilterSnapshot snapshot)
    {
        TupleDomain<ColumnHandle> dynamicFilter = snapshot.currentPredicate();
        if (dynamicFilter.equals(lastDynamicFilter)) {
            return;
        }
        if (lastDynamicFilter != null) {
            dynamicFilterUpdates.incrementAndGet();
        }
        lastDynamicFilter = dynamicFilter;
        plan = PruningPlans.create(plan.table(), plan.options(), tableConstraint.intersect(dynamicFilter.transformKeys(ParquetBloomColumnHandle.class::cast)));
    }

    // guarded by this
    private void startPlanning()
    {
        while (!closed && next < files.size() && inFlight.size() < window && ready.size() < MAX_OUTSTANDING_SPLITS) {
            PlannedFile file = files.get(next++);
            ListenableFutureTask<List<ConnectorSplit>> task = ListenableFutureTask.create(() -> planFile(file));
            inFlight.add(new Planning(task, toCompletableFuture(task)));
            // a finished file makes room for the next at once, not only when the engine asks for its next batch
            task.addListener(this::refill, directExecutor());
            executor.execute(task);
        }
    }

    private synchronized void refill()
    {
        if (closed) {
            return;
        }
        collectPlanned();
        startPlanning();
    }

    // guarded by this
    private void collectPlanned()
    {
        Iterator<Planning> iterator = inFlight.iterator();
        while (iterator.hasNext()) {
            Planning planning = iterator.next();
            if (planning.task().isDone()) {
                iterator.remove();
                if (!planning.task().isCancelled()) {
                    ready.addAll(planning.result().join());
                }
            }
        }
    }

    // guarded by this
    private List<ConnectorSplit> take(int maxSize)
    {
        ImmutableList.Builder<ConnectorSplit> batch = ImmutableList.builder();
        for (int i = 0; i < maxSize && !ready.isEmpty(); i++) {
            batch.add(ready.poll());
        }
        return batch.build();
    }

    private List<ConnectorSplit> planFile(PlannedFile planned)
    {
        PruningPlan plan = this.plan;
        S3ObjectInfo object = planned.file().object();
        filesPlanned.incrementAndGet();
        try {
            if (plan.none()) {
                filesPruned.incrementAndGet();
                totals.addFilesPruned(1);
                return ImmutableList.of();
            }
            ParquetFileMetadata file = metadataReader.footerForPruning(object, plan.table(), plan.readWholeFileUpTo(), pruningReads);
            RowGroupSelection selection = pruner.prune(file, plan, RowGroupScope.WHOLE_FILE, pruningReads);
            pruningStats.add(selection.stats());
            totals.add(selection.stats());
            List<Integer> survivors = selection.rowGroups();
            if (survivors.isEmpty()) {
                filesPruned.incrementAndGet();
                totals.addFilesPruned(1);
                return ImmutableList.of();
            }
            return splitsOf(planned, file.blocks(), survivors);
        }
        catch (Exception e) {
            if (closed) {
                // interrupted by close(): nobody takes these splits
                return ImmutableList.of();
            }
            filesFailedOpen.incrementAndGet();
            totals.addFileFailedOpen();
            return unprunedSplits(planned);
        }
    }

    /**
     * Surviving row groups grouped into splits of at most {@code maxSplitSize} compressed bytes.
     */
    private List<ConnectorSplit> splitsOf(PlannedFile planned, List<BlockMetadata> blocks, List<Integer> survivors)
    {
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        List<Integer> group = new ArrayList<>();
        long groupSize = 0;
        for (int ordinal : survivors) {
            long size = blocks.get(ordinal).columns().stream().mapToLong(column -> column.getTotalSize()).sum();
            if (!group.isEmpty() && groupSize + size > maxSplitSize) {
                splits.add(split(planned, 0, planned.file().object().size(), Optional.of(List.copyOf(group))));
                group.clear();
                groupSize = 0;
            }
            group.add(ordinal);
            groupSize += size;
        }
        splits.add(split(planned, 0, planned.file().object().size(), Optional.of(List.copyOf(group))));
        return splits.build();
    }

    private List<ConnectorSplit> unprunedSplits(PlannedFile planned)
    {
        long size = planned.file().object().size();
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        for (long start = 0; start < size; start += maxSplitSize) {
            splits.add(split(planned, start, Math.min(maxSplitSize, size - start), Optional.empty()));
        }
        return splits.build();
    }

    private ParquetBloomSplit split(PlannedFile planned, long start, long length, Optional<List<Integer>> rowGroups)
    {
        S3ObjectInfo object = planned.file().object();
        return new ParquetBloomSplit(object.location().toString(), object.size(), object.etag(), start, length, planned.partitionValues(), rowGroups, metadataCacheFlush);
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return dynamicFilterWaitMillis;
    }

    /**
     * What the coordinator did to plan the scan: listings, files pruned before splitting, and the S3 and cache use of
     * that pruning.
     */
    @Override
    public Metrics getMetrics()
    {
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        metrics.put("s3ListRequests", new LongCount(planningStats.listRequests()));
        metrics.put("s3PlanningGetRequests", new LongCount(planningStats.getRequests() + pruningReads.requests().getRequests()));
        metrics.put("s3PlanningBytesRead", new LongCount(planningStats.getBytes() + pruningReads.requests().getBytes()));
        metrics.put("s3PlanningRetries", new LongCount(planningStats.retries() + pruningReads.requests().retries()));
        metrics.put("s3PlanningThrottledAttempts", new LongCount(planningStats.throttledAttempts() + pruningReads.requests().throttledAttempts()));
        metrics.put("s3PlanningFailedAttempts", new LongCount(planningStats.failedAttempts() + pruningReads.requests().failedAttempts()));
        metrics.put("filesTotal", new LongCount(files.size()));
        metrics.put("filesPlanned", new LongCount(filesPlanned.get()));
        metrics.put("filesPrunedBeforeSplits", new LongCount(filesPruned.get()));
        metrics.put("filesFailedOpenBeforeSplits", new LongCount(filesFailedOpen.get()));
        metrics.put("planningDynamicFilterUpdates", new LongCount(dynamicFilterUpdates.get()));
        synchronized (this) {
            metrics.put("filesNotPlannedOnClose", new LongCount(filesCancelled));
        }
        metrics.put("planningMetadataCacheFooterHits", new LongCount(pruningReads.cache().footerHits()));
        metrics.put("planningMetadataCacheFilterHits", new LongCount(pruningReads.cache().filterHits()));
        pruningStats.toMetrics().forEach((name, value) -> metrics.put("planning" + Character.toUpperCase(name.charAt(0)) + name.substring(1), value));
        return new Metrics(metrics.buildKeepingLast());
    }

    /**
     * The engine no longer wants splits (the query ended, was cancelled, or has its {@code LIMIT}): queued files are
     * never planned and running ones are interrupted, so no S3 request of this query outlives it by more than the
     * one in progress.
     */
    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        filesCancelled = files.size() - next;
        next = files.size();
        ready.clear();
        cancelInFlight();
    }

    // guarded by this
    private void cancelInFlight()
    {
        // cleared first: a cancelled task's listener must find nothing left to collect
        List<Planning> cancelled = List.copyOf(inFlight);
        inFlight.clear();
        for (Planning planning : cancelled) {
            if (planning.task().cancel(true)) {
                filesCancelled++;
            }
        }
    }

    @Override
    public synchronized boolean isFinished()
    {
        return next >= files.size() && inFlight.isEmpty() && ready.isEmpty();
    }
}
