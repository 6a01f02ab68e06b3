package io.parquetbloom.metadata;

import io.airlift.units.DataSize;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Footers, filters and no-match facts are typed regions of one byte budget: what one kind takes, the others do not
 * get, and the budget's weight is the sum of its regions' entries.
 */
final class TestParquetMetadataCache
{
    @Test
    void regionsShareOneBudget()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(1_000_000)));
        ParquetMetadataCache.Region<Integer, String> big = budget.region("big", String.class, TestParquetMetadataCache::file, (_, _) -> 10_000);
        ParquetMetadataCache.Region<Integer, Long> small = budget.region("small", Long.class, TestParquetMetadataCache::file, (_, _) -> 100);
        for (int i = 0; i < 5; i++) {
            big.putIfAbsent(i, "value-" + i);
        }
        small.putIfAbsent(1, 1L);
        assertThat(budget.getWeight()).isEqualTo(50_100);
        assertThat(big.getIfPresent(3)).contains("value-3");
        // same key, other region: another entry
        assertThat(small.getIfPresent(3)).isEmpty();
        assertThat(small.getIfPresent(1)).contains(1L);

        // more big entries than the budget holds: it evicts, and never weighs more than its limit
        for (int i = 5; i < 400; i++) {
            big.putIfAbsent(i, "value-" + i);
        }
        assertThat(budget.getWeight()).isLessThanOrEqualTo(budget.getMaxWeight());
        assertThat(budget.getEvictions()).isPositive();
    }

    @Test
    void loadsOnceAndKeepsTheFirstValue()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig());
        ParquetMetadataCache.Region<String, String> region = budget.region("footer", String.class, TestParquetMetadataCache::file, (_, _) -> 1);
        AtomicInteger loads = new AtomicInteger();
        assertThat(region.get("a", () -> "first-" + loads.incrementAndGet())).isEqualTo("first-1");
        assertThat(region.get("a", () -> "first-" + loads.incrementAndGet())).isEqualTo("first-1");
        region.putIfAbsent("a", "other");
        assertThat(region.getIfPresent("a")).contains("first-1");
        assertThat(loads).hasValue(1);
        assertThat(budget.getEntries()).isEqualTo(1);
    }

    @Test
    void sizeZeroKeepsNothing()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(0)));
        ParquetMetadataCache.Region<String, String> region = budget.region("footer", String.class, TestParquetMetadataCache::file, (_, _) -> 1);
        AtomicInteger loads = new AtomicInteger();
        assertThat(region.get("a", () -> "v" + loads.incrementAndGet())).isEqualTo("v1");
        assertThat(region.get("a", () -> "v" + loads.incrementAndGet())).isEqualTo("v2");
        region.putIfAbsent("b", "x");
        assertThat(region.getIfPresent("b")).isEmpty();
        assertThat(budget.getWeight()).isZero();
    }

    @Test
    void invalidatesTheEntriesOfSelectedFiles()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig());
        ParquetMetadataCache.Region<String, String> footers = budget.region(FooterCache.KIND, String.class, TestParquetMetadataCache::file, (_, _) -> 1);
        ParquetMetadataCache.Region<String, String> filters = budget.region(BloomFilterCache.KIND, String.class, TestParquetMetadataCache::file, (_, _) -> 1);
        for (String key : List.of("events/a", "events/b", "devices/a")) {
            footers.putIfAbsent(key, "footer");
            filters.putIfAbsent(key, "filter");
        }
        assertThat(budget.getFooterEntries()).isEqualTo(3);
        assertThat(budget.getBloomFilterEntries()).isEqualTo(3);
        assertThat(budget.getNoMatchEntries()).isZero();

        // one table's files, every kind of entry
        assertThat(budget.invalidate(file -> file.location().startsWith("s3://lake/events/"))).isEqualTo(4);
        assertThat(footers.getIfPresent("events/a")).isEmpty();
        assertThat(filters.getIfPresent("events/b")).isEmpty();
        assertThat(footers.getIfPresent("devices/a")).contains("footer");
        assertThat(filters.getIfPresent("devices/a")).contains("filter");

        assertThat(budget.invalidateAll()).isEqualTo(2);
        assertThat(budget.getEntries()).isZero();
    }

    /**
     * Planning asks for a table's entries in listing order on every lookup. With twice as many entries as the budget
     * holds, least-recently-used eviction would find none of them on the next pass; frequency-aware admission keeps
     * a stable part.
     */
    @Test
    void keepsAStablePartOfAWorkingSetLargerThanTheBudget()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(100 * 1_000)));
        ParquetMetadataCache.Region<Integer, String> filters = budget.region(BloomFilterCache.KIND, String.class, TestParquetMetadataCache::file, (_, _) -> 1_000);
        int hits = 0;
        for (int pass = 0; pass < 6; pass++) {
            hits = 0;
            for (int entry = 0; entry < 200; entry++) {
                int key = entry;
                AtomicInteger loaded = new AtomicInteger();
                filters.get(key, () -> "filter-" + key + loaded.incrementAndGet());
                hits += loaded.get() == 0 ? 1 : 0;
            }
        }
        // LRU: 0 of 200; the budget holds 100
        assertThat(hits).isBetween(60, 100);
    }

    /**
     * A scan of another table's many files, each entry seen once, does not push out the entries a table uses often.
     */
    @Test
    void oneScanDoesNotFlushEntriesUsedOften()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(100 * 1_000)));
        ParquetMetadataCache.Region<String, String> footers = budget.region(FooterCache.KIND, String.class, TestParquetMetadataCache::file, (_, _) -> 1_000);
        for (int lookup = 0; lookup < 5; lookup++) {
            for (int file = 0; file < 50; file++) {
                footers.get("devices/" + file, () -> "footer");
            }
        }
        for (int file = 0; file < 5_000; file++) {
            footers.get("events/" + file, () -> "footer");
        }
        long kept = IntStream.range(0, 50).filter(file -> footers.getIfPresent("devices/" + file).isPresent()).count();
        // LRU: none of them; a few go to admission's random jitter (Caffeine's defence against hash flooding)
        assertThat(kept).isGreaterThanOrEqualTo(35);
        assertThat(budget.getWeight()).isLessThanOrEqualTo(budget.getMaxWeight());
    }

    private static FileKey file(Object key)
    {
        return new FileKey("s3://lake/" + key, 100, "etag");
    }
}
