package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.util.concurrent.ListenableFutureTask;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.parquetbloom.keyindex.KeyIndexPlanner;
import io.parquetbloom.keyindex.KeyIndexSelection;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.table.LakeFile;
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
 * Hands out the splits of a table's candidate files, pruning before splitting ({@link FileSplitPlanner}): for files the predicate (including the
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

    private final List<LakeFile> files;
    private final TupleDomain<ParquetBloomColumnHandle> tableConstraint;
    private final long dynamicFilterWaitMillis;
    private final Executor executor;
    private final int window;
    private final FileSplitPlanner planner;
    private final Optional<KeyIndexPlanner> keyIndex;
    private final Optional<SplitGrouper> grouper;
    private final AtomicLong dynamicFilterUpdates = new AtomicLong();

    // the newest plan: the table's constraint and the dynamic filter as of the latest batch
    private volatile PruningPlan plan;
    private volatile boolean closed;
    @GuardedBy("this")
    private int next;
    @GuardedBy("this")
    private final List<Planning> inFlight = new ArrayList<>();
    @GuardedBy("this")
    private final ArrayDeque<ConnectorSplit> ready = new ArrayDeque<>();
    @GuardedBy("this")
    private TupleDomain<ColumnHandle> lastDynamicFilter;
    @GuardedBy("this")
    private long filesCancelled;
    // the key index's answer, asked once with the plan of the first batch: null until it is known
    @GuardedBy("this")
    private CompletableFuture<Map<String, KeyIndexSelection.CoveredFile>> keyIndexLookup;
    @GuardedBy("this")
    private Map<String, KeyIndexSelection.CoveredFile> coveredByKeyIndex;

    private record Planning(ListenableFutureTask<List<ConnectorSplit>> task, CompletableFuture<List<ConnectorSplit>> result) {}

    /**
     * @param window the files planned at a time
     */
    ParquetBloomSplitSource(
            List<LakeFile> files,
            TupleDomain<ParquetBloomColumnHandle> tableConstraint,
            PruningPlan plan,
            long dynamicFilterWaitMillis,
            Executor executor,
            int window,
            FileSplitPlanner planner,
            Optional<KeyIndexPlanner> keyIndex,
            Optional<SplitGrouper> grouper)
    {
        this.grouper = requireNonNull(grouper, "grouper is null");
        this.keyIndex = requireNonNull(keyIndex, "keyIndex is null");
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.tableConstraint = requireNonNull(tableConstraint, "tableConstraint is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.executor = requireNonNull(executor, "executor is null");
        this.window = window;
        this.planner = requireNonNull(planner, "planner is null");
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
                planner.recordPruned(files.size() - next);
                next = files.size();
                ready.clear();
                cancelInFlight();
                return CompletableFuture.completedFuture(ImmutableList.of());
            }
            if (coveredByKeyIndex == null) {
                CompletableFuture<?> lookup = consultKeyIndex();
                if (!lookup.isDone()) {
                    return lookup.handle((_, _) -> null).thenCompose(_ -> getNextBatch(maxSize, dynamicFilterSnapshot));
                }
                coveredByKeyIndex = keyIndexLookup.getNow(ImmutableMap.of());
            }
            if (!plan.prunesFiles()) {
                // no metadata to read: splits straight from the listing, at most a batch at a time
                while (ready.size() < batchSize && next < files.size()) {
                    LakeFile file = files.get(next++);
                    if (!plannedFromKeyIndex(file)) {
                        ready.addAll(planner.unprunedSplits(file));
                    }
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
    @GuardedBy("this")
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

    /**
     * Starts asking the key index, once, with the current plan; files are planned when it answered (or failed, and
     * then without it).
     */
    @GuardedBy("this")
    private CompletableFuture<?> consultKeyIndex()
    {
        if (keyIndexLookup == null) {
            if (keyIndex.isEmpty()) {
                keyIndexLookup = CompletableFuture.completedFuture(ImmutableMap.of());
            }
            else {
                PruningPlan current = plan;
                keyIndexLookup = CompletableFuture.supplyAsync(() -> keyIndex.get().select(current, files).orElse(ImmutableMap.of()), executor)
                        .exceptionally(_ -> ImmutableMap.of());
            }
        }
        return keyIndexLookup;
    }

    /**
     * Plans a file the key index covers from its answer, without reading the file's metadata.
     *
     * @return false when the index does not cover the file
     */
    @GuardedBy("this")
    private boolean plannedFromKeyIndex(LakeFile file)
    {
        KeyIndexSelection.CoveredFile covered = coveredByKeyIndex.get(file.relativePath());
        if (covered == null) {
            return false;
        }
        ready.addAll(planner.planFromKeyIndex(file, covered));
        return true;
    }

    @GuardedBy("this")
    private void startPlanning()
    {
        while (!closed && next < files.size() && inFlight.size() < window && ready.size() < MAX_OUTSTANDING_SPLITS) {
            LakeFile file = files.get(next++);
            if (plannedFromKeyIndex(file)) {
                continue;
            }
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

    @GuardedBy("this")
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

    /**
     * Up to {@code maxSize} planned splits, those of small files grouped for one reader each where grouping is on.
     */
    @GuardedBy("this")
    private List<ConnectorSplit> take(int maxSize)
    {
        ImmutableList.Builder<ConnectorSplit> batch = ImmutableList.builder();
        for (int i = 0; i < maxSize && !ready.isEmpty(); i++) {
            batch.add(ready.poll());
        }
        List<ConnectorSplit> splits = batch.build();
        return grouper.map(value -> value.group(splits)).orElse(splits);
    }

    private List<ConnectorSplit> planFile(LakeFile file)
    {
        try {
            return planner.planFile(file, plan);
        }
        catch (Exception e) {
            if (closed) {
                // interrupted by close(): nobody takes these splits
                return ImmutableList.of();
            }
            return planner.failedOpen(file);
        }
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
        metrics.putAll(planner.metrics());
        keyIndex.ifPresent(index -> metrics.putAll(index.metrics()));
        metrics.put("filesTotal", new LongCount(files.size()));
        metrics.put("planningDynamicFilterUpdates", new LongCount(dynamicFilterUpdates.get()));
        synchronized (this) {
            metrics.put("filesNotPlannedOnClose", new LongCount(filesCancelled));
        }
        return new Metrics(metrics.buildOrThrow());
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

    @GuardedBy("this")
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
