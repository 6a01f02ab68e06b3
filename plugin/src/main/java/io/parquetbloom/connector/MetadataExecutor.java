package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.parquetbloom.metadata.MetadataConfig;
import io.airlift.concurrent.BoundedExecutor;
import jakarta.annotation.PreDestroy;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

import static io.airlift.concurrent.Threads.daemonThreadsNamed;
import static java.util.concurrent.Executors.newCachedThreadPool;

/**
 * The threads that read metadata from S3 on the coordinator (footers and filters to prune files, first footers for
 * table schemas), shared by the catalog's queries. Each query works on its own bounded share ({@link #forQuery()}), so
 * one query's 100,000 files never queue in front of another query's lookup, as Hive's
 * {@code hive.max-split-iterator-threads} does.
 */
public class MetadataExecutor
{
    private final ExecutorService threads = newCachedThreadPool(daemonThreadsNamed("parquet-bloom-metadata-%s"));
    private final int concurrency;

    @Inject
    public MetadataExecutor(MetadataConfig config)
    {
        this.concurrency = config.getMetadataConcurrency();
    }

    /**
     * At most {@code metadata.concurrency} tasks of the caller run at a time.
     */
    public Executor forQuery()
    {
        return new BoundedExecutor(threads, concurrency);
    }

    public int concurrency()
    {
        return concurrency;
    }

    @PreDestroy
    public void shutdown()
    {
        threads.shutdownNow();
    }
}
