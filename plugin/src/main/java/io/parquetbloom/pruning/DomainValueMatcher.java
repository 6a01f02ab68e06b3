package io.parquetbloom.pruning;

import io.airlift.slice.Slice;
import io.trino.spi.block.Block;
import io.trino.spi.block.VariableWidthBlock;
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

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
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
    // a discrete domain's values: asked without allocating for byte strings and for integers held as longs, as
    // native values for the other types
    private final DiscreteValueSet discreteBytes;
    private final DiscreteValueSet discreteLongs;
    private final Set<Object> discreteValues;

    public DomainValueMatcher(Type type, Domain domain)
    {
        this.type = requireNonNull(type, "type is null");
        this.domain = requireNonNull(domain, "domain is null");
        boolean discrete = domain.getValues().isDiscreteSet() && nativeEqualityIsSqlEquality(type);
        discreteBytes = discrete && isByteString(type) ? DiscreteValueSet.ofSlices(castAll(domain.getValues().getDiscreteSet(), Slice.class)) : null;
        discreteLongs = discrete && type.getJavaType() == long.class ? DiscreteValueSet.ofLongs(castAll(domain.getValues().getDiscreteSet(), Long.class)) : null;
        discreteValues = discrete && discreteBytes == null && discreteLongs == null ? new HashSet<>(domain.getValues().getDiscreteSet()) : null;
    }

    /**
     * The values of a discrete domain of a byte-string type (VARCHAR, VARBINARY), or empty.
     */
    public Optional<DiscreteValueSet> discreteByteStrings()
    {
        return Optional.ofNullable(discreteBytes);
    }

    /**
     * The values of a discrete domain of a type held as a long (BIGINT, INTEGER, DATE, ...), or empty.
     */
    public Optional<DiscreteValueSet> discreteLongs()
    {
        return Optional.ofNullable(discreteLongs);
    }

    public Domain domain()
    {
        return domain;
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
        if (discreteBytes != null) {
            if (block.getUnderlyingValueBlock() instanceof VariableWidthBlock values) {
                int valuePosition = block.getUnderlyingValuePosition(position);
                return discreteBytes.containsBytes(values.getRawSlice(), values.getRawSliceOffset(valuePosition), values.getSliceLength(valuePosition));
            }
            Slice value = type.getSlice(block, position);
            return discreteBytes.containsBytes(value, 0, value.length());
        }
        if (discreteLongs != null) {
            return discreteLongs.containsLong(type.getLong(block, position));
        }
        Object value = readNativeValue(type, block, position);
        return discreteValues != null ? discreteValues.contains(value) : domain.includesNullableValue(value);
    }

    private static boolean isByteString(Type type)
    {
        return type instanceof VarcharType || type instanceof VarbinaryType;
    }

    private static <T> List<T> castAll(Collection<Object> values, Class<T> type)
    {
        return values.stream().map(type::cast).toList();
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
