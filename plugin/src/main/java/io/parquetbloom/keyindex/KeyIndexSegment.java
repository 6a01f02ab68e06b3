package io.parquetbloom.keyindex;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static io.parquetbloom.keyindex.KeyIndexFormat.END_LENGTH;
import static io.parquetbloom.keyindex.KeyIndexFormat.MAGIC;
import static io.parquetbloom.keyindex.KeyIndexFormat.ROW_GROUP_VERSION;
import static io.parquetbloom.keyindex.KeyIndexFormat.VERSION;
import static java.util.Objects.requireNonNull;

/**
 * A segment's trailer, parsed: its header, where each postings page lies, and its file directory. Immutable and
 * kept in the node's metadata budget under the segment's name and ETag; pages are read on demand.
 */
public final class KeyIndexSegment
{
    private static final int INSTANCE_SIZE = instanceSize(KeyIndexSegment.class);

    /**
     * What an entry names: the file's place in the directory, the row group's ordinal in the file, and the key
     * column's page in that row group, or -1 where the entry names the whole row group.
     */
    public interface MatchConsumer
    {
        void accept(int file, int rowGroup, int page);
    }

    private final SegmentHeader header;
    private final long entries;
    private final long[] pageFirst;
    private final long[] pageOffset;
    private final int[] pageLength;
    private final int[] pageEntries;
    private final int[] pageCrc;
    private final List<IndexedFile> files;
    // the segment-wide ordinal of each file's first slot (row group, or key page); one more element holding the total
    private final long[] slotBase;
    // per file, the ordinal (from the file's first) of each row group's first slot; one more element holding the total
    private final long[][] rowGroupSlots;

    private KeyIndexSegment(SegmentHeader header, long entries, long[] pageFirst, long[] pageOffset, int[] pageLength, int[] pageEntries, int[] pageCrc, List<IndexedFile> files)
    {
        this.header = header;
        this.entries = entries;
        this.pageFirst = pageFirst;
        this.pageOffset = pageOffset;
        this.pageLength = pageLength;
        this.pageEntries = pageEntries;
        this.pageCrc = pageCrc;
        this.files = List.copyOf(files);
        this.slotBase = new long[files.size() + 1];
        this.rowGroupSlots = new long[files.size()][];
        for (int i = 0; i < files.size(); i++) {
            IndexedFile file = files.get(i);
            rowGroupSlots[i] = new long[file.rowGroups() + 1];
            for (int rowGroup = 0; rowGroup < file.rowGroups(); rowGroup++) {
                rowGroupSlots[i][rowGroup + 1] = rowGroupSlots[i][rowGroup] + file.keyPages(rowGroup);
            }
            slotBase[i + 1] = slotBase[i] + rowGroupSlots[i][file.rowGroups()];
        }
    }

    /**
     * @param suffix the last {@code suffix.length} bytes of the segment, which must hold the whole trailer
     * @param objectSize the segment's size
     * @throws KeyIndexUnusableException when the bytes are not a segment this version reads
     */
    public static KeyIndexSegment parse(byte[] suffix, long objectSize, String name)
            throws KeyIndexUnusableException
    {
        requireNonNull(suffix, "suffix is null");
        if (suffix.length < END_LENGTH || !Arrays.equals(suffix, suffix.length - MAGIC.length, suffix.length, MAGIC, 0, MAGIC.length)) {
            throw new KeyIndexUnusableException("%s does not end like a key index segment".formatted(name));
        }
        int trailerLength = readInt(suffix, suffix.length - END_LENGTH);
        if (trailerLength < Integer.BYTES || trailerLength > suffix.length - END_LENGTH || trailerLength + END_LENGTH + MAGIC.length > objectSize) {
            throw new KeyIndexUnusableException("%s: trailer length %d does not fit the %d bytes read of %d".formatted(name, trailerLength, suffix.length, objectSize));
        }
        int trailerStart = suffix.length - END_LENGTH - trailerLength;
        CRC32 crc = new CRC32();
        crc.update(suffix, trailerStart, trailerLength - Integer.BYTES);
        if ((int) crc.getValue() != readInt(suffix, trailerStart + trailerLength - Integer.BYTES)) {
            throw new KeyIndexUnusableException("%s: trailer checksum mismatch".formatted(name));
        }
        try {
            return read(new DataInputStream(new ByteArrayInputStream(suffix, trailerStart, trailerLength - Integer.BYTES)), objectSize - END_LENGTH - trailerLength, name);
        }
        catch (IOException | RuntimeException e) {
            throw new KeyIndexUnusableException("%s: unreadable trailer: %s".formatted(name, e.getMessage()), e);
        }
    }

    private static KeyIndexSegment read(DataInputStream in, long pagesEnd, String name)
            throws IOException, KeyIndexUnusableException
    {
        int version = in.readInt();
        if (version != VERSION && version != ROW_GROUP_VERSION) {
            throw new KeyIndexUnusableException("%s: format version %d, this reader knows %d and %d".formatted(name, version, ROW_GROUP_VERSION, VERSION));
        }
        String column = in.readUTF();
        String trinoType = in.readUTF();
        String columnType = in.readUTF();
        int hashBits = in.readUnsignedByte();
        int rowGroupBits = in.readUnsignedByte();
        long entries = in.readLong();
        if (hashBits < 1 || rowGroupBits < 0 || hashBits + rowGroupBits > KeyIndexFormat.PACKED_BITS) {
            // H = 0 would make every truncated hash equal and a lookup find nothing: never trusted
            throw new KeyIndexUnusableException("%s: %d hash bits and %d row group bits do not fit an entry of 63 bits".formatted(name, hashBits, rowGroupBits));
        }
        SegmentHeader header = new SegmentHeader(column, trinoType, columnType, hashBits, rowGroupBits, in.readLong(), in.readLong());
        PageDirectory pages = readPageDirectory(in, pagesEnd, entries, name);
        List<IndexedFile> files = readFiles(in, version);
        if (in.available() != 0) {
            throw new KeyIndexUnusableException("%s: %d unexpected bytes after the file directory".formatted(name, in.available()));
        }
        return new KeyIndexSegment(header, entries, pages.first(), pages.offset(), pages.length(), pages.count(), pages.crc(), files);
    }

    private record PageDirectory(long[] first, long[] offset, int[] length, int[] count, int[] crc) {}

    /**
     * The page directory, checked against itself and the trailer: pages in ascending first hash, laid end to end up
     * to the trailer, holding every entry the header declares.
     */
    private static PageDirectory readPageDirectory(DataInputStream in, long pagesEnd, long entries, String name)
            throws IOException, KeyIndexUnusableException
    {
        int pages = in.readInt();
        PageDirectory directory = new PageDirectory(new long[pages], new long[pages], new int[pages], new int[pages], new int[pages]);
        long position = MAGIC.length;
        long total = 0;
        for (int page = 0; page < pages; page++) {
            directory.first()[page] = in.readLong();
            directory.length()[page] = in.readInt();
            directory.count()[page] = in.readInt();
            directory.crc()[page] = in.readInt();
            directory.offset()[page] = position;
            position += directory.length()[page];
            total += directory.count()[page];
            if (directory.length()[page] < 0 || directory.count()[page] < 1 || (page > 0 && directory.first()[page] <= directory.first()[page - 1])) {
                throw new KeyIndexUnusableException("%s: page directory entry %d is inconsistent".formatted(name, page));
            }
        }
        if (position != pagesEnd || total != entries) {
            throw new KeyIndexUnusableException("%s: pages end at %d, trailer starts at %d; %d entries counted, %d declared".formatted(name, position, pagesEnd, total, entries));
        }
        return directory;
    }

    private static List<IndexedFile> readFiles(DataInputStream in, int version)
            throws IOException
    {
        int fileCount = in.readInt();
        List<IndexedFile> files = new ArrayList<>(fileCount);
        for (int file = 0; file < fileCount; file++) {
            String path = in.readUTF();
            long size = in.readLong();
            String etag = in.readUTF();
            boolean indexed = in.readBoolean();
            int rowGroups = in.readInt();
            long[] rows = new long[rowGroups];
            long[] sizes = new long[rowGroups];
            int[] keyPages = new int[rowGroups];
            for (int rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
                rows[rowGroup] = in.readLong();
                sizes[rowGroup] = in.readLong();
                // version 1 entries name row groups
                keyPages[rowGroup] = version == ROW_GROUP_VERSION ? 1 : in.readInt();
            }
            files.add(new IndexedFile(path, size, etag, indexed, rows, sizes, keyPages));
        }
        return files;
    }

    public SegmentHeader header()
    {
        return header;
    }

    public long entries()
    {
        return entries;
    }

    public List<IndexedFile> files()
    {
        return files;
    }

    public int pageCount()
    {
        return pageFirst.length;
    }

    public long pageOffset(int page)
    {
        return pageOffset[page];
    }

    public int pageLength(int page)
    {
        return pageLength[page];
    }

    /**
     * The pages that may hold entries of these truncated hashes, in order.
     *
     * @param truncatedHashes sorted, distinct
     */
    public int[] pagesFor(long[] truncatedHashes)
    {
        int[] pages = new int[Math.min(truncatedHashes.length * 2, pageFirst.length) + 1];
        int count = 0;
        int last = -1;
        for (long hash : truncatedHashes) {
            long low = hash << header.rowGroupBits();
            long high = low | ((1L << header.rowGroupBits()) - 1);
            // the last page starting at or before low holds the first candidate, unless low precedes every page
            int page = Math.max(0, floor(low));
            for (; page < pageFirst.length && pageFirst[page] <= high; page++) {
                if (page > last) {
                    if (count == pages.length) {
                        pages = Arrays.copyOf(pages, Math.min(pages.length * 2, pageFirst.length));
                    }
                    pages[count++] = page;
                    last = page;
                }
            }
        }
        return Arrays.copyOf(pages, count);
    }

    private int floor(long value)
    {
        int index = Arrays.binarySearch(pageFirst, value);
        return index >= 0 ? index : -index - 2;
    }

    /**
     * Decodes page {@code page} and hands every entry whose hash is one of {@code truncatedHashes} to
     * {@code matches}.
     *
     * @throws KeyIndexUnusableException when the page's bytes do not match its checksum or count
     */
    public void matches(int page, byte[] bytes, int offset, long[] truncatedHashes, MatchConsumer matches)
            throws KeyIndexUnusableException
    {
        int rowGroupBits = header.rowGroupBits();
        // entries and hashes both ascend: one walk over both (2,000 probed hashes against a page of 16,000 entries)
        int next = 0;
        for (long value : entries(page, bytes, offset)) {
            long hash = value >>> rowGroupBits;
            while (next < truncatedHashes.length && truncatedHashes[next] < hash) {
                next++;
            }
            if (next == truncatedHashes.length) {
                return;
            }
            if (truncatedHashes[next] == hash) {
                emit(value & ((1L << rowGroupBits) - 1), page, matches);
            }
        }
    }

    /**
     * Every entry of page {@code page}: the truncated hash in the high bits, the segment-wide row-group ordinal in
     * the low {@link SegmentHeader#rowGroupBits()}.
     */
    public long[] entries(int page, byte[] bytes, int offset)
            throws KeyIndexUnusableException
    {
        int length = pageLength[page];
        if (offset < 0 || offset + length > bytes.length) {
            throw new KeyIndexUnusableException("page %d lies outside the bytes read".formatted(page));
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        if ((int) crc.getValue() != pageCrc[page]) {
            throw new KeyIndexUnusableException("page %d: checksum mismatch".formatted(page));
        }
        long[] entries = new long[pageEntries[page]];
        long value = pageFirst[page];
        int position = offset;
        int end = offset + length;
        for (int entry = 0; entry < entries.length; entry++) {
            if (entry > 0) {
                long delta = 0;
                int shift = 0;
                while (true) {
                    if (position >= end || shift > 56) {
                        throw new KeyIndexUnusableException("page %d: entry %d runs past the page".formatted(page, entry));
                    }
                    byte b = bytes[position++];
                    delta |= (long) (b & 0x7F) << shift;
                    if (b >= 0) {
                        break;
                    }
                    shift += 7;
                }
                value += delta;
            }
            entries[entry] = value;
        }
        if (position != end) {
            throw new KeyIndexUnusableException("page %d: %d bytes left after its %d entries".formatted(page, end - position, entries.length));
        }
        return entries;
    }

    /**
     * The file a segment-wide slot ordinal belongs to, its row group in that file, and its key page.
     */
    public void locate(long slot, MatchConsumer consumer)
            throws KeyIndexUnusableException
    {
        emit(slot, -1, consumer);
    }

    private void emit(long slot, int indexPage, MatchConsumer matches)
            throws KeyIndexUnusableException
    {
        if (slot >= slotBase[files.size()]) {
            throw new KeyIndexUnusableException("page %d names slot %d of %d".formatted(indexPage, slot, slotBase[files.size()]));
        }
        int file = lastStartingAtOrBefore(slotBase, files.size(), slot);
        long inFile = slot - slotBase[file];
        int rowGroup = lastStartingAtOrBefore(rowGroupSlots[file], files.get(file).rowGroups(), inFile);
        int page = files.get(file).keyPages(rowGroup) == 1 ? -1 : (int) (inFile - rowGroupSlots[file][rowGroup]);
        matches.accept(file, rowGroup, page);
    }

    /**
     * The slot (from its file's first) of a row group's key page, or of the row group (page -1).
     */
    public long slotInFile(int file, int rowGroup, int page)
    {
        return rowGroupSlots[file][rowGroup] + Math.max(0, page);
    }

    /**
     * The last of the first {@code count} elements of ascending {@code starts} that is at most {@code value}: an
     * element with nothing from it (a file without row groups) shares its start with the next and is passed over.
     */
    private static int lastStartingAtOrBefore(long[] starts, int count, long value)
    {
        int index = Arrays.binarySearch(starts, 0, count, value);
        if (index >= 0) {
            while (index + 1 < count && starts[index + 1] == value) {
                index++;
            }
            return index;
        }
        return -index - 2;
    }

    public long getRetainedSizeInBytes()
    {
        long size = INSTANCE_SIZE + sizeOf(pageFirst) + sizeOf(pageOffset) + sizeOf(pageLength) + sizeOf(pageEntries) + sizeOf(pageCrc) + sizeOf(slotBase);
        for (int i = 0; i < files.size(); i++) {
            size += files.get(i).getRetainedSizeInBytes() + sizeOf(rowGroupSlots[i]) + 16;
        }
        return size + header.column().length() * 2L + header.trinoType().length() * 2L + header.columnType().length() * 2L;
    }

    private static int readInt(byte[] bytes, int offset)
    {
        return ((bytes[offset] & 0xFF) << 24) | ((bytes[offset + 1] & 0xFF) << 16) | ((bytes[offset + 2] & 0xFF) << 8) | (bytes[offset + 3] & 0xFF);
    }
}
