package io.parquetbloom.keyindex;


import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Constants and the variable-length integer coding of the segment format written down in
 * {@code docs/key-index-format.md}: a segment is {@code MAGIC}, its postings pages, then a trailer (header, page
 * directory, file directory, CRC-32 of the trailer, the trailer's length, {@code MAGIC}), all big-endian.
 */
public final class KeyIndexFormat
{
    public static final byte[] MAGIC = "PBKI".getBytes(StandardCharsets.US_ASCII);
    // version 2 adds each row group's key pages to the file directory: entries then name a page of the key column
    public static final int VERSION = 2;
    // the oldest segment version a reader still reads: its entries name row groups
    public static final int ROW_GROUP_VERSION = 1;
    // the pointer's own version, apart from its segments'
    public static final int POINTER_VERSION = 1;
    // the fixed end of a segment: the trailer's length and the magic
    public static final int END_LENGTH = Integer.BYTES + 4;
    // postings are cut into pages of about this many bytes; one probed hash reads one page
    public static final int TARGET_PAGE_BYTES = 64 * 1024;
    // expected false matches per probed key: entries / 2^hashBits, so hashBits = log2(entries) + this
    public static final int FALSE_MATCH_BITS = 12;
    public static final int MIN_HASH_BITS = 24;
    // packed entries stay non-negative, so they sort as signed longs
    public static final int PACKED_BITS = 63;

    public static final String SEGMENT_SUFFIX = ".kidx";

    private KeyIndexFormat() {}

    /**
     * Bits of the slot ordinal (row group, or key page of a row group) of a segment over {@code rowGroups} slots (at
     * least one).
     */
    public static int rowGroupBits(long rowGroups)
    {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(Math.max(1, rowGroups - 1)));
    }

    /**
     * Bits of the hash kept per entry for about {@code entries} entries: enough that a probed key matches a
     * foreign entry with odds of about 2^-{@value #FALSE_MATCH_BITS}, within what the row-group ordinal leaves.
     */
    public static int hashBits(long entries, int rowGroupBits)
    {
        int wanted = 64 - Long.numberOfLeadingZeros(Math.max(1, entries)) + FALSE_MATCH_BITS;
        return Math.max(1, Math.min(PACKED_BITS - rowGroupBits, Math.max(MIN_HASH_BITS, wanted)));
    }

    public static long truncate(long hash, int hashBits)
    {
        return hash >>> (64 - hashBits);
    }

    public static long pack(long truncatedHash, int rowGroupBits, long rowGroup)
    {
        return (truncatedHash << rowGroupBits) | rowGroup;
    }

    static void writeVarLong(ByteArrayOutputStream out, long value)
    {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    public static String segmentName(String id)
    {
        return id + SEGMENT_SUFFIX;
    }
}
