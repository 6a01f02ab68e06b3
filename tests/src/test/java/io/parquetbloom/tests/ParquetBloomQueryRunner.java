package io.parquetbloom.tests;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.connector.ParquetBloomPlugin;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;

import java.util.Map;

import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * A real Trino (coordinator plus one worker; the coordinator schedules no splits, so handles and splits cross a
 * serialisation boundary) with the plugin installed and catalog {@code lake} over an S3 endpoint.
 */
public final class ParquetBloomQueryRunner
{
    private ParquetBloomQueryRunner() {}

    public static DistributedQueryRunner create(String endpoint, String accessKey, String secretKey, String location)
            throws Exception
    {
        return create(endpoint, accessKey, secretKey, location, 1);
    }

    public static DistributedQueryRunner create(String endpoint, String accessKey, String secretKey, String location, int workers)
            throws Exception
    {
        Session session = testSessionBuilder()
                .setCatalog("lake")
                .setSchema("telemetry")
                .build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(workers)
                .addExtraProperty("node-scheduler.include-coordinator", "false")
                .build();
        try {
            runner.installPlugin(new ParquetBloomPlugin());
            runner.createCatalog("lake", "parquet_bloom", catalogProperties(endpoint, accessKey, secretKey, location));
            return runner;
        }
        catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }

    /**
     * The session with every pruning path off in the given catalogs (bloom filters, statistics, no-match cache): the
     * connector then reads every row group, the baseline pruning must never differ from.
     */
    public static Session allPruningOff(Session session, String... catalogs)
    {
        Session.SessionBuilder builder = Session.builder(session);
        for (String catalog : catalogs) {
            builder.setCatalogSessionProperty(catalog, "bloom_filter_enabled", "false")
                    .setCatalogSessionProperty(catalog, "statistics_pruning_enabled", "false")
                    .setCatalogSessionProperty(catalog, "no_match_cache_enabled", "false")
                    .setCatalogSessionProperty(catalog, "dictionary_pruning_enabled", "false");
        }
        return builder.build();
    }

    public static Map<String, String> catalogProperties(String endpoint, String accessKey, String secretKey, String location)
    {
        return catalogProperties(endpoint, accessKey, secretKey, location, Map.of());
    }

    public static Map<String, String> catalogProperties(String endpoint, String accessKey, String secretKey, String location, Map<String, String> extra)
    {
        return ImmutableMap.<String, String>builder()
                .putAll(extra)
                .put("location", location)
                .put("s3.endpoint", endpoint)
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", accessKey)
                .put("s3.aws-secret-key", secretKey)
                .put("s3.max-error-retries", "2")
                .buildOrThrow();
    }
}
