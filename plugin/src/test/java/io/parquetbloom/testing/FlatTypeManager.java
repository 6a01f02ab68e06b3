package io.parquetbloom.testing;

import io.trino.spi.type.Type;
import io.trino.spi.type.TypeDescriptor;
import io.trino.spi.type.TypeId;
import io.trino.spi.type.TypeManager;
import io.trino.spi.type.TypeOperators;

/**
 * A type manager for unit tests of the types Parquet maps to directly (no parametric lookups).
 */
public final class FlatTypeManager
        implements TypeManager
{
    private final TypeOperators operators = new TypeOperators();

    @Override
    public Type getType(TypeDescriptor descriptor)
    {
        throw new UnsupportedOperationException(descriptor.toString());
    }

    @Override
    public boolean isTypeRegistered(String name)
    {
        return false;
    }

    @Override
    public Type fromSqlType(String type)
    {
        throw new UnsupportedOperationException(type);
    }

    @Override
    public Type getType(TypeId id)
    {
        throw new UnsupportedOperationException(id.toString());
    }

    @Override
    public TypeOperators getTypeOperators()
    {
        return operators;
    }
}
