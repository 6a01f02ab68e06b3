package io.parquetbloom.sbbf;

import java.io.ByteArrayOutputStream;

import static io.parquetbloom.sbbf.SplitBlockBloomFilter.BYTES_PER_BLOCK;
import static io.parquetbloom.sbbf.SplitBlockBloomFilter.MAX_BYTES;

/**
 * The Thrift-compact {@code BloomFilterHeader} that precedes every bitset. Only the combination the spec defines
 * (BLOCK / XXHASH / UNCOMPRESSED) is usable; anything else is reported, never guessed.
 *
 * @param numBytes size of the bitset that follows the header
 * @param headerLength encoded size of the header itself (15 to 18 bytes for sane sizes; never assume 16)
 */
public record BloomFilterHeader(int numBytes, int headerLength)
{
    private static final int TYPE_STOP = 0;
    private static final int TYPE_TRUE = 1;
    private static final int TYPE_FALSE = 2;
    private static final int TYPE_BYTE = 3;
    private static final int TYPE_I16 = 4;
    private static final int TYPE_I32 = 5;
    private static final int TYPE_I64 = 6;
    private static final int TYPE_DOUBLE = 7;
    private static final int TYPE_BINARY = 8;
    private static final int TYPE_LIST = 9;
    private static final int TYPE_SET = 10;
    private static final int TYPE_MAP = 11;
    private static final int TYPE_STRUCT = 12;

    private static final int MAX_NESTING = 16;
    // no sane header carries a string or collection this large; treat it as garbage rather than "read more"
    private static final int MAX_FIELD_LENGTH = 1 << 20;

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
        CompactReader reader = new CompactReader(buffer, offset, offset + length);
        try {
            return reader.readHeader();
        }
        catch (EndOfInput e) {
            return new ParseResult.Incomplete();
        }
        catch (MalformedThrift e) {
            return new ParseResult.Invalid(e.getMessage());
        }
    }

    /**
     * Encodes the header for a bitset of {@code numBytes} (BLOCK, XXHASH, UNCOMPRESSED), as parquet-java does.
     */
    public static byte[] serialize(int numBytes)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(18);
        out.write((1 << 4) | TYPE_I32);
        long zigzag = (numBytes << 1) ^ (numBytes >> 31);
        writeVarint(out, zigzag & 0xFFFF_FFFFL);
        // fields 2..4: a union whose field 1 is an empty struct, then the union's STOP
        for (int field = 2; field <= 4; field++) {
            out.write((1 << 4) | TYPE_STRUCT);
            out.write((1 << 4) | TYPE_STRUCT);
            out.write(TYPE_STOP);
            out.write(TYPE_STOP);
        }
        out.write(TYPE_STOP);
        return out.toByteArray();
    }

    private static void writeVarint(ByteArrayOutputStream out, long value)
    {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static final class EndOfInput
            extends Exception
    {
        EndOfInput()
        {
            super(null, null, false, false);
        }
    }

    private static final class MalformedThrift
            extends Exception
    {
        MalformedThrift(String message)
        {
            super(message, null, false, false);
        }
    }

    private static final class CompactReader
    {
        private final byte[] buffer;
        private final int start;
        private final int end;
        private int position;

        CompactReader(byte[] buffer, int start, int end)
        {
            this.buffer = buffer;
            this.start = start;
            this.end = end;
            this.position = start;
        }

        ParseResult readHeader()
                throws EndOfInput, MalformedThrift
        {
            Integer numBytes = null;
            Boolean block = null;
            Boolean xxhash = null;
            Boolean uncompressed = null;
            int lastField = 0;
            while (true) {
                int fieldHeader = readByte();
                int type = fieldHeader & 0x0F;
                if (type == TYPE_STOP) {
                    break;
                }
                int field = fieldId(fieldHeader, lastField);
                lastField = field;
                switch (field) {
                    case 1 -> {
                        expectType(type, TYPE_I32, "numBytes");
                        numBytes = readZigzagI32();
                    }
                    case 2 -> {
                        expectType(type, TYPE_STRUCT, "algorithm");
                        block = readUnionIsFirstMember();
                    }
                    case 3 -> {
                        expectType(type, TYPE_STRUCT, "hash");
                        xxhash = readUnionIsFirstMember();
                    }
                    case 4 -> {
                        expectType(type, TYPE_STRUCT, "compression");
                        uncompressed = readUnionIsFirstMember();
                    }
                    default -> skip(type, 0);
                }
            }
            if (numBytes == null || block == null || xxhash == null || uncompressed == null) {
                return new ParseResult.Invalid("header lacks a required field (numBytes, algorithm, hash, compression)");
            }
            if (!block) {
                return new ParseResult.Invalid("unknown bloom filter algorithm (only BLOCK is defined)");
            }
            if (!xxhash) {
                return new ParseResult.Invalid("unknown bloom filter hash (only XXHASH is defined)");
            }
            if (!uncompressed) {
                return new ParseResult.Invalid("unknown bloom filter compression (only UNCOMPRESSED is defined)");
            }
            if (numBytes <= 0 || numBytes % BYTES_PER_BLOCK != 0 || numBytes > MAX_BYTES) {
                return new ParseResult.Invalid("numBytes %d is not a positive multiple of %d up to %d".formatted(numBytes, BYTES_PER_BLOCK, MAX_BYTES));
            }
            return new ParseResult.Parsed(new BloomFilterHeader(numBytes, position - start));
        }

        /**
         * Reads a union struct and tells whether its set member is field 1 (the only member the spec defines).
         */
        private boolean readUnionIsFirstMember()
                throws EndOfInput, MalformedThrift
        {
            boolean firstMember = false;
            boolean anyMember = false;
            int lastField = 0;
            while (true) {
                int fieldHeader = readByte();
                int type = fieldHeader & 0x0F;
                if (type == TYPE_STOP) {
                    break;
                }
                int field = fieldId(fieldHeader, lastField);
                lastField = field;
                if (anyMember) {
                    throw new MalformedThrift("union with more than one member set");
                }
                anyMember = true;
                firstMember = field == 1 && type == TYPE_STRUCT;
                skip(type, 1);
            }
            return firstMember;
        }

        private void expectType(int actual, int expected, String name)
                throws MalformedThrift
        {
            if (actual != expected) {
                throw new MalformedThrift("field %s has Thrift type %d, expected %d".formatted(name, actual, expected));
            }
        }

        private int fieldId(int fieldHeader, int lastField)
                throws EndOfInput, MalformedThrift
        {
            int delta = (fieldHeader >>> 4) & 0x0F;
            if (delta != 0) {
                return lastField + delta;
            }
            long zigzag = readVarint(3);
            int id = (int) ((zigzag >>> 1) ^ -(zigzag & 1));
            if (id < 0 || id > Short.MAX_VALUE) {
                throw new MalformedThrift("invalid field id " + id);
            }
            return id;
        }

        private void skip(int type, int depth)
                throws EndOfInput, MalformedThrift
        {
            if (depth > MAX_NESTING) {
                throw new MalformedThrift("nesting deeper than " + MAX_NESTING);
            }
            switch (type) {
                case TYPE_TRUE, TYPE_FALSE -> {}
                case TYPE_BYTE -> readByte();
                case TYPE_I16, TYPE_I32, TYPE_I64 -> readVarint(10);
                case TYPE_DOUBLE -> advance(8);
                case TYPE_BINARY -> advance(readLength());
                case TYPE_LIST, TYPE_SET -> {
                    int sizeAndType = readByte();
                    int size = (sizeAndType >>> 4) & 0x0F;
                    if (size == 15) {
                        size = readLength();
                    }
                    int elementType = sizeAndType & 0x0F;
                    for (int i = 0; i < size; i++) {
                        skipElement(elementType, depth + 1);
                    }
                }
                case TYPE_MAP -> {
                    int size = readLength();
                    if (size > 0) {
                        int types = readByte();
                        for (int i = 0; i < size; i++) {
                            skipElement((types >>> 4) & 0x0F, depth + 1);
                            skipElement(types & 0x0F, depth + 1);
                        }
                    }
                }
                case TYPE_STRUCT -> {
                    int lastField = 0;
                    while (true) {
                        int fieldHeader = readByte();
                        int fieldType = fieldHeader & 0x0F;
                        if (fieldType == TYPE_STOP) {
                            return;
                        }
                        lastField = fieldId(fieldHeader, lastField);
                        skip(fieldType, depth + 1);
                    }
                }
                default -> throw new MalformedThrift("unknown Thrift compact type " + type);
            }
        }

        private void skipElement(int type, int depth)
                throws EndOfInput, MalformedThrift
        {
            // inside collections booleans take a byte of their own
            if (type == TYPE_TRUE || type == TYPE_FALSE) {
                readByte();
                return;
            }
            skip(type, depth);
        }

        private int readZigzagI32()
                throws EndOfInput, MalformedThrift
        {
            long zigzag = readVarint(5);
            if (zigzag > 0xFFFF_FFFFL) {
                throw new MalformedThrift("i32 varint out of range");
            }
            return (int) ((zigzag >>> 1) ^ -(zigzag & 1));
        }

        private int readLength()
                throws EndOfInput, MalformedThrift
        {
            long length = readVarint(5);
            if (length > MAX_FIELD_LENGTH) {
                throw new MalformedThrift("length %d is implausible".formatted(length));
            }
            return (int) length;
        }

        private long readVarint(int maxBytes)
                throws EndOfInput, MalformedThrift
        {
            long result = 0;
            for (int i = 0; i < maxBytes; i++) {
                int b = readByte();
                result |= (long) (b & 0x7F) << (7 * i);
                if ((b & 0x80) == 0) {
                    return result;
                }
            }
            throw new MalformedThrift("varint longer than %d bytes".formatted(maxBytes));
        }

        private void advance(int count)
                throws EndOfInput
        {
            if (count > end - position) {
                position = end;
                throw new EndOfInput();
            }
            position += count;
        }

        private int readByte()
                throws EndOfInput
        {
            if (position >= end) {
                throw new EndOfInput();
            }
            return buffer[position++] & 0xFF;
        }
    }
}
