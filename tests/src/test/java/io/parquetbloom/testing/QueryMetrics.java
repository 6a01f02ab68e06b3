package io.parquetbloom.testing;

import io.trino.execution.QueryInfo;
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.QueryId;
import io.trino.spi.metrics.Metric;
import io.trino.testing.DistributedQueryRunner;

import java.util.HashMap;
import java.util.Map;

/**
 * The connector metrics of a finished query, summed over its table scan operators.
 */
public record QueryMetrics(Map<String, Long> counts)
{
    public static QueryMetrics of(DistributedQueryRunner runner, QueryId queryId)
    {
        QueryInfo info = runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId);
        Map<String, Long> counts = new HashMap<>();
        for (OperatorStats operator : info.getQueryStats().getOperatorSummaries()) {
            for (Map.Entry<String, Metric<?>> entry : operator.getConnectorMetrics().getMetrics().entrySet()) {
                if (entry.getValue() instanceof LongCount count) {
                    counts.merge(entry.getKey(), count.getTotal(), Long::sum);
                }
            }
        }
        return new QueryMetrics(counts);
    }

    public long get(String name)
    {
        return counts.getOrDefault(name, 0L);
    }

    /**
     * Row groups considered: by the coordinator before splitting, and by page sources for files it did not prune.
     */
    public long rowGroupsTotal()
    {
        return get("planningRowGroupsTotal") + get("rowGroupsTotal");
    }

    public long prunedByStatistics()
    {
        return get("planningRowGroupsPrunedByStatistics") + get("rowGroupsPrunedByStatistics");
    }

    public long prunedByBloomFilter()
    {
        return get("planningRowGroupsPrunedByBloomFilter") + get("rowGroupsPrunedByBloomFilter");
    }

    public long prunedByNoMatchCache()
    {
        return get("planningRowGroupsPrunedByNoMatchCache") + get("rowGroupsPrunedByNoMatchCache");
    }

    public long filtersUnusable()
    {
        return get("planningBloomFiltersUnusable") + get("bloomFiltersUnusable");
    }

    /**
     * GETs of the coordinator (metadata for pruning and planning) and of the workers.
     */
    public long getRequests()
    {
        return get("s3PlanningGetRequests") + get("s3GetRequests");
    }

    public long bytesRead()
    {
        return get("s3PlanningBytesRead") + get("s3BytesRead");
    }

    public long rowGroupsRead()
    {
        return get("rowGroupsRead");
    }

    public long surviving()
    {
        return rowGroupsTotal() - prunedByStatistics() - prunedByBloomFilter() - prunedByNoMatchCache();
    }
}
