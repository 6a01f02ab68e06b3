package io.parquetbloom.testing;

import io.parquetbloom.s3.S3ObjectStore;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * A bucket of empty-bodied objects answering LIST requests as S3 does: keys in UTF-8 byte order, delimited or
 * recursive, {@code start-after}, continuation tokens and {@code max-keys} pages (each a counted LIST through
 * {@link S3ObjectStore}'s own listing code). {@link #unordered} answers as an S3 Express One Zone directory bucket:
 * keys in no particular order and {@code start-after} refused. For tests of the lake layout and the listing.
 */
public final class InMemoryLake
        extends S3ObjectStore
{
    private final String bucket;
    private final TreeMap<String, Long> objects = new TreeMap<>(S3ObjectStore::compareKeys);
    private int pageSize = 1000;
    private boolean unordered;
    private boolean refusesStartAfter;

    public InMemoryLake(String bucket)
    {
        // never called: every listing is answered from memory
        super(S3Client.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build());
        this.bucket = bucket;
    }

    public InMemoryLake put(String key)
    {
        return put(key, 1000L);
    }

    public InMemoryLake put(String key, long size)
    {
        objects.put(key, size);
        return this;
    }

    /**
     * Entries per listing page (S3: 1,000).
     */
    public InMemoryLake withPageSize(int pageSize)
    {
        this.pageSize = pageSize;
        return this;
    }

    /**
     * Lists keys in a shuffled order and refuses {@code start-after}, as S3 Express One Zone directory buckets do.
     */
    public InMemoryLake unordered()
    {
        this.unordered = true;
        this.refusesStartAfter = true;
        return this;
    }

    /**
     * Lists keys in order but answers {@code start-after} with 400.
     */
    public InMemoryLake refusingStartAfter()
    {
        this.refusesStartAfter = true;
        return this;
    }

    @Override
    protected ListObjectsV2Response sendList(ListObjectsV2Request request)
    {
        if (!request.bucket().equals(bucket)) {
            throw (S3Exception) S3Exception.builder().statusCode(404).message("NoSuchBucket").build();
        }
        if (refusesStartAfter && request.startAfter() != null) {
            throw (S3Exception) S3Exception.builder().statusCode(400).message("start-after is not supported by directory buckets").build();
        }
        int maxKeys = Math.min(pageSize, request.maxKeys() == null ? 1000 : request.maxKeys());
        List<String> entries = entries(request.prefix() == null ? "" : request.prefix(), request.delimiter());
        int from = request.continuationToken() != null ? Integer.parseInt(request.continuationToken()) : firstAfter(entries, request.startAfter());
        int to = Math.min(entries.size(), from + maxKeys);
        ListObjectsV2Response.Builder response = ListObjectsV2Response.builder()
                .isTruncated(to < entries.size())
                .nextContinuationToken(to < entries.size() ? String.valueOf(to) : null);
        List<S3Object> contents = new ArrayList<>();
        List<CommonPrefix> prefixes = new ArrayList<>();
        for (String entry : entries.subList(from, to)) {
            if (objects.containsKey(entry)) {
                contents.add(S3Object.builder().key(entry).size(objects.get(entry)).eTag("\"etag-" + entry.hashCode() + "\"").build());
            }
            else {
                prefixes.add(CommonPrefix.builder().prefix(entry).build());
            }
        }
        return response.contents(contents).commonPrefixes(prefixes).build();
    }

    /**
     * The listing's entries in the order this store answers: objects, and with a delimiter the common prefixes that
     * group keys, each one entry as S3 counts them against {@code max-keys}.
     */
    private List<String> entries(String prefix, String delimiter)
    {
        List<String> entries = new ArrayList<>();
        for (String key : objects.tailMap(prefix, true).keySet()) {
            if (!key.startsWith(prefix)) {
                break;
            }
            int cut = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
            String entry = cut < 0 ? key : key.substring(0, cut + delimiter.length());
            if (entries.isEmpty() || !entries.getLast().equals(entry)) {
                entries.add(entry);
            }
        }
        if (unordered) {
            Collections.shuffle(entries, new Random(entries.size()));
        }
        return entries;
    }

    private static int firstAfter(List<String> entries, String startAfter)
    {
        int index = 0;
        while (startAfter != null && index < entries.size() && compareKeys(entries.get(index), startAfter) <= 0) {
            index++;
        }
        return index;
    }
}
