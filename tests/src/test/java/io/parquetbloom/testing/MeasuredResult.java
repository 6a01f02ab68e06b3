package io.parquetbloom.testing;

import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;

import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * A query's rows and the connector's metrics of it ({@code EXPLAIN ANALYZE VERBOSE}'s counters): what integration
 * tests assert on, rows against an oracle and pruning against what the data allows.
 */
public record MeasuredResult(MaterializedResult rows, QueryMetrics metrics)
{
    public MeasuredResult
    {
        requireNonNull(rows, "rows is null");
        requireNonNull(metrics, "metrics is null");
    }

    public static MeasuredResult run(DistributedQueryRunner runner, Session session, String sql)
    {
        var result = runner.executeWithPlan(session, sql);
        return new MeasuredResult(result.result(), QueryMetrics.of(runner, result.queryId()));
    }

    /**
     * The values of a BIGINT column (the testing lake's {@code seq}), as a set.
     */
    public Set<Long> seqs(int column)
    {
        return rows.getMaterializedRows().stream().map(row -> (Long) row.getField(column)).collect(Collectors.toSet());
    }

    public Set<Long> seqs()
    {
        return seqs(0);
    }
}
