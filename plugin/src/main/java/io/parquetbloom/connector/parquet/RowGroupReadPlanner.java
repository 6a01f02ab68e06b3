package io.parquetbloom.connector.parquet;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.parquetbloom.pruning.PruningPlan;
import io.trino.spi.predicate.Domain;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.concurrent.TimeUnit.MINUTES;

/**
 * Decides, per split, how its row groups are read (see {@link io.parquetbloom.s3.ColumnChunkLayout}): key column first
 * where that pays, that is where a surviving row group may well hold no match (it survived by a filter's false
 * positive, or with no evidence at all on a selective predicate); whole where a match is likely, because the filters
 * could say little (many values) or because the row groups this query has read so far on this node mostly matched.
 * Coordinator-pruned and worker-pruned splits decide alike: from the predicate and what reading has shown.
 */
public final class RowGroupReadPlanner
{
    // row groups read key first that a query must have seen before what they showed decides
    private static final int MIN_OUTCOMES = 4;

    private final Cache<String, QueryMatches> queries = CacheBuilder.newBuilder()
            .expireAfterAccess(10, MINUTES)
            .maximumSize(10_000)
            .build();

    /**
     * What this query's row groups have shown on this node so far; shared by its splits.
     */
    public RowGroupMatches matchesOf(String queryId)
    {
        try {
            return queries.get(queryId, QueryMatches::new);
        }
        catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The row groups (positions among the split's) to read whole.
     *
     * @param filterDomains the predicate on each filter column the reader reads
     */
    public static Set<Integer> wholeRowGroups(int rowGroups, Collection<Domain> filterDomains, RowGroupMatches matches)
    {
        // a row group's survival by a predicate of so many values says little: not selective enough to bet on no match
        if (filterDomains.isEmpty() || !(matches.mostMatch() || filterDomains.stream().allMatch(PruningPlan::unselective))) {
            return Set.of();
        }
        Set<Integer> whole = new HashSet<>();
        for (int rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
            whole.add(rowGroup);
        }
        return whole;
    }

    private static final class QueryMatches
            implements RowGroupMatches
    {
        private final AtomicLong outcomes = new AtomicLong();
        private final AtomicLong matched = new AtomicLong();

        @Override
        public boolean mostMatch()
        {
            long seen = outcomes.get();
            return seen >= MIN_OUTCOMES && matched.get() * 2 > seen;
        }

        @Override
        public void record(boolean rowGroupMatched)
        {
            if (rowGroupMatched) {
                matched.incrementAndGet();
            }
            outcomes.incrementAndGet();
        }
    }
}
