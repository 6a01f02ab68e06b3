package io.parquetbloom.hash;

import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.math.BigInteger;
import java.util.OptionalInt;

/**
 * How the connector reads {@code INT(8/16/32/64, unsigned)} columns, in one place for the reader, the statistics and
 * the hasher: the stored INT32/INT64 bits taken as an unsigned number of the annotation's width (the low
 * {@code width} bits, zero-extended). Trino has no unsigned types, so such a column is read one size up: UINT8 as
 * SMALLINT, UINT16 as INTEGER, UINT32 as BIGINT, UINT64 as DECIMAL(20,0).
 */
public final class UnsignedIntegers
{
    private static final BigInteger TWO_POW_64 = BigInteger.ONE.shiftLeft(64);

    private UnsignedIntegers() {}

    /**
     * The bit width when the column is an unsigned integer, else empty.
     */
    public static OptionalInt unsignedWidth(PrimitiveType column)
    {
        if (column.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation integer && !integer.isSigned()) {
            return OptionalInt.of(readWidth(column));
        }
        return OptionalInt.empty();
    }

    /**
     * The width of the values read from an integer column: the annotation's 8 or 16 bits on INT32, else the physical
     * width (an annotation wider or narrower than INT64 is ignored, as the reader ignores it).
     */
    public static int readWidth(PrimitiveType column)
    {
        if (column.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64) {
            return 64;
        }
        if (column.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation integer && integer.getBitWidth() < 32) {
            return integer.getBitWidth();
        }
        return 32;
    }

    /**
     * The value a stored INT32/INT64 value of an unsigned column of {@code width} bits is read as, for widths below 64.
     */
    public static long narrowValue(long stored, int width)
    {
        if (width >= 64) {
            throw new IllegalArgumentException("64-bit unsigned values do not fit a long");
        }
        return stored & ((1L << width) - 1);
    }

    /**
     * The value of a stored unsigned value of any width, as a number.
     */
    public static BigInteger value(long stored, int width)
    {
        if (width == 64) {
            return stored >= 0 ? BigInteger.valueOf(stored) : BigInteger.valueOf(stored).add(TWO_POW_64);
        }
        return BigInteger.valueOf(narrowValue(stored, width));
    }
}
