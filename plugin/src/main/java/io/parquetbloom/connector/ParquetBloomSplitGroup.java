package io.parquetbloom.connector;

import io.trino.spi.HostAddress;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static com.google.common.base.Preconditions.checkArgument;
import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/**
 * Splits of small files read by one driver, which opens the next ones while it reads the current one, so their GETs
 * overlap (see {@link SplitGrouper}). Each member is read exactly as it would be alone.
 *
 * @param addresses the worker every file of the group is sent to in every query (where its metadata is cached); the
 * engine picks another when that one is gone
 */
public record ParquetBloomSplitGroup(List<ParquetBloomSplit> splits, List<HostAddress> addresses)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(ParquetBloomSplitGroup.class);

    public ParquetBloomSplitGroup
    {
        splits = List.copyOf(requireNonNull(splits, "splits is null"));
        checkArgument(!splits.isEmpty(), "a group holds at least one split");
        addresses = List.copyOf(requireNonNull(addresses, "addresses is null"));
    }

    @Override
    public List<HostAddress> getAddresses()
    {
        return addresses;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + estimatedSizeOf(addresses, address -> 64L) + estimatedSizeOf(splits, ParquetBloomSplit::getRetainedSizeInBytes);
    }
}
