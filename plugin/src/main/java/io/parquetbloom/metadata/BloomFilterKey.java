package io.parquetbloom.metadata;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One column chunk's filter: row group ordinal and the column's path in the file schema.
 */
public record BloomFilterKey(int rowGroup, List<String> path)
{
    public BloomFilterKey
    {
        path = List.copyOf(requireNonNull(path, "path is null"));
    }
}
