package io.parquetbloom.pruning;

import com.google.inject.Inject;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.trino.spi.predicate.Domain;

/**
 * Facts of the form "row group {@code rowGroup} of this object version holds no value of {@code domain} in
 * {@code column}", learned by reading it ({@link NoMatchRecorder}). The object cannot change under the same key, so
 * a fact never goes stale; kept in the node's metadata budget beside footers and filters.
 */
public class NoMatchCache
{
    // a domain bigger than this is not worth remembering per row group
    private static final long MAX_DOMAIN_SIZE = 1 << 20;

    private record Key(FileKey file, int rowGroup, String column, Domain domain) {}

    private final ParquetMetadataCache.Region<Key, Boolean> facts;

    @Inject
    public NoMatchCache(ParquetMetadataCache budget)
    {
        // the domain may be shared by several entries; counting it for each errs on the safe side
        this.facts = budget.region("no_match", Boolean.class, Key::file, (key, _) -> 128 + 2L * key.file().location().length() + key.domain().getRetainedSizeInBytes());
    }

    /**
     * Whether facts about {@code domain} are kept at all: only lookups ({@code =}, {@code IN}, discrete dynamic
     * filters, optionally with {@code IS NULL}) repeat often enough to pay; a range such as a moving time window would
     * write a useless fact for every row group of every query and evict footers and filters. A huge domain is not
     * worth remembering per row group, nor checking every value against while reading.
     */
    public boolean remembers(Domain domain)
    {
        return domain.isNullableDiscreteSet() && domain.getRetainedSizeInBytes() <= MAX_DOMAIN_SIZE;
    }

    public boolean knownNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        return file.cacheable() && facts.getIfPresent(new Key(file, rowGroup, column, domain)).isPresent();
    }

    /**
     * Records that every row of the row group was read and none has {@code column} in {@code domain}; kept only for
     * a versioned object and a domain this cache {@link #remembers remembers}.
     */
    public void recordNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        if (file.cacheable() && remembers(domain)) {
            facts.putIfAbsent(new Key(file, rowGroup, column, domain), Boolean.TRUE);
        }
    }
}
