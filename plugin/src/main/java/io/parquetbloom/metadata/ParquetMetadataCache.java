package io.parquetbloom.metadata;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.inject.Inject;
import org.weakref.jmx.Managed;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongBiFunction;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static com.google.common.util.concurrent.MoreExecutors.directExecutor;
import static java.util.Objects.requireNonNull;

/**
 * The node's one memory budget for metadata kept across queries: footers, bloom filters and no-match facts share it,
 * so a table with huge filters and few footers uses it differently from one with many small files, without a split
 * decided in advance. Each kind is a typed {@link Region} of it ({@link FooterCache}, {@link BloomFilterCache},
 * {@code NoMatchCache}); the budget only holds and weighs, it never reads.
 * <p>
 * Eviction is Caffeine's W-TinyLFU, not least-recently-used: planning walks a table's files in listing order, so
 * when a table's metadata is larger than the budget, LRU evicts every entry just before it is asked for again and a
 * warm lookup finds nothing (the cliff). Frequency-aware admission keeps a stable part of such a working set
 * instead, and a scan of another table, whose entries are each seen once, cannot push out what is used often.
 */
public class ParquetMetadataCache
{
    private record Key(Region<?, ?> region, Object key) {}

    private final Cache<Key, Object> cache;
    // loads under way, so that concurrent callers for one key load once; kept apart from the cache because a load
    // is an S3 read, too long to run inside the cache's own computation, which locks a bin of its map. Not Caffeine's
    // AsyncCache: its in-flight entry weighs nothing and is re-weighed on completion, past the frequency check, so
    // a scan of cold files flushes the hot ones (TestParquetMetadataCache.oneScanDoesNotFlushEntriesUsedOften keeps
    // 0 of 50 with it); nor trino-cache's EvictableCache, which is Guava's LRU by segment
    private final Map<Key, CompletableFuture<Object>> loading = new ConcurrentHashMap<>();
    private final long maxWeight;

    @Inject
    public ParquetMetadataCache(MetadataConfig config)
    {
        this.maxWeight = config.getMetadataCacheMaxSize().toBytes();
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxWeight)
                .weigher((Key key, Object value) -> (int) Math.min(Integer.MAX_VALUE, key.region().weigh(key.key(), value)))
                // eviction on the calling thread: the weight is within the budget when a put returns
                .executor(directExecutor())
                .recordStats()
                .build();
    }

    /**
     * A typed part of the budget.
     *
     * @param weigher bytes an entry costs, its key included
     */
    public <K, V> Region<K, V> region(String kind, Class<V> valueType, Function<K, FileKey> fileOf, ToLongBiFunction<K, V> weigher)
    {
        return new Region<>(kind, valueType, fileOf, weigher);
    }

    /**
     * Drops every entry (footers, filters, no-match facts) of the files {@code files} selects.
     *
     * @return the entries dropped
     */
    public long invalidate(Predicate<FileKey> files)
    {
        List<Key> matching = cache.asMap().keySet().stream()
                .filter(key -> files.test(key.region().fileOf(key.key())))
                .toList();
        cache.invalidateAll(matching);
        return matching.size();
    }

    public long invalidateAll()
    {
        long entries = cache.estimatedSize();
        cache.invalidateAll();
        return entries;
    }

    private Object load(Key key, Supplier<?> loader)
    {
        Object cached = cache.getIfPresent(key);
        if (cached != null) {
            return cached;
        }
        CompletableFuture<Object> mine = new CompletableFuture<>();
        CompletableFuture<Object> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return getDone(running);
        }
        try {
            // a load that finished between the first look and taking the slot
            Object value = cache.getIfPresent(key);
            if (value == null) {
                Object loaded = requireNonNull(loader.get(), "loader returned null");
                Object kept = cache.asMap().putIfAbsent(key, loaded);
                value = kept != null ? kept : loaded;
            }
            mine.complete(value);
            return value;
        }
        catch (Throwable e) {
            mine.completeExceptionally(e);
            throw e;
        }
        finally {
            loading.remove(key, mine);
        }
    }

    private static Object getDone(CompletableFuture<Object> running)
    {
        try {
            return running.join();
        }
        catch (CompletionException e) {
            throwIfUnchecked(e.getCause());
            throw new RuntimeException(e.getCause());
        }
    }

    public final class Region<K, V>
    {
        private final String kind;
        private final Class<V> valueType;
        private final ToLongBiFunction<K, V> weigher;
        private final Function<K, FileKey> fileOf;

        private Region(String kind, Class<V> valueType, Function<K, FileKey> fileOf, ToLongBiFunction<K, V> weigher)
        {
            this.fileOf = requireNonNull(fileOf, "fileOf is null");
            this.kind = requireNonNull(kind, "kind is null");
            this.valueType = requireNonNull(valueType, "valueType is null");
            this.weigher = requireNonNull(weigher, "weigher is null");
        }

        public Optional<V> getIfPresent(K key)
        {
            return Optional.ofNullable(valueType.cast(cache.getIfPresent(new Key(this, key))));
        }

        /**
         * The cached value, counting no hit or miss (the policy still sees the access).
         */
        public Optional<V> peek(K key)
        {
            return Optional.ofNullable(valueType.cast(cache.asMap().get(new Key(this, key))));
        }

        /**
         * The cached value, or the loader's, which is then kept; concurrent callers for one key load once.
         */
        public V get(K key, Supplier<V> loader)
        {
            return valueType.cast(load(new Key(this, key), loader));
        }

        /**
         * Keeps {@code value} combined with the value already kept, if any, in one atomic step.
         */
        public void merge(K key, V value, BinaryOperator<V> combine)
        {
            cache.asMap().merge(new Key(this, key), value, (kept, added) -> combine.apply(valueType.cast(kept), valueType.cast(added)));
        }

        public void invalidate(K key)
        {
            cache.invalidate(new Key(this, key));
        }

        /**
         * Keeps a value unless one is there; admission may still decline it when the budget is full of entries used
         * more often. Not keeping loses nothing: the caller still has the value.
         */
        public void putIfAbsent(K key, V value)
        {
            cache.asMap().putIfAbsent(new Key(this, key), value);
        }

        @Override
        public String toString()
        {
            return kind;
        }

        FileKey fileOf(Object key)
        {
            @SuppressWarnings("unchecked")
            K typedKey = (K) key;
            return fileOf.apply(typedKey);
        }

        long weigh(Object key, Object value)
        {
            @SuppressWarnings("unchecked")
            K typedKey = (K) key;
            return weigher.applyAsLong(typedKey, valueType.cast(value));
        }
    }

    /**
     * Bytes the cached footers, filters and no-match facts are weighed at; never above {@link #getMaxWeight()}.
     */
    @Managed
    public long getWeight()
    {
        // the cache's map view offers keys and lookups (no entry set); an entry evicted meanwhile weighs nothing
        Map<Key, Object> entries = cache.asMap();
        long weight = 0;
        for (Key key : entries.keySet()) {
            Object value = entries.get(key);
            weight += value == null ? 0 : key.region().weigh(key.key(), value);
        }
        return weight;
    }

    /**
     * Whether {@code bytes} more fit without evicting anything.
     */
    public boolean hasRoomFor(long bytes)
    {
        long weight = cache.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0)).orElse(0L);
        return maxWeight - weight >= bytes;
    }

    @Managed
    public long getMaxWeight()
    {
        return maxWeight;
    }

    @Managed
    public long getEntries()
    {
        return cache.estimatedSize();
    }

    /**
     * Footers kept in either form (a file whose splits were read may have both).
     */
    @Managed
    public long getFooterEntries()
    {
        return entries(FooterCache.KIND) + entries(FooterCache.COMPACT_KIND);
    }

    /**
     * Footers kept in the compact form planning reads.
     */
    @Managed
    public long getCompactFooterEntries()
    {
        return entries(FooterCache.COMPACT_KIND);
    }

    @Managed
    public long getBloomFilterEntries()
    {
        return entries(BloomFilterCache.KIND);
    }

    /**
     * Facts of the pruning layer's no-match cache, which shares this budget.
     */
    @Managed
    public long getNoMatchEntries()
    {
        return entries("no_match");
    }

    @Managed
    public long getDictionaryEntries()
    {
        return entries(DictionaryCache.KIND);
    }

    private long entries(String kind)
    {
        return cache.asMap().keySet().stream().filter(key -> key.region().kind.equals(kind)).count();
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
}
