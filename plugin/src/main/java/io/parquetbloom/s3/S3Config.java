package io.parquetbloom.s3;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import io.airlift.units.Duration;
import io.airlift.units.MinDuration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;

/**
 * S3 settings under the property names of Trino's native S3 file system, so users copy the S3 section of their
 * Hive or Iceberg catalog.
 */
public class S3Config
{
    private String endpoint;
    private String region;
    private boolean pathStyleAccess;
    private String awsAccessKey;
    private String awsSecretKey;
    private Duration connectTimeout = new Duration(5, SECONDS);
    private Duration socketReadTimeout = new Duration(30, SECONDS);
    private int maxErrorRetries = 10;
    private S3RetryMode retryMode = S3RetryMode.STANDARD;
    private Duration retryBaseDelay = new Duration(50, MILLISECONDS);
    private Duration retryMaxDelay = new Duration(2, SECONDS);
    private boolean hedgedReadsEnabled = true;
    private double hedgedReadsMaxFraction = 0.05;
    private int maxConnections = 500;
    private int listPageSize = 1000;
    private String iamRole;
    private String externalId;
    private String roleSessionName = "trino-parquet-bloom";
    private String stsEndpoint;
    private String stsRegion;
    private String sseType = S3SseType.NONE.name();
    private String sseKmsKeyId;
    private String sseCustomerKey;

    /**
     * Server-side encryption of the objects read. Only SSE-C changes reads (S3 needs the key on every GET); the
     * others are accepted so a Hive or Iceberg catalog's S3 section can be copied as it is.
     */
    public enum S3SseType
    {
        NONE, S3, KMS, CUSTOMER
    }

    public Optional<String> getEndpoint()
    {
        return Optional.ofNullable(endpoint);
    }

    @Config("s3.endpoint")
    @ConfigDescription("S3 endpoint URL; default: AWS for the region")
    public S3Config setEndpoint(String endpoint)
    {
        this.endpoint = endpoint;
        return this;
    }

    @AssertTrue(message = "s3.endpoint must be an http:// or https:// URL")
    public boolean isEndpointValid()
    {
        return endpoint == null || endpoint.matches("https?://[^\\s/]+(/.*)?");
    }

    public Optional<String> getRegion()
    {
        return Optional.ofNullable(region);
    }

    @Config("s3.region")
    @ConfigDescription("S3 region; default: the AWS SDK's region provider chain")
    public S3Config setRegion(String region)
    {
        this.region = region;
        return this;
    }

    public boolean isPathStyleAccess()
    {
        return pathStyleAccess;
    }

    @Config("s3.path-style-access")
    @ConfigDescription("Use path-style requests (needed by most S3-compatible servers such as MinIO)")
    public S3Config setPathStyleAccess(boolean pathStyleAccess)
    {
        this.pathStyleAccess = pathStyleAccess;
        return this;
    }

    public Optional<String> getAwsAccessKey()
    {
        return Optional.ofNullable(awsAccessKey);
    }

    @Config("s3.aws-access-key")
    @ConfigDescription("Static access key; when absent, the AWS SDK default credential chain is used")
    public S3Config setAwsAccessKey(String awsAccessKey)
    {
        this.awsAccessKey = awsAccessKey;
        return this;
    }

    public Optional<String> getAwsSecretKey()
    {
        return Optional.ofNullable(awsSecretKey);
    }

    @Config("s3.aws-secret-key")
    @ConfigSecuritySensitive
    @ConfigDescription("Static secret key, with s3.aws-access-key")
    public S3Config setAwsSecretKey(String awsSecretKey)
    {
        this.awsSecretKey = awsSecretKey;
        return this;
    }

    @AssertTrue(message = "s3.aws-access-key and s3.aws-secret-key must be set together")
    public boolean isCredentialsComplete()
    {
        return (awsAccessKey == null) == (awsSecretKey == null);
    }

    @NotNull
    @MinDuration("1ms")
    public Duration getConnectTimeout()
    {
        return connectTimeout;
    }

    @Config("s3.connect-timeout")
    @ConfigDescription("Timeout for establishing a connection")
    public S3Config setConnectTimeout(Duration connectTimeout)
    {
        this.connectTimeout = connectTimeout;
        return this;
    }

    @NotNull
    @MinDuration("1ms")
    public Duration getSocketReadTimeout()
    {
        return socketReadTimeout;
    }

    @Config("s3.socket-read-timeout")
    @ConfigDescription("Timeout for a socket read")
    public S3Config setSocketReadTimeout(Duration socketReadTimeout)
    {
        this.socketReadTimeout = socketReadTimeout;
        return this;
    }

    @Min(0)
    @Max(50)
    public int getMaxErrorRetries()
    {
        return maxErrorRetries;
    }

    @Config("s3.max-error-retries")
    @ConfigDescription("Retries, with exponential backoff, of throttled requests and 5xx errors")
    public S3Config setMaxErrorRetries(int maxErrorRetries)
    {
        this.maxErrorRetries = maxErrorRetries;
        return this;
    }

    /**
     * How a request waits before it is sent again. Both retry throttled requests, 5xx answers, cut connections and
     * timeouts up to {@code s3.max-error-retries} times, each after a jittered exponential backoff from
     * {@code s3.retry-base-delay}.
     */
    public enum S3RetryMode
    {
        /**
         * The backoff alone: every request waits its own delay.
         */
        STANDARD,
        /**
         * The backoff, and once S3 throttles, a client-side rate limit (the AWS SDK's adaptive token bucket) that
         * slows the rate of all requests of the catalog to what S3 accepts, then raises it again.
         */
        ADAPTIVE
    }

    @NotNull
    public S3RetryMode getRetryMode()
    {
        return retryMode;
    }

    @Config("s3.retry-mode")
    @ConfigDescription("STANDARD (each retry waits its own backoff) or ADAPTIVE (also paces the catalog's requests once S3 throttles)")
    public S3Config setRetryMode(S3RetryMode retryMode)
    {
        this.retryMode = retryMode;
        return this;
    }

    @NotNull
    @MinDuration("1ms")
    public Duration getRetryBaseDelay()
    {
        return retryBaseDelay;
    }

    @Config("s3.retry-base-delay")
    @ConfigDescription("Longest wait before the first retry (full jitter); it doubles with each attempt up to s3.retry-max-delay")
    public S3Config setRetryBaseDelay(Duration retryBaseDelay)
    {
        this.retryBaseDelay = retryBaseDelay;
        return this;
    }

    @NotNull
    @MinDuration("1ms")
    public Duration getRetryMaxDelay()
    {
        return retryMaxDelay;
    }

    @Config("s3.retry-max-delay")
    @ConfigDescription("Longest wait before any retry")
    public S3Config setRetryMaxDelay(Duration retryMaxDelay)
    {
        this.retryMaxDelay = retryMaxDelay;
        return this;
    }

    @AssertTrue(message = "s3.retry-max-delay must not be less than s3.retry-base-delay")
    public boolean isRetryDelaysValid()
    {
        return retryMaxDelay == null || retryBaseDelay == null || retryMaxDelay.compareTo(retryBaseDelay) >= 0;
    }

    public boolean isHedgedReadsEnabled()
    {
        return hedgedReadsEnabled;
    }

    @Config("s3.hedged-reads.enabled")
    @ConfigDescription("Send a second GET of the same bytes once a GET runs past the recent 95th percentile of GETs of its size; the first answer wins")
    public S3Config setHedgedReadsEnabled(boolean hedgedReadsEnabled)
    {
        this.hedgedReadsEnabled = hedgedReadsEnabled;
        return this;
    }

    @DecimalMin("0")
    @DecimalMax("1")
    public double getHedgedReadsMaxFraction()
    {
        return hedgedReadsMaxFraction;
    }

    @Config("s3.hedged-reads.max-fraction")
    @ConfigDescription("Hedged GETs a reader (a split, or a query's planning) may send per GET it sent, beyond its first one")
    public S3Config setHedgedReadsMaxFraction(double hedgedReadsMaxFraction)
    {
        this.hedgedReadsMaxFraction = hedgedReadsMaxFraction;
        return this;
    }

    @Min(1)
    public int getMaxConnections()
    {
        return maxConnections;
    }

    @Config("s3.max-connections")
    @ConfigDescription("Maximum number of pooled HTTP connections to S3")
    public S3Config setMaxConnections(int maxConnections)
    {
        this.maxConnections = maxConnections;
        return this;
    }

    @Min(1)
    @Max(1000)
    public int getListPageSize()
    {
        return listPageSize;
    }

    @Config("s3.list-page-size")
    @ConfigDescription("Keys asked for per LIST request (S3 answers at most 1,000); smaller pages only make more requests, and serve tests of many-page listings")
    public S3Config setListPageSize(int listPageSize)
    {
        this.listPageSize = listPageSize;
        return this;
    }

    public Optional<String> getIamRole()
    {
        return Optional.ofNullable(iamRole);
    }

    @Config("s3.iam-role")
    @ConfigDescription("ARN of an IAM role to assume (through STS) with the configured or default credentials")
    public S3Config setIamRole(String iamRole)
    {
        this.iamRole = iamRole;
        return this;
    }

    public Optional<String> getExternalId()
    {
        return Optional.ofNullable(externalId);
    }

    @Config("s3.external-id")
    @ConfigSecuritySensitive
    @ConfigDescription("External ID the trust policy of s3.iam-role requires")
    public S3Config setExternalId(String externalId)
    {
        this.externalId = externalId;
        return this;
    }

    @NotNull
    public String getRoleSessionName()
    {
        return roleSessionName;
    }

    @Config("s3.role-session-name")
    @ConfigDescription("Session name of the assumed s3.iam-role, as CloudTrail shows it")
    public S3Config setRoleSessionName(String roleSessionName)
    {
        this.roleSessionName = roleSessionName;
        return this;
    }

    public Optional<String> getStsEndpoint()
    {
        return Optional.ofNullable(stsEndpoint);
    }

    @Config("s3.sts.endpoint")
    @ConfigDescription("STS endpoint URL used to assume s3.iam-role; default: STS of s3.sts.region")
    public S3Config setStsEndpoint(String stsEndpoint)
    {
        this.stsEndpoint = stsEndpoint;
        return this;
    }

    @AssertTrue(message = "s3.sts.endpoint must be an http:// or https:// URL")
    public boolean isStsEndpointValid()
    {
        return stsEndpoint == null || stsEndpoint.matches("https?://[^\\s/]+(/.*)?");
    }

    public Optional<String> getStsRegion()
    {
        return Optional.ofNullable(stsRegion);
    }

    @Config("s3.sts.region")
    @ConfigDescription("Region of STS used to assume s3.iam-role; default: s3.region")
    public S3Config setStsRegion(String stsRegion)
    {
        this.stsRegion = stsRegion;
        return this;
    }

    @AssertTrue(message = "s3.external-id, s3.sts.endpoint and s3.sts.region apply only with s3.iam-role")
    public boolean isStsSettingsWithRole()
    {
        return iamRole != null || (externalId == null && stsEndpoint == null && stsRegion == null);
    }

    @NotNull
    public String getSseType()
    {
        return sseType;
    }

    // text, not the enum: a wrong value then fails with the allowed ones named (airlift's enum conversion names none)
    @Config("s3.sse.type")
    @ConfigDescription("Server-side encryption of the objects: NONE, S3, KMS or CUSTOMER (SSE-C, needs s3.sse.customer-key)")
    public S3Config setSseType(String sseType)
    {
        this.sseType = sseType;
        return this;
    }

    public S3Config setSseType(S3SseType sseType)
    {
        return setSseType(sseType.name());
    }

    @AssertTrue(message = "s3.sse.type must be NONE, S3, KMS or CUSTOMER")
    public boolean isSseTypeValid()
    {
        return sseType == null || sseTypeOf(sseType).isPresent();
    }

    public S3SseType sseType()
    {
        return sseTypeOf(sseType).orElse(S3SseType.NONE);
    }

    private static Optional<S3SseType> sseTypeOf(String name)
    {
        if (name == null) {
            return Optional.empty();
        }
        for (S3SseType type : S3SseType.values()) {
            if (type.name().equalsIgnoreCase(name.strip())) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    public Optional<String> getSseKmsKeyId()
    {
        return Optional.ofNullable(sseKmsKeyId);
    }

    @Config("s3.sse.kms-key-id")
    @ConfigDescription("KMS key of SSE-KMS objects (reads need only kms:Decrypt on it; accepted for Hive/Iceberg parity)")
    public S3Config setSseKmsKeyId(String sseKmsKeyId)
    {
        this.sseKmsKeyId = sseKmsKeyId;
        return this;
    }

    /**
     * The SSE-C key, only when {@code s3.sse.type=CUSTOMER}.
     */
    public Optional<String> getSseCustomerKey()
    {
        return sseType() == S3SseType.CUSTOMER ? Optional.ofNullable(sseCustomerKey) : Optional.empty();
    }

    @Config("s3.sse.customer-key")
    @ConfigSecuritySensitive
    @ConfigDescription("Base64 256-bit key of SSE-C objects, with s3.sse.type=CUSTOMER")
    public S3Config setSseCustomerKey(String sseCustomerKey)
    {
        this.sseCustomerKey = sseCustomerKey;
        return this;
    }

    @AssertTrue(message = "s3.sse.type=CUSTOMER needs s3.sse.customer-key: a base64 256-bit key; s3.sse.customer-key applies only with s3.sse.type=CUSTOMER")
    public boolean isSseCustomerKeyValid()
    {
        if (sseType() == S3SseType.CUSTOMER) {
            return sseCustomerKey != null && SseCustomerKey.isValid(sseCustomerKey);
        }
        return sseCustomerKey == null;
    }
}
