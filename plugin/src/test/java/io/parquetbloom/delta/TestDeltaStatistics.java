package io.parquetbloom.delta;

import io.airlift.slice.Slices;
import io.trino.spi.predicate.Domain;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestDeltaStatistics
{
    // as Spark wrote them in the golden table dv-with-columnmapping (col1, col2 by physical name)
    private static final String GOLDEN = "{\"numRecords\":3,\"minValues\":{\"col-9f07\":0,\"col-ae46\":\"foo0\"},\"maxValues\":{\"col-9f07\":20,\"col-ae46\":\"foo0\"},"
            + "\"nullCount\":{\"col-9f07\":0,\"col-ae46\":0},\"tightBounds\":true}";

    @Test
    void integerAndStringBoundsExcludeValuesOutsideThem()
    {
        DeltaStatistics stats = DeltaStatistics.of(Optional.of(GOLDEN));

        assertThat(stats.numRecords()).hasValue(3);
        assertThat(stats.mightMatch("col-9f07", INTEGER, Domain.singleValue(INTEGER, 25L))).isFalse();
        assertThat(stats.mightMatch("col-9f07", INTEGER, Domain.singleValue(INTEGER, 10L))).isTrue();
        assertThat(stats.mightMatch("col-9f07", INTEGER, Domain.singleValue(INTEGER, 20L))).isTrue();
        assertThat(stats.mightMatch("col-9f07", INTEGER, Domain.onlyNull(INTEGER))).isFalse();
        assertThat(stats.mightMatch("col-ae46", VARCHAR, Domain.singleValue(VARCHAR, Slices.utf8Slice("foo1")))).isFalse();
        assertThat(stats.mightMatch("col-ae46", VARCHAR, Domain.singleValue(VARCHAR, Slices.utf8Slice("foo0")))).isTrue();
        // a column without statistics, or no statistics at all: might match
        assertThat(stats.mightMatch("other", BIGINT, Domain.singleValue(BIGINT, 1L))).isTrue();
        assertThat(DeltaStatistics.of(Optional.empty()).mightMatch("col-9f07", INTEGER, Domain.singleValue(INTEGER, 25L))).isTrue();
        assertThat(DeltaStatistics.of(Optional.of("not json")).mightMatch("col-9f07", INTEGER, Domain.singleValue(INTEGER, 25L))).isTrue();
    }

    @Test
    void onlyExactBoundsPrune()
    {
        // a string at Delta's 32-character prefix was truncated: its maximum is no bound
        String prefix = "a".repeat(32);
        DeltaStatistics truncated = DeltaStatistics.of(Optional.of("{\"numRecords\":2,\"minValues\":{\"s\":\"%s\"},\"maxValues\":{\"s\":\"%s\"},\"nullCount\":{\"s\":0}}".formatted(prefix, prefix)));
        assertThat(truncated.mightMatch("s", VARCHAR, Domain.singleValue(VARCHAR, Slices.utf8Slice(prefix + "zzz")))).isTrue();
        // doubles prune nothing: writers leave NaN out of the bounds
        DeltaStatistics doubles = DeltaStatistics.of(Optional.of("{\"numRecords\":2,\"minValues\":{\"d\":1.0},\"maxValues\":{\"d\":2.0},\"nullCount\":{\"d\":0}}"));
        assertThat(doubles.mightMatch("d", DOUBLE, Domain.singleValue(DOUBLE, 5.0))).isTrue();
        // dates are exact
        DeltaStatistics dates = DeltaStatistics.of(Optional.of("{\"numRecords\":2,\"minValues\":{\"d\":\"2026-01-01\"},\"maxValues\":{\"d\":\"2026-01-31\"},\"nullCount\":{\"d\":0}}"));
        assertThat(dates.mightMatch("d", DATE, Domain.singleValue(DATE, LocalDate.parse("2026-02-01").toEpochDay()))).isFalse();
        assertThat(dates.mightMatch("d", DATE, Domain.singleValue(DATE, LocalDate.parse("2026-01-15").toEpochDay()))).isTrue();
    }

    @Test
    void aColumnAllNullMatchesOnlyNull()
    {
        DeltaStatistics stats = DeltaStatistics.of(Optional.of("{\"numRecords\":4,\"minValues\":{},\"maxValues\":{},\"nullCount\":{\"c\":4}}"));

        assertThat(stats.mightMatch("c", BIGINT, Domain.singleValue(BIGINT, 1L))).isFalse();
        assertThat(stats.mightMatch("c", BIGINT, Domain.onlyNull(BIGINT))).isTrue();
        // an empty file proves nothing by its null count
        assertThat(DeltaStatistics.of(Optional.of("{\"numRecords\":0,\"nullCount\":{\"c\":0}}")).mightMatch("c", BIGINT, Domain.singleValue(BIGINT, 1L))).isTrue();
    }
}
