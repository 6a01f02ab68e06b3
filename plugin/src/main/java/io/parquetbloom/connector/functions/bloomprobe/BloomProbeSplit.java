package io.parquetbloom.connector.functions.bloomprobe;

import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;

/**
 * The one split of a {@code bloom_probe} call: the probe lists and plans the table on the node that runs it.
 */
public record BloomProbeSplit()
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(BloomProbeSplit.class);

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE;
    }
}
