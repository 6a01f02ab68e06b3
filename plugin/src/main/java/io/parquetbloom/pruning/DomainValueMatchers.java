package io.parquetbloom.pruning;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.Type;

import static io.trino.cache.CacheUtils.uncheckedCacheGet;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.MINUTES;

/**
 * The node's matchers of recent large domains, so that the splits of a query build each once: a matcher of a
 * 2,000-value IN list (its hash tables) cost as much as reading a small row group, and an IN list over many small
 * files paid it for every split and every column twice (the probe's and the no-match recorder's). A split asks with
 * the domain instance of its table handle, whose hash the engine computes once, so a lookup costs an identity
 * comparison. A domain of a few values is built for each split: cheaper than a lookup, and a dashboard sending a new
 * key every query would otherwise fill the cache with matchers used once.
 */
public final class DomainValueMatchers
{
    // from so many values on a matcher is kept: below, building it costs less than hashing the domain
    static final int MIN_CACHED_VALUES = 64;
    // the matchers' domains held at most: a matcher's tables take about twice its domain
    private static final long MAX_DOMAIN_BYTES = 32L << 20;

    private record Key(Type type, Domain domain) {}

    private final Cache<Key, DomainValueMatcher> matchers = CacheBuilder.newBuilder()
            .maximumWeight(MAX_DOMAIN_BYTES)
            .weigher((Key key, DomainValueMatcher _) -> (int) Math.min(Integer.MAX_VALUE, key.domain().getRetainedSizeInBytes()))
            // a query's splits ask within seconds of each other; the matchers of queries long gone are dropped
            .expireAfterAccess(1, MINUTES)
            .build();

    public DomainValueMatcher matcher(Type type, Domain domain)
    {
        requireNonNull(type, "type is null");
        requireNonNull(domain, "domain is null");
        if (ValueSets.listedValues(domain.getValues()) < MIN_CACHED_VALUES) {
            return new DomainValueMatcher(type, domain);
        }
        return uncheckedCacheGet(matchers, new Key(type, domain), () -> new DomainValueMatcher(type, domain));
    }
}
