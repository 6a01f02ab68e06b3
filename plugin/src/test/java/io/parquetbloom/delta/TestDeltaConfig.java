package io.parquetbloom.delta;

import com.google.common.collect.ImmutableMap;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;

final class TestDeltaConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(DeltaConfig.class)
                .setEnabled(true)
                .setSnapshotCacheMaxEntries(64));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("delta.enabled", "false")
                .put("delta.snapshot-cache.max-entries", "0")
                .buildOrThrow();
        assertFullMapping(properties, new DeltaConfig()
                .setEnabled(false)
                .setSnapshotCacheMaxEntries(0));
    }
}
