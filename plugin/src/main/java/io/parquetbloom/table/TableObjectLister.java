package io.parquetbloom.table;

import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.s3.UnorderedListingException;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Lists every object of a table exactly once, in key order. One listing page answers a table of up to 1,000 objects.
 * A larger table whose objects live in folders is listed as disjoint key ranges side by side (S3 lists one range only
 * page after page): the table's folders give the range bounds, and the first page, which reached some of them,
 * estimates how many pages the table has and so how many ranges are worth their one extra LIST each. A table whose
 * objects lie directly in its folder is listed page after page.
 * <p>
 * Ranges rely on S3 listing keys in strictly increasing UTF-8 byte order. A store that does not (S3 Express One Zone
 * directory buckets) is detected, on the first page or in any range, and listed serially by continuation tokens
 * instead, without an early stop; a key listed twice is an error naming the bucket, never a duplicated row.
 */
final class TableObjectLister
{
    // key ranges of one table listed at the same time; S3 answers any number, but stores that walk their whole tree
    // for every page (S3Proxy's filesystem backend) time out when dozens of walks of 50,000 objects run at once
    static final int MAX_PARALLEL_LISTINGS = 8;

    private static final Comparator<ListedObject> KEY_ORDER = (left, right) -> S3ObjectStore.compareKeys(left.key(), right.key());

    private final S3ObjectStore store;

    TableObjectLister(S3ObjectStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    List<ListedObject> list(S3Location prefix, S3RequestStats stats)
    {
        S3ObjectStore.ListingPage first = store.listFirstPage(prefix, stats);
        // a page of one key says nothing of the store's order; a directory bucket is known not to sort
        if (!first.truncated() || first.objects().size() < 2 || !first.inKeyOrder() || isDirectoryBucket(prefix.bucket())) {
            return listSerially(prefix, first, stats);
        }
        List<String> bounds = keyRangeBounds(prefix, first.objects(), stats);
        if (bounds.isEmpty()) {
            return listSerially(prefix, first, stats);
        }
        try {
            return requireStrictlyIncreasing(prefix, listRanges(prefix, bounds, stats));
        }
        catch (UnorderedListingException e) {
            // the first page's continuation token still lists the rest, whatever the order
            return listSerially(prefix, first, stats);
        }
        catch (TrinoException e) {
            if (!refusedStartAfter(e)) {
                throw e;
            }
            return listSerially(prefix, first, stats);
        }
    }

    /**
     * S3 Express One Zone directory buckets are named {@code <name>--<zone-id>--x-s3}.
     */
    static boolean isDirectoryBucket(String bucket)
    {
        return bucket.endsWith("--x-s3");
    }

    /**
     * A store that does not support {@code start-after} answers 400: list it serially instead.
     */
    private static boolean refusedStartAfter(TrinoException e)
    {
        return e.getCause() instanceof AwsServiceException service && service.statusCode() == 400;
    }

    /**
     * Page after page by continuation token, which needs no key order; sorted afterwards.
     */
    private List<ListedObject> listSerially(S3Location prefix, S3ObjectStore.ListingPage first, S3RequestStats stats)
    {
        List<ListedObject> objects = new ArrayList<>(first.objects());
        first.continuationToken().ifPresent(token -> objects.addAll(store.listRemaining(prefix, token, stats)));
        objects.sort(KEY_ORDER);
        return requireStrictlyIncreasing(prefix, objects);
    }

    private static List<ListedObject> requireStrictlyIncreasing(S3Location prefix, List<ListedObject> objects)
    {
        int duplicate = S3ObjectStore.firstOutOfOrder(objects, Optional.empty());
        if (duplicate >= 0) {
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Listing %s in bucket %s returned key '%s' more than once (after '%s'); refusing to read the table from a listing that repeats objects".formatted(
                    prefix.asPrefix(), prefix.bucket(), objects.get(duplicate).key(), objects.get(duplicate - 1).key()));
        }
        return objects;
    }

    /**
     * Ranges {@code (-inf, b1], (b1, b2], ..., (bn, +inf)} for strictly increasing bounds: every key in exactly one.
     */
    private List<ListedObject> listRanges(S3Location prefix, List<String> bounds, S3RequestStats stats)
    {
        List<Callable<List<ListedObject>>> ranges = new ArrayList<>();
        for (int i = 0; i <= bounds.size(); i++) {
            Optional<String> startAfter = i == 0 ? Optional.empty() : Optional.of(bounds.get(i - 1));
            Optional<String> lastKey = i == bounds.size() ? Optional.empty() : Optional.of(bounds.get(i));
            ranges.add(() -> store.listObjectsBetween(prefix, startAfter, lastKey, stats));
        }
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // the calling thread lists too
            List<List<ListedObject>> listed = ParallelTasks.runAll(ranges, new BoundedExecutor(threads, MAX_PARALLEL_LISTINGS - 1));
            return listed.stream().flatMap(List::stream).collect(toImmutableList());
        }
    }

    /**
     * Bounds that cut the table's key space into ranges of about a listing page each (at most
     * {@value #MAX_PARALLEL_LISTINGS}), at folder boundaries; none when the table has no folders to cut at. A bound is
     * a folder's key with its trailing slash ({@code region=us/}): the folder's objects sort after it. Without the
     * slash ({@code region=us}) the bounds would not follow the folders' order where a name continues below
     * {@code /} ({@code region=us-east/ < region=us/}, but {@code region=us < region=us-east}), and ranges would overlap.
     */
    static List<String> keyRangeBounds(List<String> folderKeys, List<ListedObject> firstPage)
    {
        List<String> folders = folderKeys.stream()
                .sorted(S3ObjectStore::compareKeys)
                .distinct()
                .toList();
        if (folders.size() < 2 || firstPage.isEmpty()) {
            return List.of();
        }
        String lastListed = firstPage.getLast().key();
        long reached = folders.stream().filter(folder -> S3ObjectStore.compareKeys(folder, lastListed) <= 0).count();
        long estimatedObjects = firstPage.size() * (long) folders.size() / Math.max(1, reached);
        int ranges = (int) Math.min(Math.min(MAX_PARALLEL_LISTINGS, folders.size()), Math.max(2, (estimatedObjects + firstPage.size() - 1) / firstPage.size()));
        List<String> bounds = new ArrayList<>();
        for (int i = 1; i < ranges; i++) {
            bounds.add(folders.get(i * folders.size() / ranges));
        }
        return bounds;
    }

    private List<String> keyRangeBounds(S3Location prefix, List<ListedObject> firstPage, S3RequestStats stats)
    {
        String folderKey = prefix.asPrefix().key();
        boolean nested = firstPage.stream().anyMatch(object -> object.key().indexOf('/', folderKey.length()) >= 0);
        if (!nested) {
            return List.of();
        }
        List<String> children = store.listChildPrefixes(prefix, stats);
        checkNoFormatFolder(prefix, children, stats);
        List<String> folderKeys = children.stream()
                .map(name -> prefix.child(name).asPrefix().key())
                .toList();
        return keyRangeBounds(folderKeys, firstPage);
    }

    /**
     * A table format's folder among the table's own folders ends the listing before its other pages: a Delta Lake
     * log, or Iceberg metadata (whose {@code data/} folder sorts before it), so that a large format table is not listed
     * whole to be found out.
     */
    private void checkNoFormatFolder(S3Location prefix, List<String> children, S3RequestStats stats)
    {
        for (String child : children) {
            Optional<TableFormat> format = TableFormat.ofFolder(child);
            if (format.isPresent()) {
                throw new TableFormatFound(format.get(), prefix.asPrefix(), TableListing.formatMessage(prefix.asPrefix(), format.get()));
            }
        }
        if (children.contains("metadata")) {
            S3Location metadata = prefix.child("metadata").asPrefix();
            boolean iceberg = store.listFirstPage(metadata, stats).objects().stream()
                    .anyMatch(object -> TableFormat.isIcebergMetadataFile(object.key().substring(metadata.key().length())));
            if (iceberg) {
                throw new TableFormatFound(TableFormat.ICEBERG, prefix.asPrefix(), TableListing.formatMessage(prefix.asPrefix(), TableFormat.ICEBERG));
            }
        }
    }
}
