package io.parquetbloom.metadata;

import io.trino.parquet.metadata.ColumnChunkMetadata;
import org.apache.parquet.column.ColumnDescriptor;

import static java.util.Objects.requireNonNull;

/**
 * One column chunk whose dictionary pruning wants: the chunk's key, its metadata as trino-parquet reads it (where the
 * page lies, the codec) and the column it belongs to (how entries are decoded).
 */
public record DictionaryRequest(BloomFilterKey key, ColumnChunkMetadata chunk, ColumnDescriptor column)
{
    public DictionaryRequest
    {
        requireNonNull(key, "key is null");
        requireNonNull(chunk, "chunk is null");
        requireNonNull(column, "column is null");
    }
}
