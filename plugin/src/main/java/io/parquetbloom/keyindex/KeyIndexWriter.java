package io.parquetbloom.keyindex;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.zip.CRC32;

import static io.parquetbloom.keyindex.KeyIndexFormat.MAGIC;
import static io.parquetbloom.keyindex.KeyIndexFormat.TARGET_PAGE_BYTES;
import static io.parquetbloom.keyindex.KeyIndexFormat.VERSION;
import static io.parquetbloom.keyindex.KeyIndexFormat.writeVarLong;
import static java.util.Objects.requireNonNull;

/**
 * Writes one segment to a local file from entries already sorted and distinct: postings pages of delta-coded
 * entries, then the trailer that makes the segment readable from its end with one ranged GET.
 */
public final class KeyIndexWriter
{
    /**
     * What was written.
     *
     * @param trailerBytes bytes from the start of the trailer to the end of the object: the suffix a reader GETs
     */
    public record WrittenSegment(long size, int trailerBytes, long entries, int pages) {}

    private KeyIndexWriter() {}

    public static WrittenSegment write(Path target, SegmentHeader header, List<IndexedFile> files, PrimitiveIterator.OfLong sortedEntries)
            throws IOException
    {
        return write(target, VERSION, header, files, sortedEntries);
    }

    /**
     * A segment of an older format version, as builders before this one wrote it (tests of reading old indexes).
     */
    static WrittenSegment write(Path target, int version, SegmentHeader header, List<IndexedFile> files, PrimitiveIterator.OfLong sortedEntries)
            throws IOException
    {
        if (version < VERSION && files.stream().anyMatch(file -> file.slots() != file.rowGroups())) {
            throw new IllegalArgumentException("a segment of version %d names row groups only".formatted(version));
        }
        requireNonNull(header, "header is null");
        requireNonNull(files, "files is null");
        try (OutputStream file = Files.newOutputStream(target);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(file, 1 << 16))) {
            out.write(MAGIC);
            PageDirectory pages = writePages(out, sortedEntries);
            byte[] trailer = trailer(version, header, pages, files);
            out.write(trailer);
            out.writeInt(trailer.length);
            out.write(MAGIC);
            out.flush();
            long size = MAGIC.length + pages.bytes() + trailer.length + KeyIndexFormat.END_LENGTH;
            return new WrittenSegment(size, trailer.length + KeyIndexFormat.END_LENGTH, pages.entries(), pages.count());
        }
    }

    private static PageDirectory writePages(DataOutputStream out, PrimitiveIterator.OfLong entries)
            throws IOException
    {
        PageDirectory directory = new PageDirectory();
        ByteArrayOutputStream page = new ByteArrayOutputStream(TARGET_PAGE_BYTES + 16);
        long first = 0;
        long previous = 0;
        int count = 0;
        while (entries.hasNext()) {
            long entry = entries.nextLong();
            if (count > 0 && entry <= previous) {
                throw new IllegalArgumentException("entries are not strictly increasing: %d after %d".formatted(entry, previous));
            }
            if (count == 0) {
                first = entry;
            }
            else {
                writeVarLong(page, entry - previous);
            }
            previous = entry;
            count++;
            if (page.size() >= TARGET_PAGE_BYTES) {
                directory.add(first, page.toByteArray(), count);
                out.write(page.toByteArray());
                page.reset();
                count = 0;
            }
        }
        if (count > 0) {
            directory.add(first, page.toByteArray(), count);
            out.write(page.toByteArray());
        }
        return directory;
    }

    private static byte[] trailer(int version, SegmentHeader header, PageDirectory pages, List<IndexedFile> files)
            throws IOException
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(version);
        out.writeUTF(header.column());
        out.writeUTF(header.trinoType());
        out.writeUTF(header.columnType());
        out.writeByte(header.hashBits());
        out.writeByte(header.rowGroupBits());
        out.writeLong(pages.entries());
        out.writeLong(header.builtAtMillis());
        out.writeLong(header.buildMillis());
        pages.writeTo(out);
        out.writeInt(files.size());
        for (IndexedFile file : files) {
            out.writeUTF(file.path());
            out.writeLong(file.size());
            out.writeUTF(file.etag());
            out.writeBoolean(file.indexed());
            out.writeInt(file.rowGroups());
            for (int rowGroup = 0; rowGroup < file.rowGroups(); rowGroup++) {
                out.writeLong(file.rowCounts()[rowGroup]);
                out.writeLong(file.compressedSize(rowGroup));
                if (version >= VERSION) {
                    out.writeInt(file.keyPages(rowGroup));
                }
            }
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        out.flush();
        return bytes.toByteArray();
    }

    private static final class PageDirectory
    {
        private final ByteArrayOutputStream directory = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(directory);
        private int count;
        private long entries;
        private long bytes;

        void add(long first, byte[] page, int pageEntries)
                throws IOException
        {
            CRC32 crc = new CRC32();
            crc.update(page);
            out.writeLong(first);
            out.writeInt(page.length);
            out.writeInt(pageEntries);
            out.writeInt((int) crc.getValue());
            count++;
            entries += pageEntries;
            bytes += page.length;
        }

        void writeTo(DataOutputStream target)
                throws IOException
        {
            target.writeInt(count);
            out.flush();
            directory.writeTo(target);
        }

        int count()
        {
            return count;
        }

        long entries()
        {
            return entries;
        }

        long bytes()
        {
            return bytes;
        }
    }
}
