package io.parquetbloom.connector;

import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;

import java.util.List;
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
    private int next;

    ParquetBloomSplitSource(List<ConnectorSplit> splits, long dynamicFilterWaitMillis)
    {
        this.splits = requireNonNull(splits, "splits is null");
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
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
