package io.parquetbloom.table;

import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Decimals;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestPartitionValues
{
    @Test
    void valuesAreTheNativeValuesOfTheirType()
    {
        for (Type type : new Type[] {BIGINT, INTEGER, SMALLINT, TINYINT}) {
            assertThat(PartitionValues.toNativeValue(type, Optional.of("-7"))).as(type.toString()).isEqualTo(-7L);
        }
        assertThat(PartitionValues.toNativeValue(DOUBLE, Optional.of("1.5"))).isEqualTo(1.5);
        assertThat(PartitionValues.toNativeValue(REAL, Optional.of("1.5"))).isEqualTo((long) Float.floatToRawIntBits(1.5f));
        assertThat(PartitionValues.toNativeValue(BOOLEAN, Optional.of("true"))).isEqualTo(true);
        assertThat(PartitionValues.toNativeValue(DATE, Optional.of("1970-01-02"))).isEqualTo(1L);
        assertThat(PartitionValues.toNativeValue(DecimalType.createDecimalType(5, 2), Optional.of("1.5"))).isEqualTo(150L);
        assertThat(PartitionValues.toNativeValue(DecimalType.createDecimalType(25, 2), Optional.of("-1.25")))
                .isEqualTo(Decimals.encodeScaledValue(new BigDecimal("-1.25"), 2));
        assertThat(PartitionValues.toNativeValue(INTEGER, Optional.empty())).isNull();
        // never rounded
        assertThatThrownBy(() -> PartitionValues.toNativeValue(DecimalType.createDecimalType(5, 1), Optional.of("1.25"))).isInstanceOf(ArithmeticException.class);
    }
}
