package io.parquetbloom.pruning;

import io.airlift.slice.Slice;
import io.airlift.units.DataSize;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * No-match facts weigh their key, and each remembered domain is weighed once however many row groups it has facts
 * for: a query with a 1,000-value IN list that reads 5,000 row groups without a match leaves the footers and filters
 * beside it in the budget.
 */
final class TestNoMatchCache
{
    @Test
    void largeDomainIsWeighedOnceNotPerRowGroup()
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.of(4, DataSize.Unit.MEGABYTE)));
        ParquetMetadataCache.Region<String, byte[]> footers = budget.region("footer", byte[].class, name -> new FileKey(name, 1, "e"), (_, footer) -> footer.length);
        for (int file = 0; file < 100; file++) {
            footers.putIfAbsent("s3://lake/t/file-" + file, new byte[20_000]);
        }
        NoMatchCache cache = new NoMatchCache(budget);
        Domain inList = inList(1_000, "device-");
        assertThat(inList.getRetainedSizeInBytes()).isGreaterThan(40_000);
        for (int rowGroup = 0; rowGroup < 5_000; rowGroup++) {
            cache.recordNoMatch(file(rowGroup / 8), rowGroup % 8, "device_id", inList);
        }

        assertThat(budget.getWeight()).isLessThanOrEqualTo(budget.getMaxWeight());
        for (int file = 0; file < 100; file++) {
            assertThat(footers.getIfPresent("s3://lake/t/file-" + file)).as("footer %d", file).isPresent();
        }
        for (int rowGroup = 0; rowGroup < 5_000; rowGroup++) {
            assertThat(cache.knownNoMatch(file(rowGroup / 8), rowGroup % 8, "device_id", inList)).isTrue();
        }
        // an equal domain built anew finds the facts; another domain, column or row group does not
        assertThat(cache.knownNoMatch(file(0), 0, "device_id", inList(1_000, "device-"))).isTrue();
        assertThat(cache.knownNoMatch(file(0), 0, "device_id", inList(1_000, "other-"))).isFalse();
        assertThat(cache.knownNoMatch(file(0), 0, "trace_id", inList)).isFalse();
        assertThat(cache.knownNoMatch(file(700), 0, "device_id", inList)).isFalse();
    }

    @Test
    void factsOfAnEvictedDomainAreNeverAttributedToAnother()
    {
        // room for a few large domains: the early ones are evicted, and their numbers are never given to another
        ParquetMetadataCache budget = new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(400_000)));
        NoMatchCache cache = new NoMatchCache(budget);
        List<Domain> domains = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            Domain domain = inList(1_000, "round-%d-".formatted(i));
            assertThat(cache.remembers(domain)).isTrue();
            domains.add(domain);
            cache.recordNoMatch(file(i), 0, "device_id", domain);
        }
        // the newest fact is there; the oldest domains were evicted with (or before) their facts
        assertThat(cache.knownNoMatch(file(29), 0, "device_id", domains.get(29))).isTrue();
        assertThat(cache.knownNoMatch(file(0), 0, "device_id", domains.getFirst())).isFalse();
        for (int i = 0; i < domains.size(); i++) {
            for (int j = 0; j < domains.size(); j++) {
                if (i != j) {
                    assertThat(cache.knownNoMatch(file(i), 0, "device_id", domains.get(j))).as("fact of domain %d read with domain %d", i, j).isFalse();
                }
            }
        }
        assertThat(budget.getWeight()).isLessThanOrEqualTo(budget.getMaxWeight());
    }

    @Test
    void domainTooLargeForTheBudgetIsNotRemembered()
    {
        // an entry heavier than the cache's segment would be evicted as it is written: not worth writing facts for
        NoMatchCache cache = new NoMatchCache(new ParquetMetadataCache(new MetadataConfig().setMetadataCacheMaxSize(DataSize.ofBytes(120_000))));
        Domain domain = inList(1_000, "device-");
        assertThat(cache.remembers(domain)).isFalse();
        cache.recordNoMatch(file(0), 0, "device_id", domain);
        assertThat(cache.knownNoMatch(file(0), 0, "device_id", domain)).isFalse();
    }

    private static FileKey file(int index)
    {
        return new FileKey("s3://lake/t/file-" + index, 1_000, "etag-" + index);
    }

    private static Domain inList(int values, String prefix)
    {
        List<Slice> slices = new ArrayList<>();
        for (int i = 0; i < values; i++) {
            slices.add(utf8Slice(prefix + i));
        }
        return Domain.create(ValueSet.copyOf(VARCHAR, slices), false);
    }
}
