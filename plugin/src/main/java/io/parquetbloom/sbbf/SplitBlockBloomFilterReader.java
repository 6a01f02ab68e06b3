package io.parquetbloom.sbbf;

import java.util.OptionalInt;

/**
 * Turns the bytes at a column chunk's {@code bloom_filter_offset} into a filter, or says why it cannot be used.
 * Never throws for bad bytes: callers keep the row group when the result is {@link Result.Unusable}.
 */
public final class SplitBlockBloomFilterReader
{
    private SplitBlockBloomFilterReader() {}

    public sealed interface Result
    {
        /**
         * @param totalLength header plus bitset: the bytes this filter occupies in the file
         */
        record Usable(SplitBlockBloomFilter filter, int totalLength)
                implements Result {}

        record Unusable(String reason)
                implements Result {}
    }

    /**
     * @param bytes buffer holding the filter starting at {@code offset}; may hold more bytes after it
     * @param length bytes available from {@code offset}
     * @param declaredLength the column chunk's {@code bloom_filter_length} when the file has it: header plus bitset
     * must then equal it exactly
     */
    public static Result read(byte[] bytes, int offset, int length, OptionalInt declaredLength)
    {
        return read(bytes, offset, length, declaredLength, false);
    }

    /**
     * For a filter without {@code bloom_filter_length} that is directly followed by another filter or the footer:
     * header plus bitset must fill the {@code length} bytes up to it exactly. A header whose {@code numBytes} was
     * damaged to a smaller size would otherwise pass, and probing a prefix of the bitset gives false "absent" answers.
     */
    public static Result readFilling(byte[] bytes, int offset, int length)
    {
        return read(bytes, offset, length, OptionalInt.empty(), true);
    }

    private static Result read(byte[] bytes, int offset, int length, OptionalInt declaredLength, boolean mustFill)
    {
        if (declaredLength.isPresent()) {
            int declared = declaredLength.getAsInt();
            if (declared <= 0) {
                return new Result.Unusable("bloom_filter_length %d is not positive".formatted(declared));
            }
            if (declared > length) {
                return new Result.Unusable("bloom_filter_length %d exceeds the %d bytes available".formatted(declared, length));
            }
        }
        BloomFilterHeader.ParseResult parsed = BloomFilterHeader.parse(bytes, offset, length);
        return switch (parsed) {
            case BloomFilterHeader.ParseResult.Incomplete _ -> new Result.Unusable("truncated header: %d bytes available".formatted(length));
            case BloomFilterHeader.ParseResult.Invalid invalid -> new Result.Unusable(invalid.reason());
            case BloomFilterHeader.ParseResult.Parsed(BloomFilterHeader header) -> fromHeader(bytes, offset, length, declaredLength, mustFill, header);
        };
    }

    private static Result fromHeader(byte[] bytes, int offset, int length, OptionalInt declaredLength, boolean mustFill, BloomFilterHeader header)
    {
        long total = (long) header.headerLength() + header.numBytes();
        if (declaredLength.isPresent() && declaredLength.getAsInt() != total) {
            return new Result.Unusable("bloom_filter_length %d disagrees with header %d + bitset %d".formatted(declaredLength.getAsInt(), header.headerLength(), header.numBytes()));
        }
        if (mustFill && total != length) {
            return new Result.Unusable("header %d + bitset %d does not fill the %d bytes up to the next filter or the footer".formatted(header.headerLength(), header.numBytes(), length));
        }
        if (total > length) {
            return new Result.Unusable("truncated bitset: header says %d bytes, %d available".formatted(header.numBytes(), length - header.headerLength()));
        }
        SplitBlockBloomFilter filter = SplitBlockBloomFilter.fromBitset(bytes, offset + header.headerLength(), header.numBytes());
        return new Result.Usable(filter, (int) total);
    }
}
