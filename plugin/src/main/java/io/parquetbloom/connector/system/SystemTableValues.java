package io.parquetbloom.connector.system;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Optional values as the nullable objects of an {@link io.trino.spi.connector.InMemoryRecordSet} row.
 */
final class SystemTableValues
{
    private SystemTableValues() {}

    static Object value(Optional<?> value)
    {
        return value.orElse(null);
    }

    static Long value(OptionalLong value)
    {
        return value.isPresent() ? value.getAsLong() : null;
    }

    static Integer value(OptionalInt value)
    {
        return value.isPresent() ? value.getAsInt() : null;
    }

    static Double value(OptionalDouble value)
    {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
