package io.parquetbloom.s3;

import com.google.common.collect.ImmutableMap;
import io.airlift.units.Duration;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

final class TestS3Config
{
    private static final String CUSTOMER_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    @Test
    void defaults()
    {
        assertRecordedDefaults(recordDefaults(S3Config.class)
                .setEndpoint(null)
                .setRegion(null)
                .setPathStyleAccess(false)
                .setAwsAccessKey(null)
                .setAwsSecretKey(null)
                .setConnectTimeout(new Duration(5, SECONDS))
                .setSocketReadTimeout(new Duration(30, SECONDS))
                .setMaxErrorRetries(10)
                .setRetryMode(S3Config.S3RetryMode.STANDARD)
                .setRetryBaseDelay(new Duration(50, MILLISECONDS))
                .setRetryMaxDelay(new Duration(2, SECONDS))
                .setHedgedReadsEnabled(true)
                .setHedgedReadsMaxFraction(0.05)
                .setMaxConnections(500)
                .setListPageSize(1000)
                .setIamRole(null)
                .setExternalId(null)
                .setRoleSessionName("trino-parquet-bloom")
                .setStsEndpoint(null)
                .setStsRegion(null)
                .setSseType("NONE")
                .setSseKmsKeyId(null)
                .setSseCustomerKey(null));
    }

    @Test
    void explicitPropertyMappings()
    {
        Map<String, String> properties = ImmutableMap.<String, String>builder()
                .put("s3.endpoint", "http://127.0.0.1:9000")
                .put("s3.region", "eu-west-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", "access")
                .put("s3.aws-secret-key", "secret")
                .put("s3.connect-timeout", "2s")
                .put("s3.socket-read-timeout", "3s")
                .put("s3.max-error-retries", "4")
                .put("s3.retry-mode", "ADAPTIVE")
                .put("s3.retry-base-delay", "10ms")
                .put("s3.retry-max-delay", "1s")
                .put("s3.hedged-reads.enabled", "false")
                .put("s3.hedged-reads.max-fraction", "0.2")
                .put("s3.max-connections", "50")
                .put("s3.list-page-size", "7")
                .put("s3.iam-role", "arn:aws:iam::123456789012:role/reader")
                .put("s3.external-id", "external")
                .put("s3.role-session-name", "session")
                .put("s3.sts.endpoint", "https://sts.eu-west-1.amazonaws.com")
                .put("s3.sts.region", "eu-west-1")
                .put("s3.sse.type", "CUSTOMER")
                .put("s3.sse.kms-key-id", "key-id")
                .put("s3.sse.customer-key", CUSTOMER_KEY)
                .buildOrThrow();
        S3Config expected = new S3Config()
                .setEndpoint("http://127.0.0.1:9000")
                .setRegion("eu-west-1")
                .setPathStyleAccess(true)
                .setAwsAccessKey("access")
                .setAwsSecretKey("secret")
                .setConnectTimeout(new Duration(2, SECONDS))
                .setSocketReadTimeout(new Duration(3, SECONDS))
                .setMaxErrorRetries(4)
                .setRetryMode(S3Config.S3RetryMode.ADAPTIVE)
                .setRetryBaseDelay(new Duration(10, MILLISECONDS))
                .setRetryMaxDelay(new Duration(1, SECONDS))
                .setHedgedReadsEnabled(false)
                .setHedgedReadsMaxFraction(0.2)
                .setMaxConnections(50)
                .setListPageSize(7)
                .setIamRole("arn:aws:iam::123456789012:role/reader")
                .setExternalId("external")
                .setRoleSessionName("session")
                .setStsEndpoint("https://sts.eu-west-1.amazonaws.com")
                .setStsRegion("eu-west-1")
                .setSseType("CUSTOMER")
                .setSseKmsKeyId("key-id")
                .setSseCustomerKey(CUSTOMER_KEY);
        assertFullMapping(properties, expected);
    }

    @Test
    void validation()
    {
        assertThat(new S3Config().setSseType(S3Config.S3SseType.CUSTOMER).isSseCustomerKeyValid()).isFalse();
        assertThat(new S3Config().setSseType(S3Config.S3SseType.CUSTOMER).setSseCustomerKey("c2hvcnQ=").isSseCustomerKeyValid()).isFalse();
        assertThat(new S3Config().setSseType(S3Config.S3SseType.CUSTOMER).setSseCustomerKey(CUSTOMER_KEY).isSseCustomerKeyValid()).isTrue();
        assertThat(new S3Config().setSseCustomerKey(CUSTOMER_KEY).isSseCustomerKeyValid()).isFalse();
        assertThat(new S3Config().setExternalId("external").isStsSettingsWithRole()).isFalse();
        assertThat(new S3Config().setRetryBaseDelay(new Duration(3, SECONDS)).isRetryDelaysValid()).isFalse();
        assertThat(new S3Config().setRetryBaseDelay(new Duration(2, SECONDS)).isRetryDelaysValid()).isTrue();
        assertThat(new S3Config().setIamRole("arn:aws:iam::123456789012:role/reader").setExternalId("external").isStsSettingsWithRole()).isTrue();
        // the key never shows in what the SDK or a log could print
        assertThat(SseCustomerKey.of(CUSTOMER_KEY).toString()).doesNotContain(CUSTOMER_KEY);
    }
}
