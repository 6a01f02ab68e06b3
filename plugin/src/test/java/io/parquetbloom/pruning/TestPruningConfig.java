package io.parquetbloom.pruning;

import io.airlift.units.DataSize;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

final class TestPruningConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(PruningConfig.class)
                .setBloomFilterEnabled(true)
                .setStatisticsPruningEnabled(true)
                .setNoMatchCacheEnabled(true)
                .setBloomFilterMaxValues(100_000)
                .setDictionaryPruningEnabled(true)
                .setPageReadsEnabled(true)
                .setDictionaryPruningMaxEntries(32_768)
                .setDictionaryPruningSmallFileThreshold(DataSize.of(3, MEGABYTE)));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(
                Map.of(
                        "bloom-filter.enabled", "false",
                        "statistics-pruning.enabled", "false",
                        "no-match-cache.enabled", "false",
                        "bloom-filter.max-values", "5000",
                        "dictionary-pruning.enabled", "false",
                        "page-reads.enabled", "false",
                        "dictionary-pruning.max-entries", "1000",
                        "dictionary-pruning.small-file-threshold", "0B"),
                new PruningConfig()
                        .setBloomFilterEnabled(false)
                        .setStatisticsPruningEnabled(false)
                        .setNoMatchCacheEnabled(false)
                        .setBloomFilterMaxValues(5000)
                        .setDictionaryPruningEnabled(false)
                        .setPageReadsEnabled(false)
                        .setDictionaryPruningMaxEntries(1000)
                        .setDictionaryPruningSmallFileThreshold(DataSize.ofBytes(0)));
    }
}
