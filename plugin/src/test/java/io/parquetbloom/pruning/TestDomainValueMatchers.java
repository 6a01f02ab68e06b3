package io.parquetbloom.pruning;

import io.airlift.slice.Slice;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestDomainValueMatchers
{
    @Test
    void aLargeDomainIsBuiltOnceASmallOneEveryTime()
    {
        DomainValueMatchers matchers = new DomainValueMatchers();
        Domain large = keys(DomainValueMatchers.MIN_CACHED_VALUES);
        DomainValueMatcher first = matchers.matcher(VARCHAR, large);
        assertThat(matchers.matcher(VARCHAR, large)).isSameAs(first);
        // an equal domain of another query (another instance) finds it too
        assertThat(matchers.matcher(VARCHAR, keys(DomainValueMatchers.MIN_CACHED_VALUES))).isSameAs(first);
        assertThat(first.domain()).isEqualTo(large);

        Domain small = keys(DomainValueMatchers.MIN_CACHED_VALUES - 1);
        assertThat(matchers.matcher(VARCHAR, small)).isNotSameAs(matchers.matcher(VARCHAR, small));
        assertThat(matchers.matcher(VARCHAR, small).domain()).isEqualTo(small);
    }

    private static Domain keys(int count)
    {
        List<Slice> values = IntStream.range(0, count).mapToObj(i -> utf8Slice("key-" + i)).toList();
        return Domain.create(ValueSet.copyOf(VARCHAR, values), false);
    }
}
