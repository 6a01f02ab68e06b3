package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableMap;
import io.airlift.log.Logger;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.metrics.Metric;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static java.util.Objects.requireNonNull;

/**
 * Consults the table's key index once per scan, for the first column the plan constrains to discrete values that
 * has an index: the answer names, for every file the index covers, the row groups to read (none: the file is
 * skipped); files it does not cover are planned as before. Any problem with the index means it is not used for this
 * scan, and is counted.
 */
public final class KeyIndexPlanner
{
    private static final Logger log = Logger.get(KeyIndexPlanner.class);

    private final KeyIndexReader reader;
    private final S3Location table;
    private final S3Location indexes;
    private final Map<String, S3ObjectInfo> pointers;
    private final Executor executor;
    private final S3RequestStats requests;
    private final AtomicLong pagesRead = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong pageCacheHits = new AtomicLong();
    private final AtomicLong filesCovered = new AtomicLong();
    private final AtomicLong filesUncovered = new AtomicLong();
    private final AtomicLong rowGroupsPruned = new AtomicLong();
    private final AtomicLong unusable = new AtomicLong();
    private final AtomicLong tooLarge = new AtomicLong();
    private final AtomicLong multiSegmentLookups = new AtomicLong();

    /**
     * @param requests where the index's GETs are counted (planning's)
     */
    public KeyIndexPlanner(KeyIndexReader reader, LakeTable table, Executor executor, S3RequestStats requests)
    {
        this.pointers = KeyIndexPointers.of(requireNonNull(table, "table is null")).byColumn();
        this.reader = requireNonNull(reader, "reader is null");
        this.table = table.location();
        this.indexes = table.companionFolder();
        this.executor = requireNonNull(executor, "executor is null");
        this.requests = requireNonNull(requests, "requests is null");
    }

    /**
     * The covered files among {@code candidates} by {@link LakeFile#relativePath()}; empty when the index is not used
     * for this scan.
     */
    public Optional<Map<String, KeyIndexSelection.CoveredFile>> select(PruningPlan plan, List<LakeFile> candidates)
    {
        if (plan.none() || pointers.isEmpty()) {
            return Optional.empty();
        }
        List<Map.Entry<PruningPlan.DataColumn, Domain>> columns = plan.columnDomains().entrySet().stream()
                .filter(entry -> isPointLookup(entry.getValue()))
                .sorted(Comparator.comparing(entry -> entry.getKey().name()))
                .toList();
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        try {
            Map<String, LakeFile> listed = candidates.stream().collect(toImmutableMap(LakeFile::relativePath, file -> file));
            for (Map.Entry<PruningPlan.DataColumn, Domain> column : columns) {
                PruningPlan.DataColumn dataColumn = column.getKey();
                String indexed = KeyIndexLocations.indexedColumn(dataColumn.name(), dataColumn.fieldId(), dataColumn.mappedNames());
                Optional<KeyIndexSelection> selection = select(indexed, column.getValue(), plan.options().maxBloomValues(), listed);
                if (selection.isPresent()) {
                    return Optional.of(record(selection.get(), candidates.size()));
                }
            }
            return Optional.empty();
        }
        catch (RuntimeException e) {
            unusable.incrementAndGet();
            log.warn(e, "Key index of %s not used", table);
            return Optional.empty();
        }
    }

    private Optional<KeyIndexSelection> select(String column, Domain domain, int maxValues, Map<String, LakeFile> listed)
    {
        try {
            S3ObjectInfo pointer = pointers.get(column);
            if (pointer == null) {
                return Optional.empty();
            }
            return reader.lookup(indexes, column, reader.pointer(pointer, requests), domain, maxValues, listed, requests, executor);
        }
        catch (KeyIndexLookupTooLargeException e) {
            tooLarge.incrementAndGet();
            log.info("Key index of %s column %s not used: %s", table, column, e.getMessage());
            return Optional.empty();
        }
        catch (KeyIndexUnusableException | RuntimeException e) {
            // whatever the index's problem, the scan plans without it: slower, never wrong
            unusable.incrementAndGet();
            log.warn("Key index of %s column %s not used: %s", table, column, e.getMessage());
            return Optional.empty();
        }
    }

    private Map<String, KeyIndexSelection.CoveredFile> record(KeyIndexSelection selection, int candidates)
    {
        pagesRead.addAndGet(selection.pagesRead());
        bytesRead.addAndGet(selection.bytesRead());
        pageCacheHits.addAndGet(selection.pageCacheHits());
        if (selection.segmentsProbed() > 1) {
            multiSegmentLookups.incrementAndGet();
        }
        filesCovered.addAndGet(selection.covered().size());
        filesUncovered.addAndGet(candidates - selection.covered().size());
        selection.covered().values().forEach(covered -> rowGroupsPruned.addAndGet(covered.directory().rowGroups() - covered.rowGroups().size()));
        return selection.covered();
    }

    private static boolean isPointLookup(Domain domain)
    {
        ValueSet values = domain.getValues();
        return !domain.isNullAllowed() && !values.isNone() && !values.isAll() && values.isDiscreteSet();
    }

    public Map<String, Metric<?>> metrics()
    {
        return ImmutableMap.of(
                "keyIndexPagesRead", new LongCount(pagesRead.get()),
                "keyIndexBytesRead", new LongCount(bytesRead.get()),
                "keyIndexPageCacheHits", new LongCount(pageCacheHits.get()),
                "rowGroupsPrunedByKeyIndex", new LongCount(rowGroupsPruned.get()),
                "filesCoveredByKeyIndex", new LongCount(filesCovered.get()),
                "filesUncovered", new LongCount(filesUncovered.get()),
                "keyIndexUnusable", new LongCount(unusable.get()),
                "keyIndexLookupsTooLarge", new LongCount(tooLarge.get()),
                "keyIndexMultiSegmentLookups", new LongCount(multiSegmentLookups.get()));
    }
}
