package io.parquetbloom.connector;

import io.parquetbloom.s3.S3RequestStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;

import io.trino.spi.metrics.Metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Hands out precomputed splits in batches; asks the engine to wait for dynamic filters first, so that the page
 * sources of a join's probe side can prune row groups with the build side's keys.
 */
final class ParquetBloomSplitSource
        implements ConnectorSplitSource
{
    private final List<ConnectorSplit> splits;
    private final long dynamicFilterWaitMillis;
    private final S3RequestStats planningStats;
    private int next;

    ParquetBloomSplitSource(List<ConnectorSplit> splits, long dynamicFilterWaitMillis, S3RequestStats planningStats)
    {
        this.splits = requireNonNull(splits, "splits is null");
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.planningStats = requireNonNull(planningStats, "planningStats is null");
    }

    /**
     * S3 requests the coordinator made to plan the query (listings, schema footers).
     */
    @Override
    public Metrics getMetrics()
    {
        return new Metrics(Map.of(
                "s3ListRequests", new LongCount(planningStats.listRequests()),
                "s3PlanningGetRequests", new LongCount(planningStats.getRequests()),
                "s3PlanningBytesRead", new LongCount(planningStats.getBytes())));
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilterSnapshot)
    {
        int end = Math.min(splits.size(), next + maxSize);
        List<ConnectorSplit> batch = List.copyOf(splits.subList(next, end));
        next = end;
        return CompletableFuture.completedFuture(batch);
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return dynamicFilterWaitMillis;
    }

    @Override
    public void close() {}

    @Override
    public boolean isFinished()
    {
        return next >= splits.size();
    }
}
