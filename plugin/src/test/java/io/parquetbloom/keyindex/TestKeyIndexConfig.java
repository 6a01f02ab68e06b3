package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableMap;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.airlift.units.DataSize.Unit.GIGABYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

final class TestKeyIndexConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(KeyIndexConfig.class)
                .setEnabled(true)
                .setBuildMemory(DataSize.of(256, MEGABYTE))
                .setSpillDirectory(null)
                .setOrphanRetention(new Duration(1, TimeUnit.HOURS))
                .setMaxSegments(8)
                .setUploadPartSize(DataSize.of(64, MEGABYTE))
                .setMaxLookupBytes(DataSize.of(1, GIGABYTE)));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("key-index.enabled", "false")
                .put("key-index.build-memory", "64MB")
                .put("key-index.spill-directory", "/tmp/spill")
                .put("key-index.orphan-retention", "5m")
                .put("key-index.max-segments", "3")
                .put("key-index.upload-part-size", "8MB")
                .put("key-index.max-lookup-bytes", "32MB")
                .buildOrThrow();
        assertFullMapping(properties, new KeyIndexConfig()
                .setEnabled(false)
                .setBuildMemory(DataSize.of(64, MEGABYTE))
                .setSpillDirectory("/tmp/spill")
                .setOrphanRetention(new Duration(5, TimeUnit.MINUTES))
                .setMaxSegments(3)
                .setUploadPartSize(DataSize.of(8, MEGABYTE))
                .setMaxLookupBytes(DataSize.of(32, MEGABYTE)));
    }
}
