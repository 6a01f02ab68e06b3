package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

/**
 * One {@link ParquetBloomMetadata} per open transaction, so listings are done once per query, not once per call.
 */
public class ParquetBloomTransactionManager
{
    private final ParquetBloomMetadataFactory metadataFactory;
    private final Map<ConnectorTransactionHandle, ParquetBloomMetadata> transactions = new ConcurrentHashMap<>();

    @Inject
    public ParquetBloomTransactionManager(ParquetBloomMetadataFactory metadataFactory)
    {
        this.metadataFactory = requireNonNull(metadataFactory, "metadataFactory is null");
    }

    public ConnectorTransactionHandle begin()
    {
        ParquetBloomTransactionHandle handle = ParquetBloomTransactionHandle.create();
        transactions.put(handle, metadataFactory.create());
        return handle;
    }

    public ParquetBloomMetadata get(ConnectorTransactionHandle handle)
    {
        ParquetBloomMetadata metadata = transactions.get(handle);
        checkState(metadata != null, "no such transaction: %s", handle);
        return metadata;
    }

    /**
     * Ends a transaction, committed or rolled back: what it began and did not finish is undone.
     */
    public void end(ConnectorTransactionHandle handle)
    {
        ParquetBloomMetadata metadata = transactions.remove(handle);
        if (metadata != null) {
            metadata.abandonUnfinishedBuilds();
        }
    }
}
