package io.parquetbloom.sbbf;

import shaded.parquet.org.apache.thrift.TConfiguration;
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport;

import java.io.ByteArrayInputStream;

import static io.parquetbloom.sbbf.SplitBlockBloomFilter.BYTES_PER_BLOCK;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.MAX_BYTES;

/**
 * The Thrift-compact {@code BloomFilterHeader} that precedes every bitset, read with parquet-format's own Thrift
 * code. Only the combination the spec defines (BLOCK / XXHASH / UNCOMPRESSED) is usable; anything else is reported,
 * never guessed.
 *
 * @param numBytes size of the bitset that follows the header
 * @param headerLength encoded size of the header itself (15 to 18 bytes for sane sizes; never assume 16)
 */
public record BloomFilterHeader(int numBytes, int headerLength)
{
    private static final int MAX_NESTING = 16;

    /**
     * Outcome of parsing a header from a byte range that may hold only a prefix of it.
     */
    public sealed interface ParseResult
    {
        record Parsed(BloomFilterHeader header)
                implements ParseResult {}

        /**
         * The bytes end before the header does: read more and parse again.
         */
        record Incomplete()
                implements ParseResult {}

        record Invalid(String reason)
                implements ParseResult {}
    }

    public static ParseResult parse(byte[] buffer, int offset, int length)
    {
        if (offset < 0 || length < 0 || offset > buffer.length - length) {
            return new ParseResult.Invalid("byte range outside buffer");
        }
        Input input = new Input(buffer, offset, length);
        org.apache.parquet.format.BloomFilterHeader header = new org.apache.parquet.format.BloomFilterHeader();
        try {
            // parquet-format's generated reader, bounded: no string or collection longer than the bytes we hold, no
            // nesting deeper than a sane header has, so garbage costs no allocation beyond those bytes
            int limit = Math.max(length, 1);
            TIOStreamTransport transport = new TIOStreamTransport(new TConfiguration(limit, limit, MAX_NESTING), input);
            header.read(new TCompactProtocol(transport, length, length));
        }
        catch (TException | RuntimeException e) {
            if (input.exhausted()) {
                return new ParseResult.Incomplete();
            }
            return new ParseResult.Invalid("not a Thrift BloomFilterHeader: " + e.getMessage());
        }
        if (!header.getAlgorithm().isSetBLOCK()) {
            return new ParseResult.Invalid("unknown bloom filter algorithm (only BLOCK is defined)");
        }
        if (!header.getHash().isSetXXHASH()) {
            return new ParseResult.Invalid("unknown bloom filter hash (only XXHASH is defined)");
        }
        if (!header.getCompression().isSetUNCOMPRESSED()) {
            return new ParseResult.Invalid("unknown bloom filter compression (only UNCOMPRESSED is defined)");
        }
        int numBytes = header.getNumBytes();
        if (numBytes <= 0 || numBytes % BYTES_PER_BLOCK != 0 || numBytes > MAX_BYTES) {
            return new ParseResult.Invalid("numBytes %d is not a positive multiple of %d up to %d".formatted(numBytes, BYTES_PER_BLOCK, MAX_BYTES));
        }
        return new ParseResult.Parsed(new BloomFilterHeader(numBytes, input.consumed()));
    }

    /**
     * The bytes of one header, telling how many the reader took and whether it wanted more than there are.
     */
    private static final class Input
            extends ByteArrayInputStream
    {
        private final int start;
        private boolean exhausted;

        Input(byte[] buffer, int offset, int length)
        {
            super(buffer, offset, length);
            this.start = offset;
        }

        @Override
        public synchronized int read()
        {
            int value = super.read();
            exhausted |= value < 0;
            return value;
        }

        @Override
        public synchronized int read(byte[] bytes, int offset, int length)
        {
            int read = super.read(bytes, offset, length);
            exhausted |= read < length;
            return read;
        }

        boolean exhausted()
        {
            return exhausted || pos >= count;
        }

        int consumed()
        {
            return pos - start;
        }
    }
}
