package io.parquetbloom.s3;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import io.airlift.units.Duration;
import io.airlift.units.MinDuration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;

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
    private int maxConnections = 500;

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
}
