package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.QueryShareWindow;
import io.parquetbloom.keyindex.KeyIndexReader;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

/**
 * One {@link ParquetBloomMetadata} per open transaction, so listings are done once per query, not once per call.
 */
public class ParquetBloomTransactionManager
{
    private final LakeTables lakeTables;
    private final TableSchemaReader schemaReader;
    private final ExecutorService executor;
    private final int concurrency;
    private final FilterHealthScanner healthScanner;
    private final QueryShareWindow queryWindow;
    private final TableStatisticsReader statisticsReader;
    private final KeyIndexReader keyIndexReader;
    private final S3ObjectStore store;
    private final Map<ConnectorTransactionHandle, ParquetBloomMetadata> transactions = new ConcurrentHashMap<>();

    @Inject
    public ParquetBloomTransactionManager(LakeTables lakeTables, TableSchemaReader schemaReader, @ForParquetBloomMetadata ExecutorService executor, MetadataConfig config, FilterHealthScanner healthScanner, QueryShareWindow queryWindow, TableStatisticsReader statisticsReader, KeyIndexReader keyIndexReader, S3ObjectStore store)
    {
        this.keyIndexReader = requireNonNull(keyIndexReader, "keyIndexReader is null");
        this.store = requireNonNull(store, "store is null");
        this.statisticsReader = requireNonNull(statisticsReader, "statisticsReader is null");
        this.healthScanner = requireNonNull(healthScanner, "healthScanner is null");
        this.queryWindow = requireNonNull(queryWindow, "queryWindow is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.concurrency = config.getMetadataConcurrency();
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
    }

    public ConnectorTransactionHandle begin()
    {
        ParquetBloomTransactionHandle handle = ParquetBloomTransactionHandle.create();
        transactions.put(handle, new ParquetBloomMetadata(lakeTables, schemaReader, new BoundedExecutor(executor, concurrency), healthScanner, queryWindow, statisticsReader, keyIndexReader, store));
        return handle;
    }

    public ParquetBloomMetadata get(ConnectorTransactionHandle handle)
    {
        ParquetBloomMetadata metadata = transactions.get(handle);
        checkState(metadata != null, "no such transaction: %s", handle);
        return metadata;
    }

    public void end(ConnectorTransactionHandle handle)
    {
        transactions.remove(handle);
    }
}
