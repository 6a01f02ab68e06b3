package io.parquetbloom.testing;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.connector.ParquetBloomPlugin;
import io.parquetbloom.demo.S3ProxyProcess;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;

import java.util.LinkedHashMap;
import java.util.Map;

import static com.google.common.base.Preconditions.checkState;
import static io.trino.testing.TestingSession.testSessionBuilder;

/**
 * A real Trino (coordinator plus one worker; the coordinator schedules no splits, so handles and splits cross a
 * serialisation boundary) with the plugin installed and catalog {@code lake} over an S3 endpoint.
 */
public final class ParquetBloomQueryRunner
{
    private ParquetBloomQueryRunner() {}

    public static Builder builder()
    {
        return new Builder();
    }

    public static final class Builder
    {
        private final Map<String, String> catalogProperties = new LinkedHashMap<>();
        private final Map<String, Map<String, String>> extraCatalogs = new LinkedHashMap<>();
        private final Map<String, String> serverProperties = new LinkedHashMap<>();
        private int workers = 1;
        private boolean coordinatorRunsSplits;

        private Builder()
        {
            catalogProperties.putAll(catalogProperties("", S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
            catalogProperties.remove("s3.endpoint");
        }

        /**
         * Catalog {@code lake} reads the testing lake ({@value TestingLake#ROOT}) of {@code s3}.
         */
        public Builder withLake(TestingS3 s3)
        {
            return withEndpoint(s3.endpoint());
        }

        /**
         * S3 requests go to {@code endpoint} instead, such as a {@link CountingProxy} in front of the server.
         */
        public Builder withEndpoint(String endpoint)
        {
            catalogProperties.put("s3.endpoint", endpoint);
            return this;
        }

        public Builder withWorkers(int workers)
        {
            this.workers = workers;
            return this;
        }

        /**
         * The coordinator runs splits too (node-scheduler.include-coordinator), as a single-node server does: its page
         * sources then find what planning cached on the same node.
         */
        public Builder withCoordinatorRunningSplits()
        {
            this.coordinatorRunsSplits = true;
            return this;
        }

        /**
         * A property of catalog {@code lake}, replacing the default if there is one.
         */
        public Builder withCatalogProperty(String name, String value)
        {
            catalogProperties.put(name, value);
            return this;
        }

        /**
         * Another catalog over the same server: {@code lake}'s properties with {@code overrides} in place.
         */
        public Builder withCatalog(String catalog, Map<String, String> overrides)
        {
            extraCatalogs.put(catalog, Map.copyOf(overrides));
            return this;
        }

        /**
         * A property of the Trino server (e.g. {@code query.max-concurrent-queries}).
         */
        public Builder withServerProperty(String name, String value)
        {
            serverProperties.put(name, value);
            return this;
        }

        public DistributedQueryRunner build()
                throws Exception
        {
            checkState(catalogProperties.containsKey("s3.endpoint"), "no lake: call withLake or withEndpoint");
            Session session = testSessionBuilder()
                    .setCatalog("lake")
                    .setSchema("telemetry")
                    .build();
            DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                    .setWorkerCount(workers)
                    .addExtraProperty("node-scheduler.include-coordinator", Boolean.toString(coordinatorRunsSplits))
                    .addExtraProperties(serverProperties)
                    .build();
            try {
                runner.installPlugin(new ParquetBloomPlugin());
                runner.createCatalog("lake", "parquet_bloom", catalogProperties);
                extraCatalogs.forEach((catalog, overrides) -> {
                    Map<String, String> properties = new LinkedHashMap<>(catalogProperties);
                    properties.putAll(overrides);
                    runner.createCatalog(catalog, "parquet_bloom", properties);
                });
                return runner;
            }
            catch (RuntimeException e) {
                runner.close();
                throw e;
            }
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
                    .setCatalogSessionProperty(catalog, "dictionary_pruning_enabled", "false")
                    .setCatalogSessionProperty(catalog, "key_index_enabled", "false")
                    .setCatalogSessionProperty(catalog, "page_reads_enabled", "false");
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
                .put("location", location)
                .put("s3.endpoint", endpoint)
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", accessKey)
                .put("s3.aws-secret-key", secretKey)
                .put("s3.max-error-retries", "2")
                // a hedged GET goes out when a GET is slower than most: tests that count requests exactly cannot have
                // that; the fault tests and the differential test turn it on
                .put("s3.hedged-reads.enabled", "false")
                // the tests register tables anywhere in their own S3 server, and several names for one fixture's files;
                // TestRegistrationSecurity checks what a catalog that sets none of these allows
                .put("register-table-procedure.enabled", "true")
                .put("register-table-procedure.allowed-locations", "*")
                .put("register-table-procedure.allow-aliases", "true")
                .putAll(extra)
                .buildKeepingLast();
    }
}
