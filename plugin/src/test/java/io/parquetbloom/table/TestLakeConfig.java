package io.parquetbloom.table;

import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

final class TestLakeConfig
{
    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(LakeConfig.class)
                .setLocation(null)
                .setTableRegistryLocation(null)
                .setKeyIndexLocation(null)
                .setRegisterTableProcedureEnabled(false)
                .setRegisterTableAllowedLocations(List.of())
                .setRegisterTableAllowAliases(false)
                .setSchemaUnionByName(false)
                .setListingCacheTtl(new Duration(0, SECONDS))
                .setSharedListingMaxAge(new Duration(10, SECONDS))
                .setSchemaCacheTtl(new Duration(1, MINUTES)));
    }

    @Test
    void explicitPropertyMappings()
    {
        assertFullMapping(
                Map.of(
                        "location", "s3://lake/warehouse/",
                        "table-registry.location", "s3://engine/registry/",
                        "key-index.location", "s3://engine/indexes/",
                        "register-table-procedure.enabled", "true",
                        "register-table-procedure.allowed-locations", "s3://lake/,s3://raw/firehose/",
                        "register-table-procedure.allow-aliases", "true",
                        "schema.union-by-name", "true",
                        "metadata.listing-cache-ttl", "5m",
                        "metadata.shared-listing-max-age", "0s",
                        "metadata.schema-cache-ttl", "10s"),
                new LakeConfig()
                        .setLocation("s3://lake/warehouse/")
                        .setTableRegistryLocation("s3://engine/registry/")
                        .setKeyIndexLocation("s3://engine/indexes/")
                        .setRegisterTableProcedureEnabled(true)
                        .setRegisterTableAllowedLocations(List.of("s3://lake/", "s3://raw/firehose/"))
                        .setRegisterTableAllowAliases(true)
                        .setSchemaUnionByName(true)
                        .setListingCacheTtl(new Duration(5, MINUTES))
                        .setSharedListingMaxAge(new Duration(0, SECONDS))
                        .setSchemaCacheTtl(new Duration(10, SECONDS)));
    }

    @Test
    void locationMustBeAnS3Uri()
    {
        assertThat(new LakeConfig().setLocation("s3://lake/").isLocationValid()).isTrue();
        assertThat(new LakeConfig().setLocation("s3a://lake/prefix/").isLocationValid()).isTrue();
        assertThat(new LakeConfig().setLocation("/tmp/lake").isLocationValid()).isFalse();
        assertThat(new LakeConfig().setLocation("s3://Bad_Bucket!/").isLocationValid()).isFalse();
        assertThat(new LakeConfig().setTableRegistryLocation("s3://engine/registry/").isTableRegistryLocationValid()).isTrue();
        assertThat(new LakeConfig().setTableRegistryLocation("file:///tmp/registry").isTableRegistryLocationValid()).isFalse();
        assertThat(new LakeConfig().setKeyIndexLocation("hdfs://namenode/indexes").isKeyIndexLocationValid()).isFalse();
        assertThat(new LakeConfig().setRegisterTableAllowedLocations(List.of("s3://lake/", "s3://raw/")).isRegisterTableAllowedLocationsValid()).isTrue();
        assertThat(new LakeConfig().setRegisterTableAllowedLocations(List.of("s3://lake/", "/tmp")).isRegisterTableAllowedLocationsValid()).isFalse();
    }
}
