package io.parquetbloom;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.USER_ERROR;

public enum ParquetBloomErrorCode
        implements ErrorCodeSupplier
{
    PARQUET_BLOOM_S3_ERROR(0, EXTERNAL),
    PARQUET_BLOOM_S3_ACCESS_DENIED(1, EXTERNAL),
    PARQUET_BLOOM_BUCKET_NOT_FOUND(2, EXTERNAL),
    PARQUET_BLOOM_OBJECT_NOT_FOUND(3, EXTERNAL),
    PARQUET_BLOOM_BAD_DATA(4, EXTERNAL),
    PARQUET_BLOOM_SCHEMA_MISMATCH(5, EXTERNAL),
    PARQUET_BLOOM_READ_ERROR(6, EXTERNAL),
    PARQUET_BLOOM_TABLE_EMPTY(7, USER_ERROR),
    PARQUET_BLOOM_OBJECT_CHANGED(8, EXTERNAL),
    PARQUET_BLOOM_AMBIGUOUS_LOCATION(9, USER_ERROR),
    PARQUET_BLOOM_KEY_INDEX_CONFLICT(10, EXTERNAL),
    PARQUET_BLOOM_KEY_INDEX_ERROR(11, EXTERNAL),
    PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT(12, USER_ERROR),
    PARQUET_BLOOM_REGISTRY_ERROR(13, EXTERNAL),
    PARQUET_BLOOM_CONDITIONAL_WRITES_IGNORED(14, EXTERNAL),
    PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE(15, USER_ERROR),
    /**/;

    private final ErrorCode errorCode;

    ParquetBloomErrorCode(int code, ErrorType type)
    {
        // 0x0a0b_0000: a range no bundled Trino connector uses
        errorCode = new ErrorCode(code + 0x0a0b_0000, name(), type);
    }

    @Override
    public ErrorCode toErrorCode()
    {
        return errorCode;
    }
}
