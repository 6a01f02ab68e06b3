package io.parquetbloom.pruning;

import com.google.common.cache.Cache;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.Type;

import static io.trino.cache.CacheUtils.uncheckedCacheGet;
import static java.util.Objects.requireNonNull;

/**
 * The node's matchers of recent domains, so that the splits of a query build each once: a matcher of a 2,000-value
 * IN list (its hash tables) cost as much as reading a small row group, and an IN list over many small files paid it
 * for every split and every column twice (the probe's and the no-match recorder's). A split asks with the domain
 * instance of its table handle, whose hash the engine computes once, so a lookup costs an identity comparison.
 */
public final class DomainValueMatchers
{
    // the matchers' domains held at most: a matcher's tables take about twice its domain, so some 100 MB in all
    private static final long MAX_DOMAIN_BYTES = 32L << 20;

    private record Key(Type type, Domain domain) {}

    private final Cache<Key, DomainValueMatcher> matchers = EvictableCacheBuilder.newBuilder()
            .maximumWeight(MAX_DOMAIN_BYTES)
            .weigher((Key key, DomainValueMatcher _) -> (int) Math.min(Integer.MAX_VALUE, key.domain().getRetainedSizeInBytes()))
            .build();

    public DomainValueMatcher matcher(Type type, Domain domain)
    {
        requireNonNull(type, "type is null");
        requireNonNull(domain, "domain is null");
        return uncheckedCacheGet(matchers, new Key(type, domain), () -> new DomainValueMatcher(type, domain));
    }
}
