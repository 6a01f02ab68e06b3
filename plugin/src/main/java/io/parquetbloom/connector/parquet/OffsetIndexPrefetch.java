package io.parquetbloom.connector.parquet;

import io.trino.spi.metrics.Metrics;

import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * The offset indexes of a file loading beside a split of it read by whole chunks, so that the node's next lookups in
 * the file read by pages. The split's page source waits for the load when it closes: the load's GET is then counted in
 * the split's requests and metrics, and no read outlives its query.
 */
final class OffsetIndexPrefetch
{
    private final CompletableFuture<?> loading;
    private final PageReadStats stats;

    OffsetIndexPrefetch(CompletableFuture<?> loading, PageReadStats stats)
    {
        this.loading = requireNonNull(loading, "loading is null");
        this.stats = requireNonNull(stats, "stats is null");
    }

    void await()
    {
        // a failed load caches nothing and costs the read nothing: the next lookup loads the indexes again
        loading.exceptionally(ignored -> null).join();
    }

    Metrics metrics()
    {
        return new Metrics(stats.toPrefetchMetrics());
    }
}
