package io.parquetbloom.testing;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A bucket of empty-bodied objects answering listings as S3 does (keys in order, delimited or recursive), counting
 * each as one LIST; for tests of the lake layout.
 */
public final class InMemoryLake
        extends S3ObjectStore
{
    private final String bucket;
    private final Map<String, Long> objects = new TreeMap<>();
    private int pageSize = 1000;

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
        objects.put(key, 1000L);
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

    @Override
    public ListingPage listFirstPage(S3Location prefix, S3RequestStats stats)
    {
        stats.recordList();
        List<S3ObjectInfo> listed = below(prefix.asPrefix().key());
        return new ListingPage(listed.subList(0, Math.min(pageSize, listed.size())), listed.size() > pageSize);
    }

    @Override
    public List<S3ObjectInfo> listObjectsBetween(S3Location prefix, Optional<String> startAfter, Optional<String> lastKey, S3RequestStats stats)
    {
        List<S3ObjectInfo> after = below(prefix.asPrefix().key()).stream()
                .filter(object -> startAfter.isEmpty() || compareKeys(object.location().key(), startAfter.get()) > 0)
                .toList();
        List<S3ObjectInfo> listed = new ArrayList<>();
        // page by page, as S3 answers, until a key beyond the range shows up
        for (int page = 0; page == 0 || page * pageSize < after.size(); page++) {
            stats.recordList();
            for (S3ObjectInfo object : after.subList(page * pageSize, Math.min(after.size(), (page + 1) * pageSize))) {
                if (lastKey.isPresent() && compareKeys(object.location().key(), lastKey.get()) > 0) {
                    return listed;
                }
                listed.add(object);
            }
        }
        return listed;
    }

    private List<S3ObjectInfo> below(String folder)
    {
        List<S3ObjectInfo> listed = new ArrayList<>();
        objects.forEach((key, size) -> {
            if (key.startsWith(folder)) {
                listed.add(new S3ObjectInfo(new S3Location(bucket, key), size, "etag-" + key.hashCode()));
            }
        });
        return listed;
    }

    @Override
    public List<String> listChildPrefixes(S3Location prefix, S3RequestStats stats)
    {
        String folder = prefix.asPrefix().key();
        Set<String> children = new LinkedHashSet<>();
        int direct = 0;
        for (String key : objects.keySet()) {
            if (key.startsWith(folder) && key.indexOf('/', folder.length()) > 0) {
                children.add(key.substring(folder.length(), key.indexOf('/', folder.length())));
            }
            else if (key.startsWith(folder)) {
                direct++;
            }
        }
        // a listing with a delimiter pages over the folder's own objects and its subfolders alike
        int entries = direct + children.size();
        for (int page = 0; page == 0 || page * pageSize < entries; page++) {
            stats.recordList();
        }
        return List.copyOf(children);
    }
}
