package io.parquetbloom.pruning;

import com.google.inject.Inject;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.trino.spi.predicate.Domain;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Facts of the form "row group {@code rowGroup} of this object version holds no value of {@code domain} in
 * {@code column}", learned by reading it ({@link NoMatchRecorder}). The object cannot change under the same key, so
 * a fact never goes stale; kept in the node's metadata budget beside footers and filters.
 */
public class NoMatchCache
{
    // a domain bigger than this is not worth remembering per row group
    private static final long MAX_DOMAIN_SIZE = 1 << 20;

    // the domain entries belong to no file: a flush of a table or schema leaves them, flushing all drops them
    private static final FileKey NO_FILE = new FileKey("", 0, "");

    /**
     * @param domain the number {@link #domainIds} gave the domain: a fact weighs its key, not its domain, which a
     * 1,000-value IN list makes ~50 KB and every row group of a query would otherwise repeat
     */
    private record Key(FileKey file, int rowGroup, String column, long domain) {}

    private final ParquetMetadataCache.Region<Key, Boolean> facts;
    // each remembered domain once, weighed once, numbered; numbers are never reused, so facts of a domain that was
    // evicted and comes back are unreachable (and evicted in their turn), never attributed to another domain
    private final ParquetMetadataCache.Region<Domain, Long> domainIds;
    private final AtomicLong nextDomainId = new AtomicLong();
    private final long maxDomainSize;

    @Inject
    public NoMatchCache(ParquetMetadataCache budget)
    {
        this.facts = budget.region("no_match", Boolean.class, Key::file, (key, _) -> 128 + 2L * key.file().location().length());
        this.domainIds = budget.region("no_match_domain", Long.class, _ -> NO_FILE, (domain, _) -> 64 + domain.getRetainedSizeInBytes());
        // the cache evicts an entry heavier than a segment of it at once: a bigger domain's facts could never be found
        this.maxDomainSize = Math.min(MAX_DOMAIN_SIZE, budget.getMaxWeight() / 8);
    }

    /**
     * Whether facts about {@code domain} are kept at all: only lookups ({@code =}, {@code IN}, discrete dynamic
     * filters, optionally with {@code IS NULL}) repeat often enough to pay; a range such as a moving time window would
     * write a useless fact for every row group of every query and evict footers and filters. A huge domain is not
     * worth remembering per row group, nor checking every value against while reading.
     */
    public boolean remembers(Domain domain)
    {
        return domain.isNullableDiscreteSet() && domain.getRetainedSizeInBytes() <= maxDomainSize;
    }

    public boolean knownNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        OptionalLong id = domainId(domain);
        return id.isPresent() && knownNoMatch(file, rowGroup, column, id.getAsLong());
    }

    /**
     * The number facts about {@code domain} are kept under, if there are any: to be asked once per file and column,
     * not per row group, as hashing and comparing a 2,000-value IN list is most of what a question costs.
     */
    public OptionalLong domainId(Domain domain)
    {
        return domainIds.getIfPresent(domain).map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    /**
     * @param domainId what {@link #domainId} answered for the domain
     */
    public boolean knownNoMatch(FileKey file, int rowGroup, String column, long domainId)
    {
        return file.cacheable() && facts.getIfPresent(new Key(file, rowGroup, column, domainId)).isPresent();
    }

    /**
     * Records that every row of the row group was read and none has {@code column} in {@code domain}; kept only for
     * a versioned object and a domain this cache {@link #remembers remembers}.
     */
    public void recordNoMatch(FileKey file, int rowGroup, String column, Domain domain)
    {
        if (file.cacheable() && remembers(domain)) {
            long id = domainIds.get(domain, nextDomainId::incrementAndGet);
            facts.putIfAbsent(new Key(file, rowGroup, column, id), Boolean.TRUE);
        }
    }
}
