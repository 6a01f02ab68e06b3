package io.parquetbloom.pruning;

import io.parquetbloom.hash.UnsignedIntegers;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Statistics of integer columns read the way the connector reads their values ({@link UnsignedIntegers}):
 * trino-parquet compares unsigned statistics as signed numbers, and knows nothing of values that the reader narrows.
 */
public final class IntegerStatistics
{
    private IntegerStatistics() {}

    /**
     * For INT(8/16) on INT32 the reader keeps only the low bits, so a stored value outside the annotation's range
     * (a writer's bug) reads as another number than the filter recorded. True when that cannot happen in this chunk:
     * the statistics bound every stored value to the range. Always true for other columns.
     */
    public static boolean storedValuesInReadRange(PrimitiveType column, Statistics<?> statistics)
    {
        if (!(column.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation integer) || column.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT32) {
            return true;
        }
        int width = UnsignedIntegers.readWidth(column);
        if (width >= 32) {
            return true;
        }
        Optional<BigInteger[]> bounds = storedBounds(column, statistics);
        if (bounds.isEmpty()) {
            return false;
        }
        BigInteger low = integer.isSigned() ? BigInteger.ONE.shiftLeft(width - 1).negate() : BigInteger.ZERO;
        BigInteger high = integer.isSigned() ? BigInteger.ONE.shiftLeft(width - 1) : BigInteger.ONE.shiftLeft(width);
        return bounds.get()[0].compareTo(low) >= 0 && bounds.get()[1].compareTo(high) < 0;
    }

    /**
     * Whether a chunk of an unsigned integer column may hold a value of {@code domain}, from its unsigned statistics.
     */
    static boolean unsignedMayMatch(PrimitiveType column, Statistics<?> statistics, long valueCount, Domain domain)
    {
        OptionalInt width = UnsignedIntegers.unsignedWidth(column);
        if (width.isEmpty() || statistics == null || statistics.isEmpty()) {
            return true;
        }
        boolean nullsKnown = statistics.isNumNullsSet();
        if (domain.isNullAllowed() && (!nullsKnown || statistics.getNumNulls() > 0)) {
            return true;
        }
        if (!statistics.hasNonNullValue()) {
            // no bounds: only a chunk known to hold nothing but NULLs is excluded
            return !(nullsKnown && statistics.getNumNulls() == valueCount);
        }
        Optional<BigInteger[]> bounds = storedBounds(column, statistics);
        if (bounds.isEmpty()) {
            return true;
        }
        BigInteger min = bounds.get()[0];
        BigInteger max = bounds.get()[1];
        if (width.getAsInt() < 32 && max.bitLength() > width.getAsInt()) {
            // values outside the annotation's range are narrowed by the reader: the bounds say nothing
            return true;
        }
        Optional<Range> range = range(domain.getType(), min, max);
        return range.isEmpty() || domain.getValues().overlaps(ValueSet.ofRanges(range.get()));
    }

    /**
     * The chunk's minimum and maximum stored value, in the column's own order (unsigned for unsigned columns).
     */
    private static Optional<BigInteger[]> storedBounds(PrimitiveType column, Statistics<?> statistics)
    {
        if (statistics == null || !statistics.hasNonNullValue()) {
            return Optional.empty();
        }
        boolean unsigned = UnsignedIntegers.unsignedWidth(column).isPresent();
        if (statistics instanceof IntStatistics ints) {
            return Optional.of(new BigInteger[] {bound(ints.getMin(), unsigned, 32), bound(ints.getMax(), unsigned, 32)});
        }
        if (statistics instanceof LongStatistics longs) {
            return Optional.of(new BigInteger[] {bound(longs.getMin(), unsigned, 64), bound(longs.getMax(), unsigned, 64)});
        }
        return Optional.empty();
    }

    private static BigInteger bound(long stored, boolean unsigned, int physicalWidth)
    {
        return unsigned ? UnsignedIntegers.value(stored, physicalWidth) : BigInteger.valueOf(stored);
    }

    private static Optional<Range> range(Type type, BigInteger min, BigInteger max)
    {
        if (min.compareTo(max) > 0) {
            return Optional.empty();
        }
        boolean longBacked = type instanceof BigintType || type instanceof IntegerType || type instanceof SmallintType || type instanceof TinyintType
                || (type instanceof DecimalType decimal && decimal.getScale() == 0 && decimal.isShort());
        if (longBacked) {
            return max.bitLength() > 63 ? Optional.empty() : Optional.of(Range.range(type, min.longValueExact(), true, max.longValueExact(), true));
        }
        if (type instanceof DecimalType decimal && decimal.getScale() == 0) {
            return Optional.of(Range.range(type, Int128.valueOf(min), true, Int128.valueOf(max), true));
        }
        return Optional.empty();
    }
}
