package io.parquetbloom.pruning;

import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.trino.spi.predicate.Range.greaterThan;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.Float.floatToRawIntBits;
import static org.assertj.core.api.Assertions.assertThat;

final class TestDomainValueMatcher
{
    @Test
    void varcharUsesExactEquality()
    {
        Domain domain = Domain.multipleValues(VARCHAR, List.of(Slices.utf8Slice("a"), Slices.utf8Slice("b")));
        assertThat(matches(VARCHAR, domain, Slices.utf8Slice("x"), Slices.utf8Slice("b"))).isTrue();
        assertThat(matches(VARCHAR, domain, Slices.utf8Slice("x"), Slices.utf8Slice("a "), Slices.utf8Slice("B"))).isFalse();
    }

    @Test
    void nullsMatchOnlyWhenTheDomainAllowsThem()
    {
        Domain value = Domain.singleValue(BIGINT, 7L);
        assertThat(matches(BIGINT, value, null, 8L)).isFalse();
        assertThat(matches(BIGINT, Domain.create(ValueSet.of(BIGINT, 7L), true), null, 8L)).isTrue();
        assertThat(matches(BIGINT, Domain.onlyNull(BIGINT), 8L, null)).isTrue();
        assertThat(matches(BIGINT, Domain.notNull(BIGINT), (Object) null)).isFalse();
    }

    @Test
    void negativeZeroEqualsZeroForFloatingPoint()
    {
        // the bits differ, SQL says equal: a hash set of native values would call this row group empty
        assertThat(matches(DOUBLE, Domain.singleValue(DOUBLE, 0.0), -0.0)).isTrue();
        assertThat(matches(REAL, Domain.singleValue(REAL, (long) floatToRawIntBits(0.0f)), (long) floatToRawIntBits(-0.0f))).isTrue();
        assertThat(matches(DOUBLE, Domain.singleValue(DOUBLE, 1.5), 1.25, Double.NaN)).isFalse();
    }

    @Test
    void rangesAskTheDomain()
    {
        Domain range = Domain.create(ValueSet.ofRanges(greaterThan(BIGINT, 100L)), false);
        assertThat(matches(BIGINT, range, 5L, 100L)).isFalse();
        assertThat(matches(BIGINT, range, 5L, 101L)).isTrue();
    }

    private static boolean matches(Type type, Domain domain, Object... values)
    {
        BlockBuilder builder = type.createBlockBuilder(null, values.length);
        Arrays.stream(values).forEach(value -> writeNativeValue(type, builder, value));
        Block block = builder.build();
        return new DomainValueMatcher(type, domain).anyMatch(block);
    }
}
