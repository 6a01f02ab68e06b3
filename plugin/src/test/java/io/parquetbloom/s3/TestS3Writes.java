package io.parquetbloom.s3;

import io.parquetbloom.s3.S3ObjectStore.PutCondition;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a PUT's answer becomes a result: 412, and 409 for a conditional PUT that raced another, mean "the condition did
 * not hold"; a 409 on a plain PUT is an error naming the object (it was a bare {@code NoSuchElementException}).
 */
final class TestS3Writes
{
    private static final S3Location LOCATION = new S3Location("lake", "warehouse/t/_key_index/device_id/segment-1");

    @Test
    void conflictOnAPlainPutIsAnErrorNamingTheObject()
    {
        S3Writes writes = new S3Writes(answering(409, "OperationAborted"), Optional.empty(), new S3Stats());
        assertThatThrownBy(() -> writes.write(LOCATION, RequestBody.fromString("x"), new PutCondition.None(), new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_S3_ERROR.toErrorCode()))
                .hasMessageContaining(LOCATION.toString())
                .hasMessageContaining("OperationAborted");
    }

    @Test
    void conflictOrFailedConditionOnAConditionalPutIsNotWritten()
    {
        for (int status : new int[] {409, 412}) {
            S3Writes writes = new S3Writes(answering(status, "PreconditionFailed"), Optional.empty(), new S3Stats());
            assertThat(writes.write(LOCATION, RequestBody.fromString("x"), new PutCondition.Absent(), new S3RequestStats())).isEmpty();
            assertThat(writes.write(LOCATION, RequestBody.fromString("x"), new PutCondition.Matches("etag-1"), new S3RequestStats())).isEmpty();
        }
    }

    private static S3Client answering(int status, String code)
    {
        return new S3Client()
        {
            @Override
            public PutObjectResponse putObject(PutObjectRequest request, RequestBody body)
            {
                throw (S3Exception) S3Exception.builder()
                        .statusCode(status)
                        .message("answered " + status)
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("answered " + status).build())
                        .build();
            }

            @Override
            public String serviceName()
            {
                return "s3";
            }

            @Override
            public void close() {}
        };
    }
}
