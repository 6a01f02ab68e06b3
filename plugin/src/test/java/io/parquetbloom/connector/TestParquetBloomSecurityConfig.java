package io.parquetbloom.connector;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static io.parquetbloom.connector.ParquetBloomSecurityConfig.SecuritySystem.ALLOW_ALL;
import static io.parquetbloom.connector.ParquetBloomSecurityConfig.SecuritySystem.FILE;

final class TestParquetBloomSecurityConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(ParquetBloomSecurityConfig.class)
                .setSecuritySystem(ALLOW_ALL));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(Map.of("security", "FILE"), new ParquetBloomSecurityConfig().setSecuritySystem(FILE));
    }
}
