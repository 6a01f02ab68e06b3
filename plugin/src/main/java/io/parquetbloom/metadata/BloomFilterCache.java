package io.parquetbloom.metadata;

import com.google.inject.Inject;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Bloom filters of column chunks by object version, including the fact that a chunk has none. Filters are kept
 * folded to {@value #MIN_CACHED_BITS_PER_VALUE} bits per value of their chunk or more: Trino's writer never makes them
 * smaller than 32 KiB and parquet-java 1 MiB without an NDV, and 10,000 such files would not fit otherwise.
 * <p>
 * One entry holds a column's filters of one file, all row groups together: a lookup needs all of them or none, and
 * one missing row group costs a GET as much as eight do. Evicting whole columns of whole files keeps the files that
 * stay in memory whole when a table's filters outgrow the budget.
 */
public class BloomFilterCache
{
    // an SBBF FPP of 0.042%
    private static final int MIN_CACHED_BITS_PER_VALUE = 20;
    static final String KIND = "bloom_filter";

    /**
     * What the cache knows of a chunk's filter: a result, or that the writer made none.
     */
    public sealed interface Cached
    {
        record Filter(SplitBlockBloomFilterReader.Result result)
                implements Cached
        {
            public Filter
            {
                requireNonNull(result, "result is null");
            }
        }

        record NoFilter()
                implements Cached {}
    }

    public record Key(FileKey file, BloomFilterKey filter) {}

    private record ColumnKey(FileKey file, List<String> path) {}

    /**
     * A column's filters of one file, by row group.
     */
    private record ColumnFilters(Map<Integer, Cached> byRowGroup)
    {
        ColumnFilters plus(ColumnFilters other)
        {
            Map<Integer, Cached> combined = new HashMap<>(byRowGroup);
            other.byRowGroup().forEach(combined::putIfAbsent);
            return new ColumnFilters(Map.copyOf(combined));
        }

        long weight()
        {
            long weight = 64;
            for (Cached cached : byRowGroup.values()) {
                weight += cached instanceof Cached.Filter(SplitBlockBloomFilterReader.Result.Usable usable) ? usable.filter().getRetainedSizeInBytes() + 64 : 256;
            }
            return weight;
        }
    }

    private final ParquetMetadataCache budget;
    private final ParquetMetadataCache.Region<ColumnKey, ColumnFilters> filters;

    @Inject
    public BloomFilterCache(ParquetMetadataCache budget)
    {
        this.budget = requireNonNull(budget, "budget is null");
        this.filters = budget.region(KIND, ColumnFilters.class, ColumnKey::file, (key, columnFilters) -> columnFilters.weight() + 2L * key.file().location().length());
    }

    /**
     * Whether filters read now would only displace others (less room than one large filter, 1 MiB, is left): then
     * the disk tier's are better probed where they lie.
     */
    public boolean budgetNearlyFull()
    {
        return !budget.hasRoomFor(1 << 20);
    }

    public Optional<Cached> getIfPresent(Key key)
    {
        return filters.getIfPresent(new ColumnKey(key.file(), key.filter().path()))
                .flatMap(columnFilters -> Optional.ofNullable(columnFilters.byRowGroup().get(key.filter().rowGroup())));
    }

    /**
     * @param chunkValues values in the filter's column chunk, or a negative number when unknown (no folding)
     * @return what was kept: the filter folded as far as it goes without dropping below the bits per value above
     */
    public Cached put(Key key, Cached cached, long chunkValues)
    {
        Cached compacted = compact(cached, chunkValues);
        filters.merge(new ColumnKey(key.file(), key.filter().path()), new ColumnFilters(Map.of(key.filter().rowGroup(), compacted)), ColumnFilters::plus);
        return compacted;
    }

    /**
     * Folding only ever adds "maybe" answers, never an "absent" one: see {@link SplitBlockBloomFilter#fold()}.
     */
    private static Cached compact(Cached cached, long values)
    {
        if (!(cached instanceof Cached.Filter(SplitBlockBloomFilterReader.Result.Usable usable)) || values <= 0) {
            return cached;
        }
        SplitBlockBloomFilter filter = usable.filter();
        while (filter.canFold() && filter.sizeInBytes() * 8L / 2 >= MIN_CACHED_BITS_PER_VALUE * values) {
            filter = filter.fold();
        }
        return filter == usable.filter() ? cached : new Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(filter, usable.totalLength()));
    }
}
