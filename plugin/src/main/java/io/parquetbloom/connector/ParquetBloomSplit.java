package io.parquetbloom.connector;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.keyindex.KeyColumnPages;
import io.parquetbloom.table.RowDeletes;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/**
 * A byte range of one file; the page source reads the row groups that start in it. Size and ETag pin the object
 * version the split was planned for. A split of row groups chosen by the coordinator reads those: its length is
 * their compressed bytes (how much of the file it reads), from the file's start.
 *
 * @param partitionValues raw partition folder values by partition column; empty for the default (NULL) partition
 * @param rowGroups the row groups that survived pruning on the coordinator (ordinals); empty when it did not prune
 * @param metadataCacheFlush the coordinator's latest {@code flush_metadata_cache}, for the worker to apply
 * @param keyPages the key index's pages of the key column in the split's row groups, where it told them apart
 */
public record ParquetBloomSplit(String path, long fileSize, String etag, long start, long length, Map<String, Optional<String>> partitionValues, Optional<List<Integer>> rowGroups, long metadataCacheFlush, Optional<KeyColumnPages> keyPages, List<RowDeletes> deletes)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(ParquetBloomSplit.class);

    public ParquetBloomSplit
    {
        requireNonNull(path, "path is null");
        requireNonNull(etag, "etag is null");
        partitionValues = ImmutableMap.copyOf(requireNonNull(partitionValues, "partitionValues is null"));
        rowGroups = requireNonNull(rowGroups, "rowGroups is null").map(List::copyOf);
        requireNonNull(keyPages, "keyPages is null");
        deletes = List.copyOf(deletes);
    }

    public ParquetBloomSplit(String path, long fileSize, String etag, long start, long length, Map<String, Optional<String>> partitionValues, Optional<List<Integer>> rowGroups, long metadataCacheFlush)
    {
        this(path, fileSize, etag, start, length, partitionValues, rowGroups, metadataCacheFlush, Optional.empty(), List.of());
    }

    /**
     * Sends every split of a file to the same worker across queries, where its metadata is already cached.
     */
    @Override
    public Optional<String> getAffinityKey()
    {
        return Optional.of(path);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        long size = INSTANCE_SIZE + estimatedSizeOf(path) + estimatedSizeOf(etag) + rowGroups.map(list -> 16L + 20L * list.size()).orElse(0L)
                + keyPages.map(KeyColumnPages::getRetainedSizeInBytes).orElse(0L)
                + deletes.stream().mapToLong(delete -> 64 + estimatedSizeOf(delete.path())).sum();
        for (Map.Entry<String, Optional<String>> entry : partitionValues.entrySet()) {
            size += 32 + estimatedSizeOf(entry.getKey()) + entry.getValue().map(v -> estimatedSizeOf(v)).orElse(0L);
        }
        return size;
    }
}
