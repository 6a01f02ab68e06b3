package io.parquetbloom.s3;

import io.parquetbloom.s3.S3ObjectStore.StoredObject;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.RetryableException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The store's GETs: ranged reads pinned by {@code If-Match} to the listed version (hedged when slow, where enabled),
 * and whole small objects read with their ETag.
 */
final class S3Reads
{
    // registrations and key index pointers are a few kilobytes; an object past this is refused, never held
    static final int MAX_SMALL_OBJECT_BYTES = 1 << 20;

    private final S3Client client;
    private final Optional<SseCustomerKey> customerKey;
    private final S3Stats nodeStats;
    private final Optional<ReadHedger> hedger;

    S3Reads(S3Client client, Optional<SseCustomerKey> customerKey, S3Stats nodeStats, Optional<ReadHedger> hedger)
    {
        this.client = requireNonNull(client, "client is null");
        this.customerKey = requireNonNull(customerKey, "customerKey is null");
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
        this.hedger = requireNonNull(hedger, "hedger is null");
    }

    /**
     * Reads {@code length} bytes at {@code position} of the listed version of an object with one ranged GET. The GET
     * carries {@code If-Match} with the listed ETag, so bytes of a rewritten object are never mixed with metadata
     * planned from the old one: S3 answers 412 and the query fails with {@code PARQUET_BLOOM_OBJECT_CHANGED}.
     */
    byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        if (length == 0) {
            return new byte[0];
        }
        GetObjectRequest request = getRequest(object, position, length, stats);
        if (hedger.isEmpty()) {
            return get(object, request, position, length, stats, () -> false);
        }
        return hedger.get().read(decided -> get(object, request, position, length, stats, decided), length, stats, object.location());
    }

    private GetObjectRequest getRequest(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        S3Location location = object.location();
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .range("bytes=%d-%d".formatted(position, position + length - 1))
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        if (object.hasEtag()) {
            request.ifMatch(S3Errors.quoted(object.etag()));
        }
        SseCustomerKey.apply(customerKey, request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        return request.build();
    }

    /**
     * @param abandoned whether nobody waits for this GET any more (the other GET of a hedged pair answered first): its
     * interruption is then no failure
     */
    private byte[] get(S3ObjectInfo object, GetObjectRequest request, long position, int length, S3RequestStats stats, BooleanSupplier abandoned)
    {
        S3Location location = object.location();
        long start = System.nanoTime();
        byte[] bytes;
        try {
            // read straight into an array of the length asked for: the SDK's byte transformer grows a buffer and copies it
            bytes = client.getObject(request, (response, body) -> readUpTo(body, length));
        }
        catch (SdkException e) {
            stats.recordGet(0);
            nodeStats.recordGet(0);
            if (!(e instanceof AbortedException) && !Thread.currentThread().isInterrupted() && !abandoned.getAsBoolean()) {
                // a GET interrupted because nobody wants its bytes any more (a prefetch after LIMIT) did not fail
                nodeStats.recordFailure();
            }
            if (e instanceof AwsServiceException service && service.statusCode() == 412) {
                throw new TrinoException(PARQUET_BLOOM_OBJECT_CHANGED, "Object %s changed while the query ran: it no longer has the ETag %s it was listed with; run the query again (with metadata.listing-cache-ttl set, once the cached listing has expired)".formatted(location, object.etag()), e);
            }
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(S3Errors.errorCode(service)))) {
                throw new TrinoException(PARQUET_BLOOM_OBJECT_CHANGED, "Object %s was deleted while the query ran (it was listed with ETag %s); run the query again (with metadata.listing-cache-ttl set, once the cached listing has expired)".formatted(location, object.etag()), e);
            }
            throw S3Errors.translate("read", location, e);
        }
        stats.recordGet(bytes.length);
        nodeStats.recordGet(bytes.length);
        if (bytes.length > length) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Long read of %s: asked for %d bytes at %d, got more (the server did not answer the range asked for)".formatted(location, length, position));
        }
        if (bytes.length != length) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Short read of %s: asked for %d bytes at %d, got %d (the object is shorter than its metadata says)".formatted(location, length, position, bytes.length));
        }
        hedger.ifPresent(hedger -> hedger.recordLatency(length, System.nanoTime() - start));
        return bytes;
    }

    /**
     * The body's bytes, at most {@code length} of them; one more where the body is longer than asked, so that the
     * caller sees it is not the range it asked for.
     */
    private static byte[] readUpTo(InputStream body, int length)
    {
        try {
            byte[] bytes = new byte[length];
            int read = body.readNBytes(bytes, 0, length);
            if (read < length) {
                return Arrays.copyOf(bytes, read);
            }
            if (body.read() != -1) {
                return Arrays.copyOf(bytes, length + 1);
            }
            return bytes;
        }
        catch (IOException e) {
            // a body cut short is retried, as the SDK's own byte transformer has it retried
            throw RetryableException.builder().message("Failed to read response.").cause(e).build();
        }
    }

    /**
     * A whole small object and its ETag, read unconditionally (the object a conditional PUT may replace), of at most
     * {@value #MAX_SMALL_OBJECT_BYTES} bytes.
     *
     * @return empty when there is no such object
     */
    Optional<StoredObject> readWhole(S3Location location, S3RequestStats stats)
    {
        return readWhole(location, MAX_SMALL_OBJECT_BYTES, "not one this connector wrote (a table registration or a key index pointer is a few kilobytes)", stats);
    }

    /**
     * A whole object of at most {@code maxBytes} and its ETag, read unconditionally; a larger one is refused with
     * {@code tooLarge} as the reason, not held.
     *
     * @return empty when there is no such object
     */
    Optional<StoredObject> readWhole(S3Location location, int maxBytes, String tooLarge, S3RequestStats stats)
    {
        GetObjectRequest.Builder request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        SseCustomerKey.apply(customerKey, request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        try (ResponseInputStream<GetObjectResponse> response = client.getObject(request.build())) {
            // read no more than a small object can be: whatever else sits under its key is refused, not held
            byte[] bytes = response.readNBytes(maxBytes + 1);
            stats.recordGet(bytes.length);
            nodeStats.recordGet(bytes.length);
            if (bytes.length > maxBytes) {
                response.abort();
                throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Object %s is larger than %d bytes: %s".formatted(location, maxBytes, tooLarge));
            }
            return Optional.of(new StoredObject(bytes, S3Errors.stripQuotes(response.response().eTag())));
        }
        catch (IOException e) {
            stats.recordGet(0);
            nodeStats.recordGet(0);
            throw new TrinoException(PARQUET_BLOOM_READ_ERROR, "Cannot read %s: %s".formatted(location, e.getMessage()), e);
        }
        catch (SdkException e) {
            stats.recordGet(0);
            nodeStats.recordGet(0);
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(S3Errors.errorCode(service)))) {
                return Optional.empty();
            }
            throw S3Errors.translate("read", location, e);
        }
    }
}
