package io.parquetbloom.iceberg;

import com.google.common.collect.ImmutableMap;
import io.airlift.units.DataSize;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

final class TestIcebergConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(IcebergConfig.class)
                .setEnabled(true)
                .setFileCacheMaxSize(DataSize.of(64, MEGABYTE)));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("iceberg.enabled", "false")
                .put("iceberg.file-cache.max-size", "8MB")
                .buildOrThrow();
        assertFullMapping(properties, new IcebergConfig()
                .setEnabled(false)
                .setFileCacheMaxSize(DataSize.of(8, MEGABYTE)));
    }
}
