package io.parquetbloom.metadata;

import io.airlift.units.DataSize;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.GIGABYTE;
import static io.airlift.units.DataSize.Unit.KILOBYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

final class TestMetadataConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(MetadataConfig.class)
                .setFooterReadSize(DataSize.of(64, KILOBYTE))
                .setMetadataCacheMaxSize(DataSize.of(256, MEGABYTE))
                .setMetadataConcurrency(128)
                .setMetadataCacheDiskDirectory(null)
                .setMetadataCacheDiskMaxSize(DataSize.of(10, GIGABYTE)));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(
                Map.of("footer.read-size", "1MB", "metadata-cache.max-size", "32MB", "metadata.concurrency", "32",
                        "metadata-cache.disk.directory", "/var/cache/parquet-bloom", "metadata-cache.disk.max-size", "2GB"),
                new MetadataConfig()
                        .setFooterReadSize(DataSize.of(1, MEGABYTE))
                        .setMetadataCacheMaxSize(DataSize.of(32, MEGABYTE))
                        .setMetadataConcurrency(32)
                        .setMetadataCacheDiskDirectory("/var/cache/parquet-bloom")
                        .setMetadataCacheDiskMaxSize(DataSize.of(2, GIGABYTE)));
    }
}
