package io.parquetbloom.metadata;

import com.google.common.cache.Cache;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.inject.Inject;
import org.weakref.jmx.Managed;
import io.parquetbloom.connector.ParquetBloomConfig;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.spi.predicate.Domain;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

import static com.google.common.base.Throwables.throwIfUnchecked;

import static java.util.Objects.requireNonNull;

/**
 * Footers and bloom filters across queries, on each node, bounded by bytes and keyed by location + size + ETag.
 * Also learns, per table, how many bytes footer plus filters usually take at the end of a file, so that one tail
 * GET fetches both when writers put the filters just before the footer (parquet-java and Trino do).
 */
public class ParquetMetadataCache
{
    // never learn a tail larger than this: beyond it a second, targeted GET is cheaper than a huge first one
    private static final int MAX_LEARNED_TAIL = 16 << 20;
    // the first file of a table (before anything is learned) is read with a generous tail, so that one GET brings
    // its filters too and teaches the table's tail size; typically the schema read, one file
    private static final int FIRST_TAIL = 1 << 20;

    // a filter is kept folded down to about this many bits per value of its chunk: an SBBF FPP of 0.042%
    private static final int MIN_CACHED_BITS_PER_VALUE = 20;
    // a domain bigger than this is not worth remembering per row group
    private static final long MAX_NO_MATCH_DOMAIN_SIZE = 1 << 20;

    private record FilterKey(FileKey file, BloomFilterKey filter) {}

    /**
     * A fact about one version of an object: row group {@code rowGroup} holds no value of {@code domain} in
     * {@code column}. The object cannot change under the same key, so the fact never goes stale.
     */
    private record NoMatchKey(FileKey file, int rowGroup, String column, Domain domain) {}

    private final S3ObjectStore store;
    private final int minimumTailSize;
    private final Cache<Object, Object> cache;
    private final Map<String, Integer> tailSizes = new ConcurrentHashMap<>();
    private final long maxWeight;

    @Inject
    public ParquetMetadataCache(S3ObjectStore store, ParquetBloomConfig config)
    {
        this.store = requireNonNull(store, "store is null");
        this.minimumTailSize = (int) config.getFooterReadSize().toBytes();
        this.maxWeight = config.getMetadataCacheMaxSize().toBytes();
        this.cache = EvictableCacheBuilder.newBuilder()
                .maximumWeight(config.getMetadataCacheMaxSize().toBytes())
                .weigher((Object key, Object value) -> key instanceof NoMatchKey noMatch ? weight(noMatch) : weight(value))
                .shareNothingWhenDisabled()
                .recordStats()
                .build();
    }

    /**
     * The footer of a file, from the cache or with one tail GET (two for large footers).
     *
     * @param table identifies the table whose files share a layout, for the learned tail size
     */
    public ParquetFileMetadata footer(S3ObjectInfo object, String table, S3RequestStats requestStats, MetadataCacheStats cacheStats)
    {
        FileKey key = FileKey.of(object);
        if (!key.cacheable()) {
            // no version to key it by: read it for this query only
            cacheStats.footer(false);
            return FooterReader.readFooter(store, object, tailSize(table), requestStats);
        }
        if (cache.getIfPresent(key) instanceof ParquetFileMetadata cached) {
            cacheStats.footer(true);
            return cached;
        }
        cacheStats.footer(false);
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filtersInTail = new HashMap<>();
        ParquetFileMetadata footer;
        try {
            footer = (ParquetFileMetadata) cache.get(key, () -> {
                ParquetFileMetadata file = FooterReader.readFooter(store, object, tailSize(table), requestStats);
                learnTailSize(table, file);
                filtersInTail.putAll(parseFiltersInTail(file));
                return retainOnlyFooter(file);
            });
        }
        catch (ExecutionException | UncheckedExecutionException e) {
            throwIfUnchecked(e.getCause());
            throw new RuntimeException(e.getCause());
        }
        // the tail's filters become entries of their own (compacted), so the footer entry keeps no filter bytes
        filtersInTail.forEach((filter, result) -> cacheFilter(key, filter, result));
        return footer;
    }

    private int tailSize(String table)
    {
        return Math.max(minimumTailSize, tailSizes.getOrDefault(table, FIRST_TAIL));
    }

    /**
     * Every bloom filter the tail read brought along, parsed now: keeping them raw in the tail would hold their bytes
     * twice once probed, and filters nobody probes at their full, often oversized, length.
     */
    private Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> parseFiltersInTail(ParquetFileMetadata file)
    {
        Set<BloomFilterKey> keys = new LinkedHashSet<>();
        FileMetaData footer = file.metadata().getParquetMetadata();
        if (footer.getRow_groups() != null) {
            for (int rowGroup = 0; rowGroup < footer.getRow_groups().size(); rowGroup++) {
                Set<BloomFilterKey> seen = new HashSet<>();
                for (ColumnChunk chunk : footer.getRow_groups().get(rowGroup).getColumns()) {
                    if (!chunk.isSetMeta_data()) {
                        continue;
                    }
                    // keys are case-insensitive, so only the first of two chunks whose paths differ in case counts
                    // (the one trino-parquet reads); its filter is taken if it lies in the tail
                    BloomFilterKey key = new BloomFilterKey(rowGroup, chunk.getMeta_data().getPath_in_schema());
                    if (seen.add(key) && chunk.getMeta_data().isSetBloom_filter_offset() && chunk.getMeta_data().getBloom_filter_offset() >= file.tailStart()) {
                        keys.add(key);
                    }
                }
            }
        }
        if (keys.isEmpty()) {
            return Map.of();
        }
        // all in the tail: no GET
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> parsed = BloomFilterLoader.load(store, file, keys, new S3RequestStats(), new long[1]);
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> compacted = new HashMap<>();
        parsed.forEach((filter, result) -> compacted.put(filter, compact(file, filter, result)));
        return compacted;
    }

    /**
     * Folds a filter that has far more bits than its chunk has values (Trino's writer never makes them smaller than
     * 64 KiB, parquet-java 1 MiB without an NDV) down to {@value #MIN_CACHED_BITS_PER_VALUE} bits per value or more.
     * Folding only ever adds "maybe" answers, never an "absent" one: see {@link SplitBlockBloomFilter#fold()}.
     */
    private static SplitBlockBloomFilterReader.Result compact(ParquetFileMetadata file, BloomFilterKey key, SplitBlockBloomFilterReader.Result result)
    {
        if (!(result instanceof SplitBlockBloomFilterReader.Result.Usable usable)) {
            return result;
        }
        long values = valueCount(file, key);
        if (values <= 0) {
            return result;
        }
        SplitBlockBloomFilter filter = usable.filter();
        while (filter.canFold() && filter.sizeInBytes() * 8L / 2 >= MIN_CACHED_BITS_PER_VALUE * values) {
            filter = filter.fold();
        }
        return filter == usable.filter() ? result : new SplitBlockBloomFilterReader.Result.Usable(filter, usable.totalLength());
    }

    private static long valueCount(ParquetFileMetadata file, BloomFilterKey key)
    {
        FileMetaData footer = file.metadata().getParquetMetadata();
        if (footer.getRow_groups() == null || key.rowGroup() >= footer.getRow_groups().size()) {
            return -1;
        }
        for (ColumnChunk chunk : footer.getRow_groups().get(key.rowGroup()).getColumns()) {
            if (chunk.isSetMeta_data() && new BloomFilterKey(key.rowGroup(), chunk.getMeta_data().getPath_in_schema()).equals(key)) {
                return chunk.getMeta_data().getNum_values();
            }
        }
        return -1;
    }

    private void cacheFilter(FileKey file, BloomFilterKey filter, SplitBlockBloomFilterReader.Result result)
    {
        remember(new FilterKey(file, filter), result);
    }

    /**
     * Adds an entry unless one is there. EvictableCache has no put (it would race with invalidation); failing to
     * remember loses nothing, the caller still has the value.
     */
    private void remember(Object key, Object value)
    {
        try {
            cache.get(key, () -> value);
        }
        catch (ExecutionException | UncheckedExecutionException e) {
            // not remembered
        }
    }

    /**
     * Bloom filters of the given column chunks: cached ones without I/O, the others in as few GETs as possible.
     *
     * @param bytesRead receives the filter bytes fetched
     */
    public Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters(ParquetFileMetadata file, Collection<BloomFilterKey> keys, S3RequestStats requestStats, MetadataCacheStats cacheStats, long[] bytesRead)
    {
        FileKey fileKey = FileKey.of(file.object());
        if (!fileKey.cacheable()) {
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> loaded = new HashMap<>(BloomFilterLoader.load(store, file, keys, requestStats, bytesRead));
            cacheStats.filters(0, keys.size());
            return loaded;
        }
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = new HashMap<>();
        List<BloomFilterKey> missing = new ArrayList<>();
        for (BloomFilterKey key : keys) {
            if (cache.getIfPresent(new FilterKey(fileKey, key)) instanceof SplitBlockBloomFilterReader.Result cached) {
                results.put(key, cached);
            }
            else {
                missing.add(key);
            }
        }
        if (!missing.isEmpty()) {
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> loaded = BloomFilterLoader.load(store, file, missing, requestStats, bytesRead);
            for (BloomFilterKey key : missing) {
                SplitBlockBloomFilterReader.Result result = loaded.get(key);
                // the chunk has no filter: remember that too
                result = result == null ? NO_FILTER : compact(file, key, result);
                cacheFilter(fileKey, key, result);
                if (result != NO_FILTER) {
                    results.put(key, result);
                }
            }
        }
        results.values().removeIf(result -> result == NO_FILTER);
        cacheStats.filters(keys.size() - missing.size(), missing.size());
        return results;
    }

    private static final SplitBlockBloomFilterReader.Result NO_FILTER = new SplitBlockBloomFilterReader.Result.Unusable("no filter");

    /**
     * Whether an earlier read of the row group found no row whose {@code column} is in {@code domain} (typically a
     * bloom filter false positive): the row group can be skipped without I/O.
     */
    public boolean knownNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        return file.cacheable() && cache.getIfPresent(new NoMatchKey(file, rowGroup, column, domain)) != null;
    }

    /**
     * Whether no-match facts about {@code domain} are kept at all: only lookups ({@code =}, {@code IN}, discrete
     * dynamic filters, optionally with {@code IS NULL}) repeat often enough to pay; a range such as a moving time
     * window would write a useless fact for every row group of every query and evict footers and filters. A huge
     * domain is not worth remembering per row group, nor checking every value against while reading.
     */
    public boolean remembersNoMatch(Domain domain)
    {
        return domain.isNullableDiscreteSet() && domain.getRetainedSizeInBytes() <= MAX_NO_MATCH_DOMAIN_SIZE;
    }

    /**
     * Records that every row of the row group was read and none has {@code column} in {@code domain}; kept only for
     * a versioned object and a domain this cache {@link #remembersNoMatch remembers}.
     */
    public void recordNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        if (!file.cacheable() || !remembersNoMatch(domain)) {
            return;
        }
        remember(new NoMatchKey(file, rowGroup, column, domain), Boolean.TRUE);
    }

    private void learnTailSize(String table, ParquetFileMetadata file)
    {
        FileMetaData footer = file.metadata().getParquetMetadata();
        long firstFilter = Long.MAX_VALUE;
        if (footer.getRow_groups() != null) {
            for (RowGroup rowGroup : footer.getRow_groups()) {
                for (ColumnChunk chunk : rowGroup.getColumns()) {
                    if (chunk.isSetMeta_data() && chunk.getMeta_data().isSetBloom_filter_offset() && chunk.getMeta_data().getBloom_filter_offset() >= 4) {
                        firstFilter = Math.min(firstFilter, chunk.getMeta_data().getBloom_filter_offset());
                    }
                }
            }
        }
        long needed = firstFilter == Long.MAX_VALUE ? file.object().size() - file.footerStart() : file.object().size() - firstFilter;
        if (needed > 0 && needed <= MAX_LEARNED_TAIL) {
            tailSizes.merge(table, (int) needed, Math::max);
        }
    }

    /**
     * Keeps of the tail read only the footer: its filters are cached on their own, and the data pages a short file's
     * tail also holds would fill the cache with bytes nobody asks for again.
     */
    private static ParquetFileMetadata retainOnlyFooter(ParquetFileMetadata file)
    {
        long keepFrom = file.footerStart();
        if (keepFrom <= file.tailStart()) {
            return file;
        }
        int skip = (int) (keepFrom - file.tailStart());
        byte[] kept = java.util.Arrays.copyOfRange(file.tail(), skip, file.tail().length);
        return new ParquetFileMetadata(file.object(), file.metadata(), keepFrom, kept, file.blocksSupplier());
    }

    /**
     * Bytes the cached footers, filters and no-match facts are weighed at; never above {@link #getMaxWeight()}.
     */
    @Managed
    public long getWeight()
    {
        // the cache's map view offers keys and lookups (no entry set); an entry evicted meanwhile weighs nothing
        Map<Object, Object> entries = cache.asMap();
        long weight = 0;
        for (Object key : entries.keySet()) {
            if (key instanceof NoMatchKey noMatch) {
                weight += weight(noMatch);
            }
            else {
                Object value = entries.get(key);
                weight += value == null ? 0 : weight(value);
            }
        }
        return weight;
    }

    @Managed
    public long getMaxWeight()
    {
        return maxWeight;
    }

    @Managed
    public long getEntries()
    {
        return cache.size();
    }

    @Managed
    public long getEvictions()
    {
        return cache.stats().evictionCount();
    }

    @Managed
    public long getHits()
    {
        return cache.stats().hitCount();
    }

    @Managed
    public long getMisses()
    {
        return cache.stats().missCount();
    }

    private static int weight(NoMatchKey key)
    {
        // the domain may be shared by several entries; counting it for each errs on the safe side
        return (int) (128 + 2L * key.file().location().length() + key.domain().getRetainedSizeInBytes());
    }

    private static int weight(Object value)
    {
        return switch (value) {
            // the parsed Thrift objects take a few times the serialized footer
            case ParquetFileMetadata file -> (int) Math.min(Integer.MAX_VALUE, file.tail().length + 3L * file.footerLength() + 4096);
            case SplitBlockBloomFilterReader.Result.Usable usable -> (int) Math.min(Integer.MAX_VALUE, usable.filter().getRetainedSizeInBytes() + 64);
            default -> 256;
        };
    }
}
