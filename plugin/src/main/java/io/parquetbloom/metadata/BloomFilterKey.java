package io.parquetbloom.metadata;

import java.util.List;
import java.util.Locale;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static java.util.Objects.requireNonNull;

/**
 * One column chunk's filter: row group ordinal and the column's path in the file schema, in lower case. The footer
 * keeps the writer's case ({@code deviceId}) while trino-parquet names columns in lower case; both must find the
 * same entry.
 */
public record BloomFilterKey(int rowGroup, List<String> path)
{
    public BloomFilterKey
    {
        path = requireNonNull(path, "path is null").stream()
                .map(name -> name.toLowerCase(Locale.ROOT))
                .collect(toImmutableList());
    }
}
