package io.parquetbloom.s3;

import com.google.common.io.ByteStreams;
import io.parquetbloom.s3.S3ObjectStore.PutCondition;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The store's writes: PUTs, conditional ones for objects replaced by compare-and-swap, multipart uploads of large
 * files streamed part by part, and DELETEs. S3 action names in errors are the IAM actions a policy grants.
 */
final class S3Writes
{
    private final S3Client client;
    private final Optional<SseCustomerKey> customerKey;
    private final S3Stats nodeStats;

    S3Writes(S3Client client, Optional<SseCustomerKey> customerKey, S3Stats nodeStats)
    {
        this.client = requireNonNull(client, "client is null");
        this.customerKey = requireNonNull(customerKey, "customerKey is null");
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
    }

    /**
     * Writes an object, from a file or from bytes; S3 action names in errors are the IAM actions a policy grants.
     *
     * @return the new object's ETag, or empty when S3 answered 412: the condition did not hold
     */
    Optional<String> write(S3Location location, RequestBody body, PutCondition condition, S3RequestStats stats)
    {
        PutObjectRequest.Builder request = PutObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        switch (condition) {
            case PutCondition.None _ -> {}
            case PutCondition.Absent _ -> request.ifNoneMatch("*");
            case PutCondition.Matches(String etag) -> request.ifMatch(S3Errors.quoted(etag));
        }
        SseCustomerKey.apply(customerKey, request::sseCustomerAlgorithm, request::sseCustomerKey, request::sseCustomerKeyMD5);
        try {
            return Optional.of(S3Errors.stripQuotes(client.putObject(request.build(), body).eTag()));
        }
        catch (SdkException e) {
            if (!(condition instanceof PutCondition.None) && e instanceof AwsServiceException service && (service.statusCode() == 412 || service.statusCode() == 409)) {
                // 409 ConditionalRequestConflict: another conditional PUT of the key was in flight
                return Optional.empty();
            }
            if (e instanceof AwsServiceException service && service.statusCode() == 404 && condition instanceof PutCondition.Matches) {
                // AWS answers an If-Match on a key deleted since with 404, not 412: the condition did not hold either
                return Optional.empty();
            }
            throw S3Errors.translateWrite("s3:PutObject", location, e);
        }
    }

    /**
     * Writes a local file: with one PUT, or, when larger than {@code partSize}, as a multipart upload of parts of
     * that size (a single PUT takes at most 5 GB), unconditionally. An upload that fails is aborted.
     */
    Optional<String> write(S3Location location, Path file, PutCondition condition, long partSize, S3RequestStats stats)
    {
        long size;
        try {
            size = Files.size(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (size <= partSize) {
            return write(location, RequestBody.fromFile(file), condition, stats);
        }
        if (!(condition instanceof PutCondition.None)) {
            throw new IllegalArgumentException("a multipart upload here is unconditional");
        }
        return Optional.of(writeMultipart(location, file, size, partSize, stats));
    }

    private String writeMultipart(S3Location location, Path file, long size, long partSize, S3RequestStats stats)
    {
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        SseCustomerKey.apply(customerKey, create::sseCustomerAlgorithm, create::sseCustomerKey, create::sseCustomerKeyMD5);
        String uploadId;
        try {
            uploadId = client.createMultipartUpload(create.build()).uploadId();
        }
        catch (SdkException e) {
            throw S3Errors.translateWrite("s3:PutObject", location, e);
        }
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (Part part : parts(size, partSize)) {
                UploadPartRequest.Builder upload = UploadPartRequest.builder()
                        .bucket(location.bucket())
                        .key(location.key())
                        .uploadId(uploadId)
                        .partNumber(part.number())
                        .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
                SseCustomerKey.apply(customerKey, upload::sseCustomerAlgorithm, upload::sseCustomerKey, upload::sseCustomerKeyMD5);
                // streamed from the file (again on each retry): a part never sits in memory whole
                RequestBody body = RequestBody.fromContentProvider(() -> part.open(file), part.length(), "application/octet-stream");
                String etag = client.uploadPart(upload.build(), body).eTag();
                parts.add(CompletedPart.builder().partNumber(part.number()).eTag(etag).build());
            }
            return S3Errors.stripQuotes(client.completeMultipartUpload(request -> request
                    .bucket(location.bucket())
                    .key(location.key())
                    .uploadId(uploadId)
                    .multipartUpload(upload -> upload.parts(parts))).eTag());
        }
        catch (SdkException e) {
            abort(location, uploadId);
            throw S3Errors.translateWrite("s3:PutObject", location, e);
        }
        catch (RuntimeException e) {
            abort(location, uploadId);
            throw e;
        }
    }

    /**
     * One part of a multipart upload: {@code length} bytes of the file from {@code offset}.
     */
    record Part(int number, long offset, long length)
    {
        InputStream open(Path file)
        {
            try {
                FileChannel channel = FileChannel.open(file);
                channel.position(offset);
                return ByteStreams.limit(Channels.newInputStream(channel), length);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static List<Part> parts(long size, long partSize)
    {
        List<Part> parts = new ArrayList<>();
        int number = 1;
        for (long offset = 0; offset < size; offset += partSize, number++) {
            parts.add(new Part(number, offset, Math.min(partSize, size - offset)));
        }
        return parts;
    }

    private void abort(S3Location location, String uploadId)
    {
        try {
            client.abortMultipartUpload(request -> request.bucket(location.bucket()).key(location.key()).uploadId(uploadId));
        }
        catch (SdkException e) {
            // the bucket's lifecycle rule for incomplete uploads (or the next try) cleans it up
        }
    }

    Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats)
    {
        return write(location, RequestBody.fromBytes(bytes), condition, stats);
    }

    void delete(S3Location location, S3RequestStats stats)
    {
        delete(location, Optional.empty(), stats);
    }

    /**
     * Deletes the object only if its ETag is still {@code etag} ({@code If-Match}).
     *
     * @return false when S3 answered 412 (or 409): the object was replaced since
     */
    boolean deleteIfMatches(S3Location location, String etag, S3RequestStats stats)
    {
        return delete(location, Optional.of(etag), stats);
    }

    private boolean delete(S3Location location, Optional<String> etag, S3RequestStats stats)
    {
        DeleteObjectRequest.Builder request = DeleteObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .overrideConfiguration(override -> override.addMetricPublisher(new AttemptRecorder(stats, nodeStats)));
        etag.ifPresent(value -> request.ifMatch(S3Errors.quoted(value)));
        try {
            client.deleteObject(request.build());
            return true;
        }
        catch (SdkException e) {
            if (etag.isPresent() && e instanceof AwsServiceException service && (service.statusCode() == 412 || service.statusCode() == 409)) {
                return false;
            }
            if (e instanceof NoSuchKeyException || (e instanceof AwsServiceException service && service.statusCode() == 404 && !"NoSuchBucket".equals(S3Errors.errorCode(service)))) {
                return true;
            }
            throw S3Errors.translateWrite("s3:DeleteObject", location, e);
        }
    }
}
