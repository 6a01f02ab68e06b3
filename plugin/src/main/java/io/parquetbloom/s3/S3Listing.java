package io.parquetbloom.s3;

import com.google.common.collect.ImmutableList;
import io.parquetbloom.s3.S3ObjectStore.FolderListing;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3ObjectStore.ListingPage;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The store's LIST requests: delimited listings of folders, recursive listings page by page, and key ranges listed
 * side by side (which rely on S3's key order, and refuse a store that breaks it).
 */
final class S3Listing
{
    /**
     * Sends one LIST request; tests answer it from memory.
     */
    interface Sender
    {
        ListObjectsV2Response send(ListObjectsV2Request request);
    }

    private final Sender sender;
    private final int listPageSize;
    private final S3Stats nodeStats;

    int listPageSize()
    {
        return listPageSize;
    }

    S3Listing(Sender sender, int listPageSize, S3Stats nodeStats)
    {
        this.sender = requireNonNull(sender, "sender is null");
        this.listPageSize = listPageSize;
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
    }

    /**
     * Names of the "folders" directly below {@code prefix}, without the trailing slash.
     */
    List<String> listChildPrefixes(S3Location prefix, S3RequestStats stats)
    {
        return listFolder(prefix, stats).folders().stream()
                .filter(name -> !name.isEmpty())
                .collect(ImmutableList.toImmutableList());
    }

    /**
     * One delimited listing of {@code prefix}, all pages: the names of the folders directly below it (without their
     * slash; the empty name for keys with {@code //} right below it) and the objects directly in it.
     */
    FolderListing listFolder(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<String> names = ImmutableList.builder();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        String continuationToken = null;
        do {
            ListObjectsV2Response response = listPage(folder, true, null, continuationToken, stats);
            objects.addAll(objectsOf(folder, response));
            for (CommonPrefix common : response.commonPrefixes()) {
                String name = common.prefix().substring(folder.key().length());
                if (name.endsWith("/")) {
                    // "" is the folder of keys with "//" here (a/b//c): a folder like any other to whoever walks
                    names.add(name.substring(0, name.length() - 1));
                }
            }
            continuationToken = nextToken(folder, response).orElse(null);
        }
        while (continuationToken != null);
        return new FolderListing(names.build(), objects.build());
    }

    ListingPage listFirstPage(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ListObjectsV2Response response = listPage(folder, false, null, null, stats);
        return new ListingPage(objectsOf(folder, response), nextToken(folder, response));
    }

    /**
     * The first {@code maxPages} pages of a recursive listing of {@code prefix}, with the token of the page after them
     * where there is one: for a look at a location whose size is not known, such as one being registered.
     */
    ListingPage listFirstPages(S3Location prefix, int maxPages, S3RequestStats stats)
    {
        checkArgument(maxPages > 0, "maxPages must be positive");
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        Optional<String> token = Optional.empty();
        for (int page = 0; page < maxPages && (page == 0 || token.isPresent()); page++) {
            ListObjectsV2Response response = listPage(folder, false, null, token.orElse(null), stats);
            objects.addAll(objectsOf(folder, response));
            token = nextToken(folder, response);
        }
        return new ListingPage(objects.build(), token);
    }

    /**
     * The pages of a recursive listing that follow {@code continuationToken}, all of them, in whatever order the store
     * answers: continuation tokens, unlike {@code start-after}, need no key order.
     */
    List<ListedObject> listRemaining(S3Location prefix, String continuationToken, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        Optional<String> token = Optional.of(continuationToken);
        while (token.isPresent()) {
            ListObjectsV2Response response = listPage(folder, false, null, token.get(), stats);
            objects.addAll(objectsOf(folder, response));
            token = nextToken(folder, response);
        }
        return objects.build();
    }

    /**
     * Every object below {@code prefix} with the time it was last written, all pages: for housekeeping of a few
     * objects (an index folder), not for tables.
     */
    List<ListedObject> listWithAges(S3Location prefix, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        String token = null;
        do {
            ListObjectsV2Response response = listPage(folder, false, null, token, stats);
            objects.addAll(objectsOf(folder, response));
            token = nextToken(folder, response).orElse(null);
        }
        while (token != null);
        return objects.build();
    }

    /**
     * The objects below {@code prefix}, recursively, whose keys come after {@code startAfter} and not after
     * {@code lastKey}, in S3's key order (UTF-8 bytes). Disjoint key ranges can be listed side by side. The listing
     * stops at the first key past {@code lastKey}, which is right only if keys arrive strictly increasing: a key that
     * does not is an {@link UnorderedListingException}, never a silently short or repeated range.
     */
    List<ListedObject> listObjectsBetween(S3Location prefix, Optional<String> startAfter, Optional<String> lastKey, S3RequestStats stats)
    {
        S3Location folder = prefix.asPrefix();
        ImmutableList.Builder<ListedObject> objects = ImmutableList.builder();
        Optional<String> previous = startAfter;
        String continuationToken = null;
        do {
            ListObjectsV2Response response = listPage(folder, false, continuationToken == null ? startAfter.orElse(null) : null, continuationToken, stats);
            List<ListedObject> page = objectsOf(folder, response);
            int outOfOrder = firstOutOfOrder(page, previous);
            if (outOfOrder >= 0) {
                throw new UnorderedListingException(folder, outOfOrder == 0 ? previous.orElseThrow() : page.get(outOfOrder - 1).key(), page.get(outOfOrder).key());
            }
            for (ListedObject object : page) {
                if (lastKey.isPresent() && compareKeys(object.key(), lastKey.get()) > 0) {
                    return objects.build();
                }
                objects.add(object);
            }
            if (!page.isEmpty()) {
                previous = Optional.of(page.getLast().key());
            }
            continuationToken = nextToken(folder, response).orElse(null);
        }
        while (continuationToken != null);
        return objects.build();
    }

    /**
     * Index of the first object whose key does not come strictly after the one before it (or after {@code after}),
     * or -1 when all do.
     */
    static int firstOutOfOrder(List<ListedObject> objects, Optional<String> after)
    {
        String previous = after.orElse(null);
        for (int i = 0; i < objects.size(); i++) {
            String key = objects.get(i).key();
            if (previous != null && compareKeys(previous, key) >= 0) {
                return i;
            }
            previous = key;
        }
        return -1;
    }

    /**
     * Orders keys as S3 lists them: by their UTF-8 bytes, unsigned.
     */
    static int compareKeys(String left, String right)
    {
        return Arrays.compareUnsigned(left.getBytes(UTF_8), right.getBytes(UTF_8));
    }

    private static Optional<String> nextToken(S3Location folder, ListObjectsV2Response response)
    {
        if (!Boolean.TRUE.equals(response.isTruncated())) {
            return Optional.empty();
        }
        if (response.nextContinuationToken() == null) {
            // ending here would silently leave out the rest of the listing
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Listing %s in bucket %s: a page says more keys follow but gives no continuation token".formatted(folder, folder.bucket()));
        }
        return Optional.of(response.nextContinuationToken());
    }

    private static List<ListedObject> objectsOf(S3Location folder, ListObjectsV2Response response)
    {
        return response.contents().stream()
                .map(object -> new ListedObject(
                        new S3ObjectInfo(new S3Location(folder.bucket(), object.key()), object.size(), S3Errors.stripQuotes(object.eTag())),
                        object.lastModified() == null ? Instant.EPOCH : object.lastModified()))
                .collect(ImmutableList.toImmutableList());
    }

    private ListObjectsV2Response listPage(S3Location folder, boolean delimited, String startAfter, String continuationToken, S3RequestStats stats)
    {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder()
                .bucket(folder.bucket())
                .prefix(folder.key())
                .maxKeys(listPageSize)
                .startAfter(startAfter)
                .continuationToken(continuationToken)
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        if (delimited) {
            request.delimiter("/");
        }
        try {
            stats.recordList();
            nodeStats.recordList();
            return sender.send(request.build());
        }
        catch (SdkException e) {
            nodeStats.recordFailure();
            throw S3Errors.translate("list", folder, e);
        }
    }
}
