package io.parquetbloom.s3;

import com.google.common.base.Throwables;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

import static com.google.common.base.MoreObjects.firstNonNull;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BUCKET_NOT_FOUND;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_NOT_FOUND;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ACCESS_DENIED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;

/**
 * S3's failures as {@link TrinoException}s that name the object and the action, never the credentials; and the ETag
 * quoting S3 uses.
 */
final class S3Errors
{
    private S3Errors() {}

    static TrinoException translateWrite(String action, S3Location location, SdkException e)
    {
        if (e instanceof AwsServiceException service && service.statusCode() == 403) {
            return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "%s on %s was denied (%s): the catalog's S3 credentials need %s there".formatted(action, location, errorCode(service), action), e);
        }
        return translate(action.substring("s3:".length()), location, e);
    }

    public static TrinoException translate(String action, S3Location location, SdkException e)
    {
        if (e instanceof NoSuchBucketException) {
            return new TrinoException(PARQUET_BLOOM_BUCKET_NOT_FOUND, "Cannot %s %s: bucket %s does not exist".formatted(action, location, location.bucket()), e);
        }
        if (e instanceof NoSuchKeyException) {
            return new TrinoException(PARQUET_BLOOM_OBJECT_NOT_FOUND, "Cannot %s %s: object not found".formatted(action, location), e);
        }
        if (e instanceof AwsServiceException service && isSts(service)) {
            // the credentials for s3.iam-role could not be had: S3 was never asked
            return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "Cannot %s %s: STS refused to assume s3.iam-role: STS answered %s%s; check s3.iam-role, s3.external-id, s3.sts.endpoint and the role's trust policy".formatted(action, location, answer(service), attempts(e)), e);
        }
        if (e instanceof AwsServiceException service) {
            String code = errorCode(service);
            int status = service.statusCode();
            if (status == 403) {
                return new TrinoException(PARQUET_BLOOM_S3_ACCESS_DENIED, "Access denied to %s (%s): check the catalog's S3 credentials (s3.aws-access-key and s3.aws-secret-key, s3.iam-role, or the default credential chain), s3.sse.* and the bucket policy".formatted(location, code), e);
            }
            if (status == 404 && "NoSuchBucket".equals(code)) {
                return new TrinoException(PARQUET_BLOOM_BUCKET_NOT_FOUND, "Cannot %s %s: bucket %s does not exist".formatted(action, location, location.bucket()), e);
            }
            if (status == 404) {
                return new TrinoException(PARQUET_BLOOM_OBJECT_NOT_FOUND, "Cannot %s %s: object not found".formatted(action, location), e);
            }
            if (status == 416) {
                return new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot %s %s: range not satisfiable (object shorter than its metadata says)".formatted(action, location), e);
            }
            return new TrinoException(PARQUET_BLOOM_S3_ERROR, "Cannot %s %s: S3 answered %s%s".formatted(action, location, answer(service), attempts(e)), e);
        }
        return new TrinoException(PARQUET_BLOOM_S3_ERROR, "Cannot %s %s: %s%s".formatted(action, location, cause(e), attempts(e)), e);
    }

    /**
     * What went wrong below the SDK's summary ("Failed to read response."): the cut connection or the timeout.
     */
    private static String cause(SdkException e)
    {
        String message = firstNonNull(e.rawMessage(), e.getClass().getSimpleName());
        Throwable root = Throwables.getRootCause(e);
        if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
            return "%s (%s: %s)".formatted(message, root.getClass().getSimpleName(), root.getMessage());
        }
        return message;
    }

    private static String attempts(SdkException e)
    {
        Integer attempts = e.numAttempts();
        return attempts == null || attempts <= 1 ? "" : " after %d attempts".formatted(attempts);
    }

    private static boolean isSts(AwsServiceException service)
    {
        return service.awsErrorDetails() != null && "sts".equalsIgnoreCase(service.awsErrorDetails().serviceName());
    }

    /**
     * Status, error code and S3's own explanation (which never echoes credentials).
     */
    private static String answer(AwsServiceException service)
    {
        StringBuilder answer = new StringBuilder().append(service.statusCode());
        String code = errorCode(service);
        if (code != null) {
            answer.append(' ').append(code);
        }
        String message = service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorMessage();
        if (message != null && !message.isBlank()) {
            answer.append(" (").append(message).append(')');
        }
        return answer.toString();
    }

    static String errorCode(AwsServiceException service)
    {
        return service.awsErrorDetails() != null ? service.awsErrorDetails().errorCode() : null;
    }

    static String quoted(String etag)
    {
        return "\"" + etag + "\"";
    }

    static String stripQuotes(String etag)
    {
        if (etag == null) {
            return "";
        }
        if (etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")) {
            return etag.substring(1, etag.length() - 1);
        }
        return etag;
    }
}
