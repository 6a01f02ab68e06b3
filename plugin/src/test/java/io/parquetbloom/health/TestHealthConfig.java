package io.parquetbloom.health;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;

final class TestHealthConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(HealthConfig.class)
                .setMinDistinctValues(50_000)
                .setMinQueryShare(0.3)
                .setTargetFpp(0.01)
                .setQueryWindow(1_000));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(
                Map.of(
                        "bloom-filter-advice.min-distinct-values", "100000",
                        "bloom-filter-advice.min-query-share", "0.5",
                        "bloom-filter-advice.target-fpp", "0.001",
                        "bloom-filter-advice.query-window", "500"),
                new HealthConfig()
                        .setMinDistinctValues(100_000)
                        .setMinQueryShare(0.5)
                        .setTargetFpp(0.001)
                        .setQueryWindow(500));
    }
}
