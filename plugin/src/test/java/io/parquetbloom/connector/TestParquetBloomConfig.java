package io.parquetbloom.connector;

import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.SECONDS;

final class TestParquetBloomConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(ParquetBloomConfig.class)
                .setMaxSplitSize(DataSize.of(128, MEGABYTE))
                .setDynamicFilteringWaitTimeout(new Duration(10, SECONDS))
                .setSplitReadAheadFiles(4));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(
                Map.of("split.max-size", "32MB", "dynamic-filtering.wait-timeout", "2s", "split.read-ahead-files", "0"),
                new ParquetBloomConfig()
                        .setMaxSplitSize(DataSize.of(32, MEGABYTE))
                        .setDynamicFilteringWaitTimeout(new Duration(2, SECONDS))
                        .setSplitReadAheadFiles(0));
    }
}
