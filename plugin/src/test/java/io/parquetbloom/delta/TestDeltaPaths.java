package io.parquetbloom.delta;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestDeltaPaths
{
    private static final S3Location TABLE = S3Location.parse("s3://lake/warehouse/t/");

    @Test
    void relativePathsAreDecodedOnceBelowTheTable()
    {
        // Spark escapes the folder's '%' (a folder named bar+%21), and the log encodes the path again
        assertThat(DeltaPaths.resolve(TABLE, "_2=bar+%252521/part-0.parquet")).isEqualTo(S3Location.parse("s3://lake/warehouse/t/_2=bar+%2521/part-0.parquet"));
        // a '+' is itself, never a space
        assertThat(DeltaPaths.resolve(TABLE, "a+b%20c/%C3%BC.parquet")).isEqualTo(S3Location.parse("s3://lake/warehouse/t/a+b c/\u00FC.parquet"));
        assertThat(DeltaPaths.resolve(TABLE, "plain.parquet")).isEqualTo(S3Location.parse("s3://lake/warehouse/t/plain.parquet"));
    }

    @Test
    void absolutePathsNameTheirObject()
    {
        assertThat(DeltaPaths.resolve(TABLE, "s3a://other/x/part%201.parquet")).isEqualTo(S3Location.parse("s3://other/x/part 1.parquet"));
        assertThat(DeltaPaths.resolve(TABLE, "s3://lake/warehouse/t/f.parquet")).isEqualTo(S3Location.parse("s3://lake/warehouse/t/f.parquet"));
        assertThatThrownBy(() -> DeltaPaths.resolve(TABLE, "abfss://c@a.dfs.core.windows.net/f.parquet"))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("is not in S3");
        assertThatThrownBy(() -> DeltaPaths.resolve(TABLE, "bad%2"))
                .hasMessageContaining("has a '%' that is not an escape");
    }
}
