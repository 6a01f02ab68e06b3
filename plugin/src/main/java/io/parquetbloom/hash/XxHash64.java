package io.parquetbloom.hash;

import io.airlift.slice.Slice;
import net.openhft.hashing.LongHashFunction;

import java.nio.ByteOrder;

/**
 * XXH64 with seed 0 of plain-encoded values, as the Parquet bloom filter spec requires. Fixed-width values are
 * little-endian regardless of the platform's byte order.
 */
public final class XxHash64
{
    private static final LongHashFunction XX = LongHashFunction.xx(0);
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private XxHash64() {}

    public static long hashInt(int value)
    {
        return XX.hashInt(NATIVE_LITTLE_ENDIAN ? value : Integer.reverseBytes(value));
    }

    public static long hashLong(long value)
    {
        return XX.hashLong(NATIVE_LITTLE_ENDIAN ? value : Long.reverseBytes(value));
    }

    public static long hashBytes(byte[] bytes)
    {
        return XX.hashBytes(bytes);
    }

    public static long hashBytes(byte[] bytes, int offset, int length)
    {
        return XX.hashBytes(bytes, offset, length);
    }

    public static long hashSlice(Slice slice)
    {
        return XX.hashBytes(slice.byteArray(), slice.byteArrayOffset(), slice.length());
    }
}
