package io.parquetbloom.connector.parquet;

import io.parquetbloom.table.FileColumnResolver;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestWideningConversion
{
    @Test
    void widensAsTableFormatsDefine()
    {
        assertThat(FileColumnResolver.converts(INTEGER, DOUBLE)).isTrue();
        // a bigint does not fit a double exactly: not a widening
        assertThat(FileColumnResolver.converts(BIGINT, DOUBLE)).isFalse();
        assertThat(FileColumnResolver.converts(INTEGER, DecimalType.createDecimalType(11, 1))).isTrue();
        assertThat(FileColumnResolver.converts(INTEGER, DecimalType.createDecimalType(10, 1))).isFalse();
        assertThat(FileColumnResolver.converts(DecimalType.createDecimalType(10, 2), DecimalType.createDecimalType(20, 5))).isTrue();
        assertThat(FileColumnResolver.converts(DecimalType.createDecimalType(10, 2), DecimalType.createDecimalType(10, 3))).isFalse();
        assertThat(FileColumnResolver.converts(DATE, TIMESTAMP_MICROS)).isTrue();
        assertThat(FileColumnResolver.converts(VARCHAR, BIGINT)).isFalse();
    }

    @Test
    void valuesAreConvertedExactly()
    {
        assertThat(DOUBLE.getDouble(convert(TINYINT, DOUBLE, -7L), 0)).isEqualTo(-7.0);
        DecimalType shortDecimal = DecimalType.createDecimalType(11, 1);
        assertThat(shortDecimal.getLong(convert(INTEGER, shortDecimal, 1234567890L), 0)).isEqualTo(12345678900L);
        DecimalType longDecimal = DecimalType.createDecimalType(20, 5);
        Block rescaled = convert(DecimalType.createDecimalType(10, 2), longDecimal, 1234567L);
        assertThat(((Int128) longDecimal.getObject(rescaled, 0)).toBigInteger()).isEqualTo(BigInteger.valueOf(1234567000L));
        assertThat(TIMESTAMP_MICROS.getLong(convert(DATE, TIMESTAMP_MICROS, 2L), 0)).isEqualTo(2 * 86_400_000_000L);
        // NULL stays NULL
        BlockBuilder nulls = INTEGER.createBlockBuilder(null, 1);
        nulls.appendNull();
        assertThat(new WideningConversion(INTEGER, DOUBLE).convert(nulls.build()).isNull(0)).isTrue();
    }

    private static Block convert(Type fileType, Type tableType, long value)
    {
        BlockBuilder builder = fileType.createBlockBuilder(null, 1);
        fileType.writeLong(builder, value);
        return new WideningConversion(fileType, tableType).convert(builder.build());
    }
}
