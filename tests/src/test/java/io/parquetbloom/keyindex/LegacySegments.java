package io.parquetbloom.keyindex;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Key index segments as builders before format version 2 wrote them, made from current ones: the same keys and
 * files, each entry naming its row group instead of a page. Tests use them to check that an index of the old version
 * is read as it is, beside segments of the new one.
 */
public final class LegacySegments
{
    private LegacySegments() {}

    /**
     * @param bytes the segment as written
     * @param trailerBytes bytes from its trailer's start to its end
     */
    public record Segment(byte[] bytes, int trailerBytes) {}

    public static Segment asRowGroupVersion(byte[] segmentBytes, Path work)
            throws IOException, KeyIndexUnusableException
    {
        int trailerBytes = ByteBuffer.wrap(segmentBytes).getInt(segmentBytes.length - KeyIndexFormat.END_LENGTH) + KeyIndexFormat.END_LENGTH;
        KeyIndexSegment segment = KeyIndexSegment.parse(Arrays.copyOfRange(segmentBytes, segmentBytes.length - trailerBytes, segmentBytes.length), segmentBytes.length, "segment");
        List<IndexedFile> files = new ArrayList<>();
        long[] rowGroupBase = new long[segment.files().size()];
        long rowGroups = 0;
        for (int i = 0; i < segment.files().size(); i++) {
            IndexedFile file = segment.files().get(i);
            files.add(new IndexedFile(file.path(), file.size(), file.etag(), file.indexed(), file.rowCounts(), file.compressedSizes()));
            rowGroupBase[i] = rowGroups;
            rowGroups += file.rowGroups();
        }
        SegmentHeader header = segment.header();
        int rowGroupBits = KeyIndexFormat.rowGroupBits(rowGroups);
        TreeSet<Long> entries = new TreeSet<>();
        for (int page = 0; page < segment.pageCount(); page++) {
            for (long entry : segment.entries(page, segmentBytes, (int) segment.pageOffset(page))) {
                long hash = entry >>> header.rowGroupBits();
                segment.locate(entry & ((1L << header.rowGroupBits()) - 1), (file, rowGroup, _) -> entries.add(KeyIndexFormat.pack(hash, rowGroupBits, rowGroupBase[file] + rowGroup)));
            }
        }
        Path target = Files.createTempFile(work, "legacy-", KeyIndexFormat.SEGMENT_SUFFIX);
        try {
            SegmentHeader legacy = new SegmentHeader(header.column(), header.trinoType(), header.columnType(), header.hashBits(), rowGroupBits, header.builtAtMillis(), header.buildMillis());
            KeyIndexWriter.WrittenSegment written = KeyIndexWriter.write(target, KeyIndexFormat.ROW_GROUP_VERSION, legacy, files, entries.stream().mapToLong(Long::longValue).iterator());
            return new Segment(Files.readAllBytes(target), written.trailerBytes());
        }
        finally {
            Files.deleteIfExists(target);
        }
    }
}
