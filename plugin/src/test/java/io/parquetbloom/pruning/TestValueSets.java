package io.parquetbloom.pruning;

import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;

final class TestValueSets
{
    @Test
    void countsWhatASetLists()
    {
        assertThat(ValueSets.listedValues(ValueSet.copyOf(BIGINT, LongStream.range(0, 2_000).boxed().toList()))).isEqualTo(2_000);
        assertThat(ValueSets.listedValues(ValueSet.ofRanges(Range.lessThan(BIGINT, 0L), Range.range(BIGINT, 5L, true, 9L, true)))).isEqualTo(2);
        assertThat(ValueSets.listedValues(ValueSet.all(BIGINT))).isEqualTo(1);
        assertThat(ValueSets.listedValues(ValueSet.none(BIGINT))).isZero();
        assertThat(ValueSets.listedValues(ValueSet.copyOf(BIGINT, List.of(1L, 2L)).complement())).isEqualTo(3);
    }
}
