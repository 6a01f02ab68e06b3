package io.parquetbloom.table;

import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

public record PartitionColumn(String name, Type type)
{
    public PartitionColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
