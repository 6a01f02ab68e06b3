package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.parquetbloom.keyindex.KeyColumnPages;
import io.parquetbloom.keyindex.KeyIndexSelection;
import io.parquetbloom.metadata.FooterRequest;
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
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.metrics.Metric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

/**
 * Plans one file of a scan into splits (the producer side of {@link ParquetBloomSplitSource}, as Hive's
 * {@code BackgroundHiveSplitLoader} is to {@code HiveSplitSource}): reads its footer, prunes its row groups, and
 * groups the survivors into splits. A file whose metadata cannot be read becomes splits unpruned (fail open): the
 * worker then reports the file's problem. Thread-safe: files of one query are planned in parallel.
 */
final class FileSplitPlanner
{
    /**
     * A candidate file with its partition values.
     */
    private interface RowGroupSizes
    {
        long compressedSize(int rowGroup)
                throws IOException;
    }

    private final ParquetMetadataReader metadataReader;
    private final RowGroupPruner pruner;
    private final long maxSplitSize;
    private final long metadataCacheFlush;
    private final S3RequestStats listingStats;
    private final PruningTotals totals;
    private final ReadStats pruningReads = new ReadStats();
    private final PruningStats pruningStats = new PruningStats();
    private final AtomicLong filesPlanned = new AtomicLong();
    private final AtomicLong filesPruned = new AtomicLong();
    private final AtomicLong filesFailedOpen = new AtomicLong();

    /**
     * @param listingStats the S3 requests of listing the table, reported with planning's own
     * @param metadataCacheFlush the flush epoch the splits carry to the workers
     */
    FileSplitPlanner(ParquetMetadataReader metadataReader, RowGroupPruner pruner, long maxSplitSize, long metadataCacheFlush, S3RequestStats listingStats, PruningTotals totals)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
        this.maxSplitSize = maxSplitSize;
        this.metadataCacheFlush = metadataCacheFlush;
        this.listingStats = requireNonNull(listingStats, "listingStats is null");
        this.totals = requireNonNull(totals, "totals is null");
    }

    /**
     * The splits of the file's row groups that may match {@code plan}: none when no row group can.
     *
     * @throws Exception when the file's metadata cannot be read; see {@link #unprunedSplits}
     */
    List<ConnectorSplit> planFile(LakeFile planned, PruningPlan plan)
            throws Exception
    {
        filesPlanned.incrementAndGet();
        if (plan.none()) {
            recordPruned(1);
            return ImmutableList.of();
        }
        if (plan.unselective() && planned.object().size() <= plan.readWholeFileUpTo() && !metadataReader.hasFooter(planned.object())) {
            // a small file pruning would read whole, for a predicate that passes most row groups anyway: its reader
            // reads it whole once and prunes it there, as trino-parquet reads a small file, instead of a GET here and
            // the same bytes again there (an IN list of 2,000 keys over 1 MB files was slower than Hive's one read)
            return unprunedSplits(planned);
        }
        ParquetFileMetadata file = metadataReader.footer(FooterRequest.forPruning(planned.object(), plan.table(), plan.readWholeFileUpTo(), plan.filterColumns(), plan.constrainedColumns()), pruningReads);
        RowGroupSelection selection = pruner.prune(file, plan, RowGroupScope.WHOLE_FILE, pruningReads);
        pruningStats.add(selection.stats());
        totals.add(selection.stats());
        if (selection.rowGroups().isEmpty()) {
            recordPruned(1);
            return ImmutableList.of();
        }
        // the reader of the splits then finds the footer just read in the cache
        metadataReader.keepForReading(file);
        return splitsOf(planned, file::compressedSize, selection.rowGroups());
    }

    /**
     * The splits of a file the key index covers: only the row groups it names, grouped by the sizes its directory
     * records, without reading the file's footer here.
     */
    List<ConnectorSplit> planFromKeyIndex(LakeFile planned, KeyIndexSelection.CoveredFile covered)
    {
        filesPlanned.incrementAndGet();
        if (covered.rowGroups().isEmpty()) {
            recordPruned(1);
            return ImmutableList.of();
        }
        try {
            return splitsOf(planned, covered.directory()::compressedSize, covered.rowGroups()).stream()
                    .map(split -> withKeyPages((ParquetBloomSplit) split, covered))
                    .collect(toImmutableList());
        }
        catch (IOException e) {
            // the directory's sizes are in memory
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The split with the key pages the index named for its row groups, where it told any apart.
     */
    private static ConnectorSplit withKeyPages(ParquetBloomSplit split, KeyIndexSelection.CoveredFile covered)
    {
        Map<Integer, KeyColumnPages.RowGroupPages> pages = new HashMap<>();
        for (int rowGroup : split.rowGroups().orElseThrow()) {
            List<Integer> keyPages = covered.keyPages().get(rowGroup);
            if (keyPages != null) {
                pages.put(rowGroup, new KeyColumnPages.RowGroupPages(covered.directory().keyPages(rowGroup), keyPages));
            }
        }
        if (pages.isEmpty()) {
            return split;
        }
        return new ParquetBloomSplit(split.path(), split.fileSize(), split.etag(), split.start(), split.length(), split.partitionValues(), split.rowGroups(), split.metadataCacheFlush(), Optional.of(new KeyColumnPages(covered.column(), pages)), split.deletes());
    }

    /**
     * S3 requests of planning's own reads, where the key index's GETs are counted too.
     */
    S3RequestStats planningRequests()
    {
        return pruningReads.requests();
    }

    /**
     * The file split by byte ranges, for workers to prune: its metadata could not be read here.
     */
    List<ConnectorSplit> failedOpen(LakeFile planned)
    {
        filesFailedOpen.incrementAndGet();
        totals.addFileFailedOpen();
        return unprunedSplits(planned);
    }

    /**
     * The file split by byte ranges of at most {@code maxSplitSize}, with no row groups chosen.
     */
    List<ConnectorSplit> unprunedSplits(LakeFile planned)
    {
        long size = planned.object().size();
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        for (long start = 0; start < size; start += maxSplitSize) {
            splits.add(split(planned, start, Math.min(maxSplitSize, size - start), Optional.empty()));
        }
        return splits.build();
    }

    void recordPruned(long files)
    {
        filesPruned.addAndGet(files);
        totals.addFilesPruned(files);
    }

    /**
     * Surviving row groups grouped into splits of at most {@code maxSplitSize} compressed bytes.
     */
    private List<ConnectorSplit> splitsOf(LakeFile planned, RowGroupSizes sizes, List<Integer> survivors)
            throws IOException
    {
        ImmutableList.Builder<ConnectorSplit> splits = ImmutableList.builder();
        List<Integer> group = new ArrayList<>();
        long groupSize = 0;
        for (int ordinal : survivors) {
            long size = sizes.compressedSize(ordinal);
            if (!group.isEmpty() && groupSize + size > maxSplitSize) {
                splits.add(split(planned, 0, groupSize, Optional.of(List.copyOf(group))));
                group.clear();
                groupSize = 0;
            }
            group.add(ordinal);
            groupSize += size;
        }
        // the length of a split of chosen row groups is their compressed bytes: how much of the file it reads
        splits.add(split(planned, 0, groupSize, Optional.of(List.copyOf(group))));
        return splits.build();
    }

    private ParquetBloomSplit split(LakeFile planned, long start, long length, Optional<List<Integer>> rowGroups)
    {
        S3ObjectInfo object = planned.object();
        return new ParquetBloomSplit(object.location().toString(), object.size(), object.etag(), start, length, planned.partitionValues(), rowGroups, metadataCacheFlush, Optional.empty(), planned.deletes());
    }

    /**
     * What planning cost and saved: listings, files pruned before splitting, and the S3 and cache use of pruning.
     */
    Map<String, Metric<?>> metrics()
    {
        S3RequestStats pruningRequests = pruningReads.requests();
        ImmutableMap.Builder<String, Metric<?>> metrics = ImmutableMap.builder();
        metrics.put("s3ListRequests", new LongCount(listingStats.listRequests()));
        metrics.put("sharedListings", new LongCount(listingStats.sharedListings()));
        metrics.put("partitionListings", new LongCount(listingStats.partitionListings()));
        metrics.put("partitionListingFallbacks", new LongCount(listingStats.partitionListingFallbacks()));
        metrics.put("s3PlanningGetRequests", new LongCount(listingStats.getRequests() + pruningRequests.getRequests()));
        metrics.put("s3PlanningBytesRead", new LongCount(listingStats.getBytes() + pruningRequests.getBytes()));
        metrics.put("s3PlanningRetries", new LongCount(listingStats.retries() + pruningRequests.retries()));
        metrics.put("s3PlanningThrottledAttempts", new LongCount(listingStats.throttledAttempts() + pruningRequests.throttledAttempts()));
        metrics.put("s3PlanningFailedAttempts", new LongCount(listingStats.failedAttempts() + pruningRequests.failedAttempts()));
        metrics.put("s3PlanningHedgedGets", new LongCount(listingStats.hedgedGets() + pruningRequests.hedgedGets()));
        metrics.put("s3PlanningHedgesWon", new LongCount(listingStats.hedgesWon() + pruningRequests.hedgesWon()));
        metrics.put("filesPlanned", new LongCount(filesPlanned.get()));
        metrics.put("filesPrunedBeforeSplits", new LongCount(filesPruned.get()));
        metrics.put("filesFailedOpenBeforeSplits", new LongCount(filesFailedOpen.get()));
        metrics.put("planningMetadataCacheFooterHits", new LongCount(pruningReads.cache().footerHits()));
        metrics.put("planningMetadataCacheCompactFooterHits", new LongCount(pruningReads.cache().compactFooterHits()));
        metrics.put("planningMetadataCacheFilterHits", new LongCount(pruningReads.cache().filterHits()));
        metrics.put("planningMetadataDiskHits", new LongCount(pruningReads.cache().diskHits()));
        metrics.put("planningMetadataDiskBytesRead", new LongCount(pruningReads.cache().diskBytesRead()));
        metrics.putAll(pruningStats.toPlanningMetrics());
        return metrics.buildOrThrow();
    }
}
