package io.parquetbloom.s3;

import com.google.inject.Inject;
import com.google.inject.Provider;
import jakarta.annotation.PreDestroy;
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
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.utils.SdkAutoCloseable;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Builds the one AWS SDK v2 client a catalog uses on a node, with the credential forms of Trino's S3 file system:
 * static keys, the SDK's default chain (environment, system properties, web identity as on EKS IRSA, profiles with
 * SSO or assume-role, container and instance credentials), and on top of either an IAM role assumed through STS.
 * Everything it builds is closed when the catalog shuts down.
 */
public class S3ClientProvider
        implements Provider<S3Client>
{
    private final S3Config config;
    // guarded by this
    private final List<SdkAutoCloseable> built = new ArrayList<>();
    private S3Client client;

    @Inject
    public S3ClientProvider(S3Config config)
    {
        this.config = requireNonNull(config, "config is null");
    }

    @Override
    public synchronized S3Client get()
    {
        if (client != null) {
            return client;
        }
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
                .overrideConfiguration(override -> override.retryStrategy(retryStrategy(config)));
        config.getEndpoint().map(URI::create).ifPresent(builder::endpointOverride);
        client = builder.build();
        built.add(client);
        return client;
    }

    /**
     * Throttling, 5xx answers and I/O errors are retried after a short jittered exponential backoff, the same after
     * throttling as after any error: the SDK's default waits up to a second after a 503 SlowDown, and one such wait
     * on a query's critical path costs more than the whole lookup. Under {@code ADAPTIVE}, once S3 throttles, a rate
     * limit of the client's requests, shared by all its queries, also delays every request.
     */
    static RetryStrategy retryStrategy(S3Config config)
    {
        BackoffStrategy backoff = BackoffStrategy.exponentialDelay(config.getRetryBaseDelay().toJavaTime(), config.getRetryMaxDelay().toJavaTime());
        RetryStrategy.Builder<?, ?> builder = switch (config.getRetryMode()) {
            case STANDARD -> AwsRetryStrategy.standardRetryStrategy().toBuilder();
            case ADAPTIVE -> AwsRetryStrategy.adaptiveRetryStrategy().toBuilder();
        };
        return builder
                .maxAttempts(config.getMaxErrorRetries() + 1)
                .backoffStrategy(backoff)
                .throttlingBackoffStrategy(backoff)
                .build();
    }

    /**
     * The S3 client, its connection pool and its credential refresh threads go with the catalog.
     */
    @PreDestroy
    public synchronized void close()
    {
        // the client first: it may be using the credentials
        for (SdkAutoCloseable closeable : built.reversed()) {
            closeable.close();
        }
        built.clear();
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
        AwsCredentialsProvider base;
        if (config.getAwsAccessKey().isPresent()) {
            base = StaticCredentialsProvider.create(AwsBasicCredentials.create(config.getAwsAccessKey().get(), config.getAwsSecretKey().orElseThrow()));
        }
        else {
            DefaultCredentialsProvider chain = DefaultCredentialsProvider.builder().build();
            built.add(chain);
            base = chain;
        }
        if (config.getIamRole().isEmpty()) {
            return base;
        }
        StsClientBuilder sts = StsClient.builder()
                .credentialsProvider(base)
                .region(config.getStsRegion().map(Region::of).orElseGet(this::region));
        config.getStsEndpoint().map(URI::create).ifPresent(sts::endpointOverride);
        StsClient stsClient = sts.build();
        built.add(stsClient);
        StsAssumeRoleCredentialsProvider assumed = StsAssumeRoleCredentialsProvider.builder()
                .stsClient(stsClient)
                .refreshRequest(request -> {
                    request.roleArn(config.getIamRole().get()).roleSessionName(config.getRoleSessionName());
                    config.getExternalId().ifPresent(request::externalId);
                })
                // credentials are refreshed in the background before they expire, so no query waits on STS
                .asyncCredentialUpdateEnabled(true)
                .build();
        built.add(assumed);
        return assumed;
    }
}
