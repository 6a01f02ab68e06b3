package io.parquetbloom.table;

import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.FolderListing;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import io.trino.spi.predicate.Domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The objects of a table's partitions that a predicate selects, listed without listing the others. From the table's
 * folder down, a folder where the next partition level's column is constrained is read with one delimited listing
 * (its folders and the objects directly in it), and each folder found is treated as {@link PartitionPaths#step} says:
 * a folder of that column whose value the predicate rejects is not entered; any other (a plain {@code raw/} or
 * {@code archive/}, a folder of another key) is entered, so that exactly the files the whole listing would take
 * with these values are found, wherever plain folders sit. A folder where no constrained level is left is listed
 * whole. For {@code year = 2026 AND month = 3} over {@code year=/month=/day=/hour=} folders that is the table's
 * years, 2026's months and then March's objects: the cost follows the partitions a lookup reads.
 * <p>
 * The folders of one level are listed side by side ({@value TableObjectLister#MAX_PARALLEL_LISTINGS} at a time); when
 * the walk would send more LIST requests than listing the whole table takes, it stops and the caller lists whole.
 */
final class PartitionFolders
{
    private final S3ObjectStore store;
    private final TableObjectLister lister;

    PartitionFolders(S3ObjectStore store, TableObjectLister lister)
    {
        this.store = requireNonNull(store, "store is null");
        this.lister = requireNonNull(lister, "lister is null");
    }

    private record Folder(S3Location location, int level) {}

    /**
     * @param partitionColumns the table's partition columns, outermost folder level first
     * @param domains the predicate on partition columns, by column name
     * @param maxListings the LIST requests past which the whole table is cheaper to list
     * @return the objects, or empty where the walk would cost more than {@code maxListings}
     */
    Optional<List<ListedObject>> list(S3Location tablePrefix, List<PartitionColumn> partitionColumns, Map<String, Domain> domains, long maxListings, S3RequestStats stats)
    {
        List<ListedObject> objects = new ArrayList<>();
        List<Folder> frontier = List.of(new Folder(tablePrefix.asPrefix(), 0));
        long listings = 0;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            BoundedExecutor executor = new BoundedExecutor(threads, TableObjectLister.MAX_PARALLEL_LISTINGS - 1);
            while (!frontier.isEmpty()) {
                listings += frontier.size();
                if (listings > maxListings) {
                    return Optional.empty();
                }
                // folders side by side, each listed page by page; a lone folder may list its key ranges side by side
                boolean alone = frontier.size() == 1;
                List<Callable<Step>> steps = frontier.stream()
                        .<Callable<Step>>map(folder -> () -> step(folder, partitionColumns, domains, alone, stats))
                        .toList();
                List<Folder> next = new ArrayList<>();
                for (Step step : ParallelTasks.runAll(steps, executor)) {
                    objects.addAll(step.objects());
                    next.addAll(step.folders());
                }
                frontier = next;
            }
        }
        // in key order, as the whole listing returns them, and, as it does, never a key twice
        objects.sort((left, right) -> S3ObjectStore.compareKeys(left.key(), right.key()));
        int duplicate = S3ObjectStore.firstOutOfOrder(objects, Optional.empty());
        if (duplicate >= 0) {
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Listing %s in bucket %s returned key '%s' more than once; refusing to read the table from a listing that repeats objects".formatted(
                    tablePrefix.asPrefix(), tablePrefix.bucket(), objects.get(duplicate).key()));
        }
        return Optional.of(objects);
    }

    private record Step(List<ListedObject> objects, List<Folder> folders) {}

    /**
     * One folder's listing: whole where no constrained level is left below it, else its objects and the folders to
     * enter.
     */
    private Step step(Folder folder, List<PartitionColumn> partitionColumns, Map<String, Domain> domains, boolean alone, S3RequestStats stats)
    {
        Optional<Domain> domain = constraint(folder.level(), partitionColumns, domains);
        if (domain.isEmpty()) {
            return new Step(listWhole(folder.location(), alone, stats), List.of());
        }
        PartitionColumn column = partitionColumns.get(folder.level());
        FolderListing listing = store.listFolder(folder.location(), stats);
        List<Folder> folders = new ArrayList<>();
        List<ListedObject> objects = new ArrayList<>(listing.objects());
        for (String child : listing.folders()) {
            // built by hand: the empty name (keys with "//") is a folder of its own, not the parent again
            S3Location location = new S3Location(folder.location().bucket(), folder.location().asPrefix().key() + child + "/");
            switch (PartitionPaths.step(column, domain.get(), child)) {
                case SKIP -> {}
                case ENTER -> folders.add(new Folder(location, folder.level()));
                case NEXT_LEVEL -> folders.add(new Folder(location, folder.level() + 1));
                // rare (a table format's folder): listed here, its objects fail the listing as the whole one's would
                case LIST_WHOLE -> objects.addAll(listWhole(location, false, stats));
            }
        }
        return new Step(objects, folders);
    }

    /**
     * Every object below {@code folder}: a folder listed beside others page by page (so that the walk keeps to its
     * bound of LISTs in flight), one listed alone as any table is ({@link TableObjectLister}).
     */
    private List<ListedObject> listWhole(S3Location folder, boolean alone, S3RequestStats stats)
    {
        return alone ? lister.list(folder, stats) : store.listWithAges(folder, stats);
    }

    /**
     * The predicate on the partition column of {@code level} or any below it, if it constrains one; empty where the
     * rest of the path is unconstrained (then listing whole costs less than walking).
     */
    private static Optional<Domain> constraint(int level, List<PartitionColumn> partitionColumns, Map<String, Domain> domains)
    {
        if (level >= partitionColumns.size()) {
            return Optional.empty();
        }
        boolean constrainedBelow = partitionColumns.subList(level, partitionColumns.size()).stream()
                .map(column -> domains.get(column.name()))
                .anyMatch(domain -> domain != null && !domain.isAll());
        if (!constrainedBelow) {
            return Optional.empty();
        }
        return Optional.of(domains.getOrDefault(partitionColumns.get(level).name(), Domain.all(partitionColumns.get(level).type())));
    }
}
