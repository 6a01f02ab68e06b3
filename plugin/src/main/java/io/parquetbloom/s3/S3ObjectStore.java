package io.parquetbloom.s3;

import com.google.inject.Inject;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * All S3 I/O of the connector, in three parts: listing ({@link S3Listing}), reading ({@link S3Reads}) and writing
 * ({@link S3Writes}). Every request is counted in the caller's {@link S3RequestStats}; every failure becomes a
 * {@link TrinoException} that names the object and never the credentials ({@link S3Errors}).
 */
public class S3ObjectStore
{
    private final S3Client client;
    private final S3Listing listing;
    private final S3Reads reads;
    private final S3Writes writes;
    private final ConditionalWrites conditionalWrites;

    @Inject
    public S3ObjectStore(S3Client client, S3Config config, S3Stats nodeStats)
    {
        this(client, config.getSseCustomerKey().map(SseCustomerKey::of), config.getListPageSize(), nodeStats,
                config.isHedgedReadsEnabled() ? Optional.of(new ReadHedger(config.getHedgedReadsMaxFraction(), nodeStats)) : Optional.empty());
    }

    public S3ObjectStore(S3Client client)
    {
        this(client, Optional.empty(), new S3Config().getListPageSize(), new S3Stats(), Optional.empty());
    }

    private S3ObjectStore(S3Client client, Optional<SseCustomerKey> customerKey, int listPageSize, S3Stats nodeStats, Optional<ReadHedger> hedger)
    {
        this.client = requireNonNull(client, "client is null");
        this.listing = new S3Listing(this::sendList, listPageSize, nodeStats);
        this.reads = new S3Reads(client, customerKey, nodeStats, hedger);
        this.writes = new S3Writes(client, customerKey, nodeStats);
        this.conditionalWrites = new ConditionalWrites(new ConditionalWrites.Writer()
        {
            @Override
            public Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats)
            {
                return writes.write(location, bytes, condition, stats);
            }

            @Override
            public void delete(S3Location location, S3RequestStats stats)
            {
                writes.delete(location, stats);
            }

            @Override
            public boolean deleteIfMatches(S3Location location, String etag, S3RequestStats stats)
            {
                return writes.deleteIfMatches(location, etag, stats);
            }
        });
    }

    /**
     * Keys asked for in one listing page ({@code s3.list-page-size}).
     */
    public int listPageSize()
    {
        return listing.listPageSize();
    }

    /**
     * Names of the "folders" directly below {@code prefix}, without the trailing slash.
     */
    public List<String> listChildPrefixes(S3Location prefix, S3RequestStats stats)
    {
        return listing.listChildPrefixes(prefix, stats);
    }

    /**
     * One delimited listing of {@code prefix}: the folders directly below it (names without the trailing slash) and
     * the objects directly in it.
     */
    public FolderListing listFolder(S3Location prefix, S3RequestStats stats)
    {
        return listing.listFolder(prefix, stats);
    }

    public ListingPage listFirstPage(S3Location prefix, S3RequestStats stats)
    {
        return listing.listFirstPage(prefix, stats);
    }

    /**
     * At most the first {@code maxPages} pages of a recursive listing of {@code prefix}; truncated where more follow.
     */
    public ListingPage listFirstPages(S3Location prefix, int maxPages, S3RequestStats stats)
    {
        return listing.listFirstPages(prefix, maxPages, stats);
    }

    /**
     * The pages of a recursive listing that follow {@code continuationToken}, all of them, in whatever order the store
     * answers.
     */
    public List<ListedObject> listRemaining(S3Location prefix, String continuationToken, S3RequestStats stats)
    {
        return listing.listRemaining(prefix, continuationToken, stats);
    }

    /**
     * Every object below {@code prefix} with the time it was last written, all pages: for a few objects (an index
     * folder), not for tables.
     */
    public List<ListedObject> listWithAges(S3Location prefix, S3RequestStats stats)
    {
        return listing.listWithAges(prefix, stats);
    }

    /**
     * The objects below {@code prefix} whose keys come after {@code startAfter} and not after {@code lastKey}, in
     * S3's key order; an {@link UnorderedListingException} where the store breaks that order.
     */
    public List<ListedObject> listObjectsBetween(S3Location prefix, Optional<String> startAfter, Optional<String> lastKey, S3RequestStats stats)
    {
        return listing.listObjectsBetween(prefix, startAfter, lastKey, stats);
    }

    /**
     * Index of the first object whose key does not come strictly after the one before it (or after {@code after}),
     * or -1 when all do.
     */
    public static int firstOutOfOrder(List<ListedObject> objects, Optional<String> after)
    {
        return S3Listing.firstOutOfOrder(objects, after);
    }

    /**
     * Orders keys as S3 lists them: by their UTF-8 bytes, unsigned.
     */
    public static int compareKeys(String left, String right)
    {
        return S3Listing.compareKeys(left, right);
    }

    /**
     * One LIST request as the client sends it; tests answer it from memory.
     */
    protected ListObjectsV2Response sendList(ListObjectsV2Request request)
    {
        return client.listObjectsV2(request);
    }

    /**
     * Reads {@code length} bytes at {@code position} of the listed version of an object with one ranged GET, pinned
     * to the listed ETag: bytes of a rewritten object are never mixed with metadata planned from the old one.
     */
    public byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        return reads.read(object, position, length, stats);
    }

    /**
     * A whole small object and its ETag, read unconditionally (the object a conditional PUT may replace).
     *
     * @return empty when there is no such object
     */
    public Optional<StoredObject> readWhole(S3Location location, S3RequestStats stats)
    {
        return reads.readWhole(location, stats);
    }

    /**
     * A whole object of at most {@code maxBytes} and its ETag, read unconditionally; a larger one is an error giving
     * {@code tooLarge} as the reason.
     *
     * @return empty when there is no such object
     */
    public Optional<StoredObject> readWhole(S3Location location, int maxBytes, String tooLarge, S3RequestStats stats)
    {
        return reads.readWhole(location, maxBytes, tooLarge, stats);
    }

    /**
     * Writes a local file: with one PUT, or, when larger than {@code partSize}, as a multipart upload.
     *
     * @return the new object's ETag, or empty when the condition did not hold
     */
    public Optional<String> write(S3Location location, Path file, PutCondition condition, long partSize, S3RequestStats stats)
    {
        requireConditionsHonoured(location, condition, stats);
        return writes.write(location, file, condition, partSize, stats);
    }

    /**
     * @return the new object's ETag, or empty when the condition did not hold
     */
    public Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats)
    {
        requireConditionsHonoured(location, condition, stats);
        return writes.write(location, bytes, condition, stats);
    }

    /**
     * A conditional write goes only to a store found to honour conditions ({@link ConditionalWrites}, once per bucket).
     */
    private void requireConditionsHonoured(S3Location location, PutCondition condition, S3RequestStats stats)
    {
        if (!(condition instanceof PutCondition.None)) {
            conditionalWrites.requireHonoured(location, stats);
        }
    }

    /**
     * Deletes the object only if its ETag is still {@code etag}.
     *
     * @return false when it was replaced since (S3 answered 412)
     */
    public boolean deleteIfMatches(S3Location location, String etag, S3RequestStats stats)
    {
        return writes.deleteIfMatches(location, etag, stats);
    }

    public void delete(S3Location location, S3RequestStats stats)
    {
        writes.delete(location, stats);
    }

    public static TrinoException translate(String action, S3Location location, SdkException e)
    {
        return S3Errors.translate(action, location, e);
    }

    /**
     * The first page of a recursive listing of {@code prefix}, and the token of the next page when more objects follow.
     */
    public record ListingPage(List<ListedObject> objects, Optional<String> continuationToken)
    {
        public ListingPage
        {
            objects = List.copyOf(objects);
            requireNonNull(continuationToken, "continuationToken is null");
        }

        public boolean truncated()
        {
            return continuationToken.isPresent();
        }

        /**
         * Whether the page's keys strictly increase in S3's order, which listing key ranges relies on.
         */
        public boolean inKeyOrder()
        {
            return S3Listing.firstOutOfOrder(objects, Optional.empty()) < 0;
        }
    }

    /**
     * An object as a listing gives it: its version and when it was written ({@link Instant#EPOCH} when the store
     * does not say).
     */
    /**
     * What a delimited listing of a folder found directly below it.
     */
    public record FolderListing(List<String> folders, List<ListedObject> objects)
    {
        public FolderListing
        {
            folders = List.copyOf(requireNonNull(folders, "folders is null"));
            objects = List.copyOf(requireNonNull(objects, "objects is null"));
        }
    }

    public record ListedObject(S3ObjectInfo object, Instant lastModified)
    {
        public ListedObject
        {
            requireNonNull(object, "object is null");
            requireNonNull(lastModified, "lastModified is null");
        }

        public String key()
        {
            return object.location().key();
        }
    }

    public record StoredObject(byte[] bytes, String etag) {}

    /**
     * What a PUT is conditional on: nothing, no object under the key ({@code If-None-Match: *}), or the object with
     * this ETag ({@code If-Match}).
     */
    public sealed interface PutCondition
    {
        record None()
                implements PutCondition {}

        record Absent()
                implements PutCondition {}

        record Matches(String etag)
                implements PutCondition {}
    }
}
