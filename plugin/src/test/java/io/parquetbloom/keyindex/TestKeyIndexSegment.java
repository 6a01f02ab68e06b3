package io.parquetbloom.keyindex;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestKeyIndexSegment
{
    private static final int FILES = 40;
    private static final int ROW_GROUPS = 3;

    @TempDir
    Path directory;

    private record Entry(long hash, int file, int rowGroup) {}

    @Test
    void everyEntryIsFoundAndFalseMatchesAreRare()
            throws Exception
    {
        Random random = new Random(7);
        List<Entry> entries = randomEntries(random, 60_000);
        int hashBits = KeyIndexFormat.hashBits(entries.size(), KeyIndexFormat.rowGroupBits(FILES * ROW_GROUPS));
        Written written = write(entries, hashBits);
        KeyIndexSegment segment = written.segment();
        assertThat(segment.entries()).isEqualTo(entries.size());
        assertThat(segment.pageCount()).isGreaterThan(1);
        assertThat(segment.files()).hasSize(FILES);
        // the format's target: at most 6 bytes per entry
        assertThat((double) written.size() / entries.size()).isLessThan(6.0);
        for (Entry entry : entries.subList(0, 500)) {
            assertThat(lookup(written, entry.hash())).contains(entry.file() + ":" + entry.rowGroup());
        }
        int falseMatches = 0;
        for (int i = 0; i < 2_000; i++) {
            falseMatches += lookup(written, random.nextLong()).size();
        }
        // the hash keeps log2(entries) + 12 bits: a foreign key matches an entry with odds of ~2^-12, ~0.5 in 2,000
        assertThat(hashBits).isEqualTo(16 + KeyIndexFormat.FALSE_MATCH_BITS);
        assertThat(falseMatches).isLessThanOrEqualTo(4);
    }

    /**
     * Format version 2: entries name a page of the key column in row groups whose pages the build told apart, the
     * row group in those it did not (one slot); a segment of version 1, as earlier builds wrote it, is read with every
     * entry naming its row group.
     */
    @Test
    void entriesNameKeyPagesAndVersionOneNamesRowGroups()
            throws Exception
    {
        int[] keyPages = {1, 4, 2};
        List<IndexedFile> files = new ArrayList<>();
        for (int file = 0; file < 3; file++) {
            files.add(new IndexedFile("part-%d.parquet".formatted(file), 1000, "etag" + file, true, new long[] {10, 40, 20}, new long[] {100, 100, 100}, keyPages));
        }
        long slots = files.stream().mapToLong(IndexedFile::slots).sum();
        assertThat(slots).isEqualTo(21);
        int slotBits = KeyIndexFormat.rowGroupBits(slots);
        // (hash, file, row group, page): a key in two pages of one row group has an entry for each
        long[][] keys = {{11, 0, 0, -1}, {22, 1, 1, 3}, {22, 1, 1, 0}, {33, 2, 2, 1}, {44, 2, 1, 2}};
        long[] packed = Arrays.stream(keys)
                .mapToLong(key -> KeyIndexFormat.pack(key[0], slotBits, 7L * key[1] + files.get((int) key[1]).slotOf((int) key[2], (int) key[3])))
                .sorted()
                .toArray();
        SegmentHeader header = new SegmentHeader("device_id", "varchar", "optional binary device_id (STRING)", 30, slotBits, 1, 2);
        Written segment = read(KeyIndexWriter.write(directory.resolve("v2"), header, files, Arrays.stream(packed).iterator()), directory.resolve("v2"));
        assertThat(segment.segment().files()).isEqualTo(files);
        assertThat(named(segment, 22)).containsExactlyInAnyOrder("1:1:3", "1:1:0");
        assertThat(named(segment, 33)).containsExactly("2:2:1");
        assertThat(named(segment, 44)).containsExactly("2:1:2");
        // a row group of one key page: the entry names the row group
        assertThat(named(segment, 11)).containsExactly("0:0:-1");

        List<IndexedFile> rowGroupFiles = files.stream().map(file -> new IndexedFile(file.path(), file.size(), file.etag(), true, file.rowCounts(), file.compressedSizes())).toList();
        int rowGroupBits = KeyIndexFormat.rowGroupBits(9);
        long[] byRowGroup = Arrays.stream(keys).mapToLong(key -> KeyIndexFormat.pack(key[0], rowGroupBits, 3L * key[1] + key[2])).sorted().distinct().toArray();
        SegmentHeader oldHeader = new SegmentHeader("device_id", "varchar", "optional binary device_id (STRING)", 30, rowGroupBits, 1, 2);
        Written old = read(KeyIndexWriter.write(directory.resolve("v1"), KeyIndexFormat.ROW_GROUP_VERSION, oldHeader, rowGroupFiles, Arrays.stream(byRowGroup).iterator()), directory.resolve("v1"));
        assertThat(old.segment().files()).isEqualTo(rowGroupFiles);
        assertThat(named(old, 22)).containsExactly("1:1:-1");
        assertThat(named(old, 44)).containsExactly("2:1:-1");
        // a version 1 segment cannot hold key pages
        assertThatThrownBy(() -> KeyIndexWriter.write(directory.resolve("bad"), KeyIndexFormat.ROW_GROUP_VERSION, header, files, Arrays.stream(packed).iterator()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Written read(KeyIndexWriter.WrittenSegment written, Path file)
            throws IOException, KeyIndexUnusableException
    {
        byte[] bytes = Files.readAllBytes(file);
        KeyIndexSegment segment = KeyIndexSegment.parse(Arrays.copyOfRange(bytes, bytes.length - written.trailerBytes(), bytes.length), bytes.length, file.toString());
        return new Written(segment, bytes, written.trailerBytes(), written.size());
    }

    /**
     * What the segment's entries of a truncated hash name, as "file:row group:page".
     */
    private static Set<String> named(Written written, long hash)
            throws KeyIndexUnusableException
    {
        KeyIndexSegment segment = written.segment();
        long[] hashes = {hash};
        Set<String> found = new HashSet<>();
        for (int page : segment.pagesFor(hashes)) {
            segment.matches(page, written.bytes(), (int) segment.pageOffset(page), hashes, (file, rowGroup, keyPage) -> found.add(file + ":" + rowGroup + ":" + keyPage));
        }
        return found;
    }

    @Test
    void flippedPageByteIsDetected()
            throws Exception
    {
        List<Entry> entries = randomEntries(new Random(8), 30_000);
        Written written = write(entries, 40);
        byte[] bytes = written.bytes();
        int page = 1;
        int offset = (int) written.segment().pageOffset(page) + 17;
        bytes[offset] ^= 0x10;
        long[] hashes = {KeyIndexFormat.truncate(entries.get(0).hash(), 40)};
        assertThatThrownBy(() -> written.segment().matches(page, bytes, (int) written.segment().pageOffset(page), hashes, (_, _, _) -> {}))
                .isInstanceOf(KeyIndexUnusableException.class)
                .hasMessageContaining("checksum");
    }

    @Test
    void damagedTrailersAreUnusable()
            throws Exception
    {
        Written written = write(randomEntries(new Random(9), 1_000), 40);
        byte[] bytes = written.bytes();
        byte[] suffix = Arrays.copyOfRange(bytes, bytes.length - written.trailerBytes(), bytes.length);
        // truncated: the suffix does not hold the trailer its length names
        assertThatThrownBy(() -> KeyIndexSegment.parse(Arrays.copyOfRange(suffix, 10, suffix.length), bytes.length, "s"))
                .isInstanceOf(KeyIndexUnusableException.class);
        // a flipped byte in the file directory
        byte[] flipped = suffix.clone();
        flipped[flipped.length - 40] ^= 1;
        assertThatThrownBy(() -> KeyIndexSegment.parse(flipped, bytes.length, "s"))
                .isInstanceOf(KeyIndexUnusableException.class)
                .hasMessageContaining("checksum");
        // not a segment at all
        assertThatThrownBy(() -> KeyIndexSegment.parse(new byte[100], 100, "s"))
                .isInstanceOf(KeyIndexUnusableException.class);
    }

    /**
     * A header whose bit widths no build writes, under a valid checksum: with 0 hash bits, truncation would keep the
     * whole hash and every lookup would miss; with more than 63 bits in all, entries would overflow.
     */
    @Test
    void headerBitWidthsOutOfRangeAreUnusable()
            throws Exception
    {
        Written written = write(randomEntries(new Random(10), 100), 40);
        byte[] bytes = written.bytes();
        byte[] suffix = Arrays.copyOfRange(bytes, bytes.length - written.trailerBytes(), bytes.length);
        for (int[] bits : new int[][] {{0, 4}, {60, 4}, {63, 1}}) {
            byte[] patched = withBitWidths(suffix, bits[0], bits[1]);
            assertThatThrownBy(() -> KeyIndexSegment.parse(patched, bytes.length, "s"))
                    .as("%d hash bits, %d row group bits", bits[0], bits[1])
                    .isInstanceOf(KeyIndexUnusableException.class)
                    .hasMessageContaining("do not fit");
        }
        // the same patch with widths a build writes parses: only the widths were refused
        assertThat(KeyIndexSegment.parse(withBitWidths(suffix, 30, 5), bytes.length, "s").header().hashBits()).isEqualTo(30);
    }

    /**
     * The trailer with other bit widths and its checksum recomputed, as a writer with a bug would leave it.
     */
    private static byte[] withBitWidths(byte[] suffix, int hashBits, int rowGroupBits)
    {
        byte[] patched = suffix.clone();
        ByteBuffer end = ByteBuffer.wrap(patched);
        int trailerLength = end.getInt(patched.length - KeyIndexFormat.END_LENGTH);
        int trailerStart = patched.length - KeyIndexFormat.END_LENGTH - trailerLength;
        // version, then three UTF strings (a two-byte length each), then the two widths
        int position = trailerStart + Integer.BYTES;
        for (int string = 0; string < 3; string++) {
            position += Short.BYTES + end.getShort(position);
        }
        patched[position] = (byte) hashBits;
        patched[position + 1] = (byte) rowGroupBits;
        CRC32 crc = new CRC32();
        crc.update(patched, trailerStart, trailerLength - Integer.BYTES);
        end.putInt(trailerStart + trailerLength - Integer.BYTES, (int) crc.getValue());
        return patched;
    }

    @Test
    void emptySegment()
            throws Exception
    {
        Written written = write(List.of(), 30);
        assertThat(written.segment().pageCount()).isZero();
        assertThat(written.segment().pagesFor(new long[] {1, 2})).isEmpty();
    }

    @Test
    void pointerRoundTrip()
            throws Exception
    {
        KeyIndexPointer pointer = new KeyIndexPointer("device id", List.of(
                new KeyIndexPointer.Segment("a.kidx", 100, "etag-1", 50, 3, 1000, 1, 2),
                new KeyIndexPointer.Segment("b.kidx", 200, "etag-2", 60, 4, 2000, 3, 4)));
        assertThat(KeyIndexPointer.parse(pointer.serialize(), "p")).isEqualTo(pointer);
        assertThat(new String(pointer.serialize(), UTF_8)).startsWith("{").containsPattern("\"format\" *: *\"parquet-bloom-key-index\"").containsPattern("\"version\" *: *1").containsPattern("\"column\" *: *\"device id\"");
        // the line format of earlier versions is still read, with either line end
        String legacy = "parquet-bloom-key-index 1\ncolumn device+id\nsegment a.kidx 100 etag-1 50 3 1000 1 2\nsegment b.kidx 200 etag-2 60 4 2000 3 4\n";
        assertThat(KeyIndexPointer.parse(legacy.getBytes(UTF_8), "p")).isEqualTo(pointer);
        assertThat(KeyIndexPointer.parse(legacy.replace("\n", "\r\n").getBytes(UTF_8), "p")).isEqualTo(pointer);
        assertThatThrownBy(() -> KeyIndexPointer.parse("{\"format\":\"parquet-bloom-key-index\",\"version\":2,\"column\":\"x\",\"segments\":[]}".getBytes(UTF_8), "p"))
                .isInstanceOf(KeyIndexUnusableException.class)
                .hasMessageContaining("version");
        assertThatThrownBy(() -> KeyIndexPointer.parse("parquet-bloom-key-index 2\ncolumn x\n".getBytes(UTF_8), "p"))
                .isInstanceOf(KeyIndexUnusableException.class);
        assertThatThrownBy(() -> KeyIndexPointer.parse("parquet-bloom-key-index 1\ncolumn x\nsegment a\n".getBytes(UTF_8), "p"))
                .isInstanceOf(KeyIndexUnusableException.class);
        assertThatThrownBy(() -> KeyIndexPointer.parse("{\"format\":\"parquet-bloom-key-index\",\"version\":1,\"column\":\"x\",\"segments\":[{\"name\":\"a b\",\"etag\":\"e\"}]}".getBytes(UTF_8), "p"))
                .isInstanceOf(KeyIndexUnusableException.class);
        assertThatThrownBy(() -> KeyIndexPointer.parse(new byte[] {0, 1, 2}, "p"))
                .isInstanceOf(KeyIndexUnusableException.class);
    }

    @Test
    void sorterSpillsAndMerges()
            throws IOException
    {
        Random random = new Random(10);
        Set<Long> expected = new HashSet<>();
        try (EntrySorter sorter = new EntrySorter(8 * 1024, directory)) {
            for (int batch = 0; batch < 50; batch++) {
                long[] values = new long[500];
                for (int i = 0; i < values.length; i++) {
                    // duplicates inside and across runs
                    values[i] = random.nextInt(20_000);
                    expected.add(values[i]);
                }
                sorter.add(values, values.length);
            }
            assertThat(sorter.runs()).isGreaterThan(1);
            long[] sorted = toArray(sorter.sorted());
            assertThat(sorted).isEqualTo(expected.stream().mapToLong(Long::longValue).sorted().toArray());
        }
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void sorterGrowsItsBufferUpToTheBudgetThenSpills()
            throws IOException
    {
        Random random = new Random(11);
        long[] values = new long[300_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextLong() >>> 1;
        }
        // 1 MB: 131,072 entries, reached by doubling from 65,536, then spilled twice
        try (EntrySorter sorter = new EntrySorter(1024 * 1024, directory)) {
            for (int offset = 0; offset < values.length; offset += 10_000) {
                sorter.add(Arrays.copyOfRange(values, offset, offset + 10_000), 10_000);
            }
            assertThat(sorter.runs()).isEqualTo(2);
            assertThat(toArray(sorter.sorted())).isEqualTo(Arrays.stream(values).sorted().distinct().toArray());
        }
    }

    private static long[] toArray(PrimitiveIterator.OfLong iterator)
    {
        List<Long> values = new ArrayList<>();
        iterator.forEachRemaining((long value) -> values.add(value));
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private record Written(KeyIndexSegment segment, byte[] bytes, int trailerBytes, long size) {}

    private Written write(List<Entry> entries, int hashBits)
            throws IOException, KeyIndexUnusableException
    {
        int rowGroupBits = KeyIndexFormat.rowGroupBits(FILES * ROW_GROUPS);
        List<IndexedFile> files = new ArrayList<>();
        for (int file = 0; file < FILES; file++) {
            files.add(new IndexedFile("part-%05d.parquet".formatted(file), 1000 + file, "etag" + file, true, new long[] {10, 10, 10}, new long[] {100, 100, 100}));
        }
        long[] packed = entries.stream()
                .mapToLong(entry -> KeyIndexFormat.pack(KeyIndexFormat.truncate(entry.hash(), hashBits), rowGroupBits, (long) entry.file() * ROW_GROUPS + entry.rowGroup()))
                .sorted()
                .distinct()
                .toArray();
        Path target = directory.resolve("segment" + System.nanoTime());
        KeyIndexWriter.WrittenSegment written = KeyIndexWriter.write(target, new SegmentHeader("device_id", "varchar", "optional binary device_id (STRING)", hashBits, rowGroupBits, 1, 2), files, Arrays.stream(packed).iterator());
        byte[] bytes = Files.readAllBytes(target);
        assertThat(bytes.length).isEqualTo(written.size());
        KeyIndexSegment segment = KeyIndexSegment.parse(Arrays.copyOfRange(bytes, bytes.length - written.trailerBytes(), bytes.length), bytes.length, "segment");
        assertThat(segment.header().hashBits()).isEqualTo(hashBits);
        return new Written(segment, bytes, written.trailerBytes(), written.size());
    }

    private static Set<String> lookup(Written written, long hash)
            throws KeyIndexUnusableException
    {
        KeyIndexSegment segment = written.segment();
        long[] hashes = {KeyIndexFormat.truncate(hash, segment.header().hashBits())};
        Set<String> found = new HashSet<>();
        for (int page : segment.pagesFor(hashes)) {
            segment.matches(page, written.bytes(), (int) segment.pageOffset(page), hashes, (file, rowGroup, _) -> found.add(file + ":" + rowGroup));
        }
        return found;
    }

    private static List<Entry> randomEntries(Random random, int count)
    {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(new Entry(random.nextLong(), random.nextInt(FILES), random.nextInt(ROW_GROUPS)));
        }
        return entries;
    }
}
