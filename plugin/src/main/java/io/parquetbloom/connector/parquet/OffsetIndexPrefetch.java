package io.parquetbloom.connector.parquet;

import io.trino.spi.metrics.Metrics;

import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * The offset indexes of a file loading beside a split of it read by whole chunks, so that the node's next lookups in
 * the file read by pages. A split read to its end waits for the load when it closes, so the load's GET is counted in
 * the split's requests and metrics; one closed early (cancelled, failed, its LIMIT met) leaves the load to finish on
 * its own: it reads only the file's index bytes, under the planned version, and caches them.
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
