package io.parquetbloom.metadata;

import com.google.common.cache.Cache;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.inject.Inject;
import io.trino.cache.EvictableCacheBuilder;
import org.weakref.jmx.Managed;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongBiFunction;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static java.util.Objects.requireNonNull;

/**
 * The node's one memory budget for metadata kept across queries: footers, bloom filters and no-match facts share it,
 * so a table with huge filters and few footers uses it differently from one with many small files, without a split
 * decided in advance. Each kind is a typed {@link Region} of it ({@link FooterCache}, {@link BloomFilterCache},
 * {@code NoMatchCache}); the budget only holds and weighs, it never reads.
 */
public class ParquetMetadataCache
{
    private record Key(Region<?, ?> region, Object key) {}

    private final Cache<Key, Object> cache;
    private final long maxWeight;

    @Inject
    public ParquetMetadataCache(MetadataConfig config)
    {
        this.maxWeight = config.getMetadataCacheMaxSize().toBytes();
        this.cache = EvictableCacheBuilder.newBuilder()
                .maximumWeight(maxWeight)
                .weigher((Key key, Object value) -> (int) Math.min(Integer.MAX_VALUE, key.region().weigh(key.key(), value)))
                .shareNothingWhenDisabled()
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
        long entries = cache.size();
        cache.invalidateAll();
        return entries;
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
         * The cached value, or the loader's, which is then kept; concurrent callers for one key load once.
         */
        public V get(K key, Supplier<V> loader)
        {
            try {
                return valueType.cast(cache.get(new Key(this, key), loader::get));
            }
            catch (ExecutionException | UncheckedExecutionException e) {
                throwIfUnchecked(e.getCause());
                throw new RuntimeException(e.getCause());
            }
        }

        public void invalidate(K key)
        {
            cache.invalidate(new Key(this, key));
        }

        /**
         * Keeps a value unless one is there. EvictableCache has no put (it would race with invalidation); failing to
         * keep loses nothing, the caller still has the value.
         */
        public void putIfAbsent(K key, V value)
        {
            try {
                cache.get(new Key(this, key), () -> value);
            }
            catch (ExecutionException | UncheckedExecutionException e) {
                // not kept
            }
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
    public long getFooterEntries()
    {
        return entries(FooterCache.KIND);
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
