package io.parquetbloom.s3;

import com.google.inject.Inject;
import com.google.inject.Provider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.net.URI;

import static java.util.Objects.requireNonNull;

/**
 * Builds the one AWS SDK v2 client a catalog uses on a node.
 */
public class S3ClientProvider
        implements Provider<S3Client>
{
    private final S3Config config;

    @Inject
    public S3ClientProvider(S3Config config)
    {
        this.config = requireNonNull(config, "config is null");
    }

    @Override
    public S3Client get()
    {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(ApacheHttpClient.builder()
                        .maxConnections(config.getMaxConnections())
                        .connectionTimeout(config.getConnectTimeout().toJavaTime())
                        .socketTimeout(config.getSocketReadTimeout().toJavaTime()))
                .region(region())
                .forcePathStyle(config.isPathStyleAccess())
                .credentialsProvider(credentials())
                // ranged reads of immutable Parquet objects: no payload checksums (S3-compatible servers differ in support)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // the standard strategy retries throttling and 5xx with exponential backoff and jitter
                .overrideConfiguration(override -> override.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(config.getMaxErrorRetries() + 1)
                        .build()));
        config.getEndpoint().map(URI::create).ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private Region region()
    {
        if (config.getRegion().isPresent()) {
            return Region.of(config.getRegion().get());
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        }
        catch (RuntimeException e) {
            // S3-compatible servers ignore the region, but the SDK needs one to sign requests
            return Region.US_EAST_1;
        }
    }

    private AwsCredentialsProvider credentials()
    {
        if (config.getAwsAccessKey().isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(config.getAwsAccessKey().get(), config.getAwsSecretKey().orElseThrow()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
