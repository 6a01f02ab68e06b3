package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * Turns the table's candidate files into splits, pruning before splitting: for files the predicate (including the
 * join's dynamic filter, which the engine waits for before the first batch) constrains, the footer and the bloom
 * filters are read (in parallel, from the node's cache when warm) and files where no row group can match never
 * become splits; the surviving row groups travel in the splits so workers do not decide again. Files whose metadata
 * cannot be read become splits unpruned (fail open): the worker then reports the file's problem.
 */
final class ParquetBloomSplitSource
        implements ConnectorSplitSource
{
    /**
     * A candidate file with its partition values.
     */
    record PlannedFile(LakeFile file, Map<String, Optional<String>> partitionValues) {}

    private final List<PlannedFile> files;
    private final TupleDomain<ParquetBloomColumnHandle> tableConstraint;
    private final String table;
    private final RowGroupPruner.Options options;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;
    private final Executor executor;
    private final ParquetMetadataCache cache;
    private final RowGroupPruner pruner;
    private final FileColumnResolver resolver;
    private final S3RequestStats planningStats;
    private final S3RequestStats pruningRequests = new S3RequestStats();
    private final MetadataCacheStats cacheStats = new MetadataCacheStats();
    private final PruningStats pruningStats = new PruningStats();
    private final RowGroupPruner.HashMemo memo = new RowGroupPruner.HashMemo();
    private final AtomicLong filesPruned = new AtomicLong();
    private final AtomicLong filesFailedOpen = new AtomicLong();
    private TupleDomain<ParquetBloomColumnHandle> constraint;
    private int next;
    // files being planned, in file order; guarded by this
    private final List<CompletableFuture<List<ConnectorSplit>>> inFlight = new ArrayList<>();

    ParquetBloomSplitSource(
            List<PlannedFile> files,
            TupleDomain<ParquetBloomColumnHandle> tableConstraint,
            String table,
            RowGroupPruner.Options options,
            long maxSplitSize,
            long dynamicFilterWaitMillis,
            Executor executor,
            ParquetMetadataCache cache,
            RowGroupPruner pruner,
            FileColumnResolver resolver,
            S3RequestStats planningStats)
    {
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.tableConstraint = requireNonNull(tableConstraint, "tableConstraint is null");
        this.table = requireNonNull(table, "table is null");
        this.options = requireNonNull(options, "options is null");
        this.maxSplitSize = maxSplitSize;
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.executor = requireNonNull(executor, "executor is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.planningStats = requireNonNull(planningStats, "planningStats is null");
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilterSnapshot)
    {
        if (constraint == null) {
            constraint = tableConstraint.intersect(dynamicFilterSnapshot.currentPredicate().transformKeys(ParquetBloomColumnHandle.class::cast));
        }
        if (constraint.isNone()) {
            filesPruned.addAndGet(files.size() - next);
            next = files.size();
            return CompletableFuture.completedFuture(ImmutableList.of());
        }
        if (!prunesFiles()) {
            int end = Math.min(files.size(), next + Math.max(1, maxSize));
            List<PlannedFile> batch = files.subList(next, end);
            next = end;
            return CompletableFuture.completedFuture(batch.stream().flatMap(file -> unprunedSplits(file).stream()).collect(ImmutableList.toImmutableList()));
        }
        // plan every file at once (the executor bounds how many read metadata at a time) and hand out splits as soon
        // as some files are planned: cold, workers read the first files while the coordinator plans the rest; warm,
        // planning is in memory and nearly everything arrives in the first batch
        CompletableFuture<?>[] planning;
        synchronized (this) {
            while (next < files.size()) {
                PlannedFile file = files.get(next++);
                inFlight.add(CompletableFuture.supplyAsync(() -> planFile(file), executor));
            }
            planning = inFlight.toArray(CompletableFuture[]::new);
        }
        if (planning.length == 0) {
            return CompletableFuture.completedFuture(ImmutableList.of());
        }
        return CompletableFuture.anyOf(planning).thenApply(_ -> takePlanned(Math.max(1, maxSize)));
    }

    private synchronized List<ConnectorSplit> takePlanned(int maxFiles)
    {
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        int taken = 0;
        Iterator<CompletableFuture<List<ConnectorSplit>>> iterator = inFlight.iterator();
        while (iterator.hasNext() && taken < maxFiles) {
            CompletableFuture<List<ConnectorSplit>> future = iterator.next();
            if (future.isDone()) {
                splits.addAll(future.join());
                iterator.remove();
                taken++;
            }
        }
        return splits.build();
    }

    private boolean prunesFiles()
    {
        if (!options.statistics() && !options.bloomFilters()) {
            return false;
        }
        return constraint.getDomains().orElseThrow().keySet().stream().anyMatch(column -> !column.partitionKey());
    }

    private List<ConnectorSplit> planFile(PlannedFile planned)
    {
        S3ObjectInfo object = planned.file().object();
        try {
            ParquetFileMetadata file = cache.footer(object, table, pruningRequests, cacheStats);
            MessageType schema = file.metadata().getFileMetaData().getSchema();
            Map<String, Domain> domains = new HashMap<>();
            for (Map.Entry<ParquetBloomColumnHandle, Domain> entry : constraint.getDomains().orElseThrow().entrySet()) {
                // a mismatching column is left to the worker, which reports it with the file's name
                if (resolver.resolve(entry.getKey(), schema) instanceof FileColumnResolver.Resolution.Match) {
                    domains.put(entry.getKey().name(), entry.getValue());
                }
            }
            PruningStats fileStats = new PruningStats();
            List<Integer> survivors = pruner.prune(file, domains, Optional.empty(), 0, Long.MAX_VALUE, options, memo, pruningRequests, cacheStats, fileStats);
            pruningStats.add(fileStats);
            if (survivors.isEmpty()) {
                filesPruned.incrementAndGet();
                return ImmutableList.of();
            }
            return splitsOf(planned, file.blocks(), survivors);
        }
        catch (Exception e) {
            filesFailedOpen.incrementAndGet();
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

    private static ParquetBloomSplit split(PlannedFile planned, long start, long length, Optional<List<Integer>> rowGroups)
    {
        S3ObjectInfo object = planned.file().object();
        return new ParquetBloomSplit(object.location().toString(), object.size(), object.etag(), start, length, planned.partitionValues(), rowGroups);
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
        metrics.put("s3PlanningGetRequests", new LongCount(planningStats.getRequests() + pruningRequests.getRequests()));
        metrics.put("s3PlanningBytesRead", new LongCount(planningStats.getBytes() + pruningRequests.getBytes()));
        metrics.put("filesTotal", new LongCount(files.size()));
        metrics.put("filesPrunedBeforeSplits", new LongCount(filesPruned.get()));
        metrics.put("filesFailedOpenBeforeSplits", new LongCount(filesFailedOpen.get()));
        metrics.put("planningMetadataCacheFooterHits", new LongCount(cacheStats.footerHits()));
        metrics.put("planningMetadataCacheFilterHits", new LongCount(cacheStats.filterHits()));
        pruningStats.toMetrics().forEach((name, value) -> metrics.put("planning" + Character.toUpperCase(name.charAt(0)) + name.substring(1), value));
        return new Metrics(metrics.buildKeepingLast());
    }

    @Override
    public void close() {}

    @Override
    public synchronized boolean isFinished()
    {
        return next >= files.size() && inFlight.isEmpty();
    }
}
