package io.parquetbloom.pruning;

import io.trino.spi.block.Block;
import io.trino.spi.predicate.Domain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.util.HashSet;
import java.util.Set;

import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * Whether any value of a block lies in a domain, with the engine's own semantics. Deciding "no match" wrongly would
 * make the {@link NoMatchRecorder} hide rows, so the hash-set shortcut is taken only for types whose native values
 * are equal exactly when SQL says they are; every other type asks the domain itself.
 */
public final class DomainValueMatcher
{
    private final Type type;
    private final Domain domain;
    private final Set<Object> discreteValues;

    public DomainValueMatcher(Type type, Domain domain)
    {
        this.type = requireNonNull(type, "type is null");
        this.domain = requireNonNull(domain, "domain is null");
        if (domain.getValues().isDiscreteSet() && nativeEqualityIsSqlEquality(type)) {
            discreteValues = new HashSet<>(domain.getValues().getDiscreteSet());
        }
        else {
            discreteValues = null;
        }
    }

    public boolean anyMatch(Block block)
    {
        for (int position = 0; position < block.getPositionCount(); position++) {
            if (matches(block, position)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the value at {@code position} lies in the domain (a NULL where the domain allows NULL).
     */
    public boolean matches(Block block, int position)
    {
        if (block.isNull(position)) {
            return domain.isNullAllowed();
        }
        Object value = readNativeValue(type, block, position);
        return discreteValues != null ? discreteValues.contains(value) : domain.includesNullableValue(value);
    }

    private static boolean nativeEqualityIsSqlEquality(Type type)
    {
        // not REAL/DOUBLE (0.0 = -0.0, NaN), CHAR (padding), TIMESTAMP WITH TIME ZONE (zone is ignored), long timestamps
        return type instanceof VarcharType
                || type instanceof VarbinaryType
                || type instanceof BigintType
                || type instanceof IntegerType
                || type instanceof SmallintType
                || type instanceof TinyintType
                || type instanceof DateType
                || type instanceof BooleanType
                || type instanceof DecimalType
                || type instanceof UuidType
                || (type instanceof TimestampType timestamp && timestamp.isShort());
    }
}
