package io.parquetbloom.tests;

import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every catalog property is checked when the catalog is created: a bad value fails the creation with a message that
 * names the property and what it accepts, and so does a property the connector does not know (a typo).
 */
final class TestCatalogProperties
        extends AbstractTestQueryFramework
{
    private static final Map<String, String> VALID = Map.of(
            "location", "s3://lake/warehouse/",
            "s3.endpoint", "http://127.0.0.1:9",
            "s3.region", "us-east-1",
            "s3.path-style-access", "true");

    private record BadValue(Map<String, String> properties, List<String> messageParts) {}

    private final AtomicInteger catalogs = new AtomicInteger();

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        return ParquetBloomQueryRunner.builder()
                .withEndpoint("http://127.0.0.1:9")
                .withCatalogProperty("s3.aws-access-key", "access")
                .withCatalogProperty("s3.aws-secret-key", "secret")
                .withCatalogProperty("location", "s3://lake/warehouse/")
                .build();
    }

    @Test
    void everyPropertyIsValidated()
    {
        List<BadValue> cases = List.of(
                bad("location", "http://lake/warehouse/", "location must be s3://bucket/ or s3://bucket/prefix/"),
                bad("bloom-filter.enabled", "maybe", "bloom-filter.enabled", "boolean"),
                bad("statistics-pruning.enabled", "sometimes", "statistics-pruning.enabled", "boolean"),
                bad("no-match-cache.enabled", "yes please", "no-match-cache.enabled", "boolean"),
                bad("bloom-filter.max-values", "0", "bloom-filter.max-values", "greater than or equal to 1"),
                bad("bloom-filter.max-values", "20000000", "bloom-filter.max-values", "less than or equal to 10000000"),
                bad("footer.read-size", "100MB", "footer.read-size", "16MB"),
                bad("footer.read-size", "large", "footer.read-size", "DataSize"),
                bad("metadata-cache.max-size", "lots", "metadata-cache.max-size", "DataSize"),
                bad("metadata.concurrency", "0", "metadata.concurrency", "greater than or equal to 1"),
                bad("metadata.concurrency", "5000", "metadata.concurrency", "less than or equal to 1024"),
                bad("metadata.listing-cache-ttl", "forever", "metadata.listing-cache-ttl", "Duration"),
                bad("split.max-size", "1kB", "split.max-size", "1MB"),
                bad("dynamic-filtering.wait-timeout", "soon", "dynamic-filtering.wait-timeout", "Duration"),
                bad("bloom-filter-advice.min-distinct-values", "0", "bloom-filter-advice.min-distinct-values", "greater than or equal to 1"),
                bad("bloom-filter-advice.min-query-share", "1.5", "bloom-filter-advice.min-query-share", "must be at most 1.0"),
                bad("bloom-filter-advice.target-fpp", "0", "bloom-filter-advice.target-fpp", "must be above 0.0"),
                bad("bloom-filter-advice.target-fpp", "0.9", "bloom-filter-advice.target-fpp", "must be at most 0.5"),
                bad("bloom-filter-advice.query-window", "0", "bloom-filter-advice.query-window", "greater than or equal to 1"),
                bad("s3.endpoint", "ftp://127.0.0.1", "s3.endpoint must be an http:// or https:// URL"),
                bad("s3.path-style-access", "maybe", "s3.path-style-access", "boolean"),
                new BadValue(Map.of("s3.aws-access-key", "only-the-access-key"), List.of("s3.aws-access-key and s3.aws-secret-key must be set together")),
                bad("s3.connect-timeout", "0ms", "s3.connect-timeout", "greater than or equal to 1ms"),
                bad("s3.socket-read-timeout", "0ms", "s3.socket-read-timeout", "greater than or equal to 1ms"),
                bad("s3.max-error-retries", "100", "s3.max-error-retries", "less than or equal to 50"),
                bad("s3.max-connections", "0", "s3.max-connections", "greater than or equal to 1"),
                new BadValue(Map.of("s3.external-id", "id"), List.of("s3.external-id, s3.sts.endpoint and s3.sts.region apply only with s3.iam-role")),
                new BadValue(Map.of("s3.iam-role", "arn:aws:iam::123456789012:role/r", "s3.sts.endpoint", "sts.example"), List.of("s3.sts.endpoint must be an http:// or https:// URL")),
                bad("s3.sse.type", "ROT13", "s3.sse.type", "NONE", "S3", "KMS", "CUSTOMER"),
                new BadValue(Map.of("s3.sse.type", "CUSTOMER"), List.of("s3.sse.type=CUSTOMER needs s3.sse.customer-key")),
                bad("bloom-filter.enable", "true", "bloom-filter.enable", "was not used"));
        for (BadValue bad : cases) {
            Map<String, String> properties = new HashMap<>(VALID);
            properties.putAll(bad.properties());
            String catalog = "bad_" + catalogs.incrementAndGet();
            assertThatThrownBy(() -> getQueryRunner().createCatalog(catalog, "parquet_bloom", properties))
                    .as("%s", bad.properties())
                    .satisfies(failure -> assertThat(messages(failure)).as("%s", bad.properties()).contains(bad.messageParts()));
        }
    }

    @Test
    void missingLocationIsNamed()
    {
        Map<String, String> properties = new HashMap<>(VALID);
        properties.remove("location");
        assertThatThrownBy(() -> getQueryRunner().createCatalog("no_location", "parquet_bloom", properties))
                .satisfies(failure -> assertThat(messages(failure)).contains("location", "must not be null"));
    }

    private static BadValue bad(String property, String value, String... messageParts)
    {
        return new BadValue(Map.of(property, value), List.of(messageParts));
    }

    private static String messages(Throwable failure)
    {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
