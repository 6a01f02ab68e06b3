package io.parquetbloom.connector.parquet;

import io.airlift.slice.Slice;
import io.parquetbloom.pruning.PruningPlan;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestRowGroupReadPlanner
{
    @Test
    void selectivePredicatesReadKeyFirst()
    {
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(values(1)), RowGroupMatches.NONE)).isEmpty();
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(values(PruningPlan.UNSELECTIVE_FROM_VALUES - 1)), RowGroupMatches.NONE)).isEmpty();
        // a range says nothing of how likely a match is: reading shows it
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(Domain.create(ValueSet.ofRanges(Range.greaterThan(VARCHAR, utf8Slice("m"))), false)), RowGroupMatches.NONE)).isEmpty();
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(), RowGroupMatches.NONE)).isEmpty();
    }

    @Test
    void largeValueSetsReadWhole()
    {
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(values(PruningPlan.UNSELECTIVE_FROM_VALUES)), RowGroupMatches.NONE)).isEqualTo(Set.of(0, 1, 2));
        // one selective column is enough for a row group to hold no match
        assertThat(RowGroupReadPlanner.wholeRowGroups(3, List.of(values(2_000), values(1)), RowGroupMatches.NONE)).isEmpty();
    }

    @Test
    void whatTheQueryReadSoFarDecides()
    {
        RowGroupReadPlanner planner = new RowGroupReadPlanner();
        RowGroupMatches matches = planner.matchesOf("query_1");
        matches.record(true);
        matches.record(true);
        matches.record(true);
        // too few outcomes yet
        assertThat(RowGroupReadPlanner.wholeRowGroups(2, List.of(values(1)), matches)).isEmpty();
        matches.record(false);
        assertThat(RowGroupReadPlanner.wholeRowGroups(2, List.of(values(1)), planner.matchesOf("query_1"))).isEqualTo(Set.of(0, 1));
        // another query starts from nothing
        assertThat(planner.matchesOf("query_2").mostMatch()).isFalse();
        // half is not most
        matches.record(false);
        matches.record(false);
        assertThat(matches.mostMatch()).isFalse();
    }

    private static Domain values(int count)
    {
        List<Object> values = IntStream.range(0, count).<Object>mapToObj(i -> (Slice) utf8Slice("device-" + i)).toList();
        return Domain.multipleValues(VARCHAR, values);
    }
}
