package io.parquetbloom.keyindex;

import com.google.common.annotations.VisibleForTesting;
import com.google.inject.Inject;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.pruning.BloomColumnPredicate;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.TrinoException;
import io.trino.spi.predicate.Domain;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * Reads a column's index for planning: the pointer (the version the table's listing found), each segment's
 * trailer (cached in the node's metadata budget under its immutable name and ETag), then only the postings pages
 * that can hold the probed hashes and were not read before (pages are kept there too), adjacent pages coalesced into
 * one ranged GET. Every GET of a segment is pinned to
 * the ETag the pointer recorded. Any problem is a {@link KeyIndexUnusableException}: the caller plans without the
 * index.
 */
public class KeyIndexReader
{
    // the end of a segment read first when its trailer's length is not known: most trailers fit
    private static final int DESCRIBE_PROBE_BYTES = 64 << 10;
    // pages closer than this are read with one GET; a GET reads at most MAX_RANGE bytes
    private static final long MAX_GAP = 128 * 1024;
    private static final long MAX_RANGE = 8 * 1024 * 1024;

    private static final long MAX_POINTER_BYTES = 1024 * 1024;
    private static final int MAX_DAMAGED = 10_000;
    // a lookup holds at most this many bytes of pages read and not yet matched, however many it reads in all
    private static final long WINDOW_BYTES = 16 * 1024 * 1024;

    private record PageRange(long offset, int length, int[] pages) {}

    private record PageKey(FileKey segment, int page) {}

    private final S3ObjectStore store;
    private final ParquetMetadataCache.Region<FileKey, KeyIndexPointer> pointers;
    private final ParquetMetadataCache.Region<FileKey, KeyIndexSegment> segments;
    private final ParquetMetadataCache.Region<PageKey, byte[]> pages;
    // segments (by version) a page of which failed its checksum here: lookups and builds leave them out until replaced
    private final Set<FileKey> damaged = ConcurrentHashMap.newKeySet();
    private final long cacheBytes;
    private final long maxLookupBytes;
    private final long windowBytes;

    @Inject
    public KeyIndexReader(S3ObjectStore store, ParquetMetadataCache budget, KeyIndexConfig config)
    {
        this(store, budget, config, WINDOW_BYTES);
    }

    @VisibleForTesting
    KeyIndexReader(S3ObjectStore store, ParquetMetadataCache budget, KeyIndexConfig config, long windowBytes)
    {
        this.windowBytes = windowBytes;
        this.store = requireNonNull(store, "store is null");
        this.cacheBytes = budget.getMaxWeight();
        this.maxLookupBytes = config.getMaxLookupBytes().toBytes();
        this.pointers = budget.region("key_index_pointer", KeyIndexPointer.class, key -> key, (key, pointer) -> 128 + 2L * key.location().length() + 256L * pointer.segments().size());
        this.pages = budget.region("key_index_page", byte[].class, PageKey::segment, (key, page) -> 96 + 2L * key.segment().location().length() + page.length);
        this.segments = budget.region("key_index", KeyIndexSegment.class, key -> key, (key, segment) -> 64 + 2L * key.location().length() + segment.getRetainedSizeInBytes());
    }

    /**
     * The pointer the table's listing found, read once per version (its ETag) and kept in the metadata budget; the
     * GET is pinned to the listed ETag, so a pointer replaced since the listing answers 412 and the index is not used.
     */
    public KeyIndexPointer pointer(S3ObjectInfo listedPointer, S3RequestStats stats)
            throws KeyIndexUnusableException
    {
        FileKey key = FileKey.of(listedPointer);
        Optional<KeyIndexPointer> cached = listedPointer.hasEtag() ? pointers.getIfPresent(key) : Optional.empty();
        if (cached.isPresent()) {
            return cached.get();
        }
        if (listedPointer.size() > MAX_POINTER_BYTES) {
            throw new KeyIndexUnusableException("%s has %d bytes, more than a pointer ever has".formatted(listedPointer.location(), listedPointer.size()));
        }
        KeyIndexPointer pointer = KeyIndexPointer.parse(read(listedPointer, 0, (int) listedPointer.size(), stats), listedPointer.location().toString());
        if (listedPointer.hasEtag()) {
            pointers.putIfAbsent(key, pointer);
        }
        return pointer;
    }

    /**
     * Whether a page of this segment version was found damaged on this node (by a lookup or a compaction): its
     * trailer reads fine, but some lookups cannot use it until a build replaces it.
     */
    public boolean isDamaged(S3Location table, String column, KeyIndexPointer.Segment segment)
    {
        return damaged.contains(segmentKey(table, column, segment));
    }

    public void markDamaged(S3Location table, String column, KeyIndexPointer.Segment segment)
    {
        if (damaged.size() > MAX_DAMAGED) {
            // a node that has seen this many damaged segments forgets the oldest knowledge rather than grow
            damaged.clear();
        }
        damaged.add(segmentKey(table, column, segment));
    }

    private static FileKey segmentKey(S3Location table, String column, KeyIndexPointer.Segment segment)
    {
        return FileKey.of(segmentObject(table, column, segment));
    }

    public KeyIndexSegment segment(S3Location table, String column, KeyIndexPointer.Segment segment, S3RequestStats stats)
            throws KeyIndexUnusableException
    {
        S3ObjectInfo object = segmentObject(table, column, segment);
        FileKey key = FileKey.of(object);
        Optional<KeyIndexSegment> cached = segments.getIfPresent(key);
        if (cached.isPresent()) {
            return cached.get();
        }
        if (segment.trailerBytes() <= KeyIndexFormat.END_LENGTH || segment.trailerBytes() > segment.size()) {
            throw new KeyIndexUnusableException("%s: the pointer's trailer length %d does not fit its size %d".formatted(object.location(), segment.trailerBytes(), segment.size()));
        }
        if (segment.trailerBytes() > cacheBytes / 2) {
            // never kept, so read again by every query: not worth a lookup
            throw new KeyIndexUnusableException("%s: its trailer of %d bytes is more than half of metadata-cache.max-size (%d bytes); raise it for this index to be used".formatted(object.location(), segment.trailerBytes(), cacheBytes));
        }
        byte[] suffix = read(object, segment.size() - segment.trailerBytes(), segment.trailerBytes(), stats);
        KeyIndexSegment parsed = KeyIndexSegment.parse(suffix, segment.size(), object.location().toString());
        if (!parsed.header().column().equals(column)) {
            throw new KeyIndexUnusableException("%s indexes column %s, not %s".formatted(object.location(), parsed.header().column(), column));
        }
        segments.putIfAbsent(key, parsed);
        return parsed;
    }

    /**
     * The covered files among {@code listed} and, for each, the row groups that may hold a value of {@code domain}.
     *
     * @param listed the table's listed files by their path relative to the table's folder
     * @return empty when the index cannot answer for this domain (not a discrete set, NULL accepted, more than
     * {@code maxValues} values, a value that cannot be hashed exactly)
     */
    public Optional<KeyIndexSelection> lookup(S3Location table, String column, KeyIndexPointer pointer, Domain domain, int maxValues, Map<String, LakeFile> listed, S3RequestStats stats, Executor executor)
            throws KeyIndexUnusableException
    {
        Map<String, TreeMap<Integer, TreeSet<Integer>>> hits = new HashMap<>();
        Map<String, IndexedFile> directory = new HashMap<>();
        // pages read, bytes read, pages found cached
        long[] counters = new long[3];
        int probed = 0;
        for (KeyIndexPointer.Segment reference : pointer.segments()) {
            KeyIndexSegment segment = segment(table, column, reference, stats);
            if (!segment.header().trinoType().equals(domain.getType().getDisplayName())) {
                throw new KeyIndexUnusableException("%s was built for type %s, the column is %s now".formatted(reference.name(), segment.header().trinoType(), domain.getType()));
            }
            Optional<long[]> hashes = probedHashes(segment, column, domain, maxValues);
            if (hashes.isEmpty()) {
                return Optional.empty();
            }
            String[] coveredPaths = coveredPaths(segment, listed);
            for (int file = 0; file < coveredPaths.length; file++) {
                if (coveredPaths[file] != null) {
                    directory.put(coveredPaths[file], segment.files().get(file));
                    hits.computeIfAbsent(coveredPaths[file], _ -> new TreeMap<>());
                }
            }
            if (Arrays.stream(coveredPaths).allMatch(path -> path == null)) {
                // every file of the segment was rewritten or deleted since: nothing to read
                continue;
            }
            probe(table, column, reference, segment, hashes.get(), coveredPaths, hits, counters, stats, executor);
            probed++;
        }
        Map<String, KeyIndexSelection.CoveredFile> covered = new HashMap<>();
        hits.forEach((path, rowGroups) -> covered.put(path, coveredFile(column, directory.get(path), rowGroups)));
        return Optional.of(new KeyIndexSelection(covered, counters[0], counters[1], counters[2], probed));
    }

    /**
     * A covered file's hits: its row groups, and the key pages of those whose every hit named a page (-1 names the
     * row group: another segment, or one of version 1, covers it too).
     */
    private static KeyIndexSelection.CoveredFile coveredFile(String column, IndexedFile directory, TreeMap<Integer, TreeSet<Integer>> hits)
    {
        Map<Integer, List<Integer>> keyPages = new HashMap<>();
        hits.forEach((rowGroup, pages) -> {
            if (!pages.contains(-1)) {
                keyPages.put(rowGroup, List.copyOf(pages));
            }
        });
        return new KeyIndexSelection.CoveredFile(directory, List.copyOf(hits.keySet()), column, keyPages);
    }

    private static Optional<long[]> probedHashes(KeyIndexSegment segment, String column, Domain domain, int maxValues)
            throws KeyIndexUnusableException
    {
        if (domain.isNullAllowed()) {
            return Optional.empty();
        }
        PrimitiveType type = parquetType(segment.header().columnType());
        ColumnDescriptor descriptor = new ColumnDescriptor(new String[] {column}, type, 0, type.isRepetition(Type.Repetition.REQUIRED) ? 0 : 1);
        Optional<BloomColumnPredicate> predicate = BloomColumnPredicate.createForKeyIndex(descriptor, domain, maxValues);
        if (predicate.isEmpty()) {
            return Optional.empty();
        }
        int hashBits = segment.header().hashBits();
        long[] truncated = Arrays.stream(predicate.get().hashes()).map(hash -> KeyIndexFormat.truncate(hash, hashBits)).sorted().distinct().toArray();
        return Optional.of(truncated);
    }

    public static PrimitiveType parquetType(String columnType)
            throws KeyIndexUnusableException
    {
        try {
            return MessageTypeParser.parseMessageType("message m { " + columnType + "; }").getType(0).asPrimitiveType();
        }
        catch (RuntimeException e) {
            throw new KeyIndexUnusableException("unknown Parquet type '%s': %s".formatted(columnType, e.getMessage()), e);
        }
    }

    /**
     * For each file of the segment's directory, its path when the listing has it at the same size and ETag.
     */
    private static String[] coveredPaths(KeyIndexSegment segment, Map<String, LakeFile> listed)
    {
        String[] paths = new String[segment.files().size()];
        for (int file = 0; file < paths.length; file++) {
            IndexedFile indexed = segment.files().get(file);
            LakeFile listedFile = listed.get(indexed.path());
            if (indexed.indexed() && listedFile != null && indexed.isVersionOf(listedFile)) {
                paths[file] = indexed.path();
            }
        }
        return paths;
    }

    private void probe(S3Location table, String column, KeyIndexPointer.Segment reference, KeyIndexSegment segment, long[] hashes, String[] coveredPaths, Map<String, TreeMap<Integer, TreeSet<Integer>>> hits, long[] counters, S3RequestStats stats, Executor executor)
            throws KeyIndexUnusableException
    {
        S3ObjectInfo object = segmentObject(table, column, reference);
        FileKey segmentKey = FileKey.of(object);
        KeyIndexSegment.MatchConsumer consumer = (file, rowGroup, page) -> {
            String path = coveredPaths[file];
            if (path != null) {
                hits.get(path).computeIfAbsent(rowGroup, _ -> new TreeSet<>()).add(page);
            }
        };
        // pages of this segment version read before (and verified then) need no GET
        List<Integer> missing = new ArrayList<>();
        for (int page : segment.pagesFor(hashes)) {
            Optional<byte[]> cached = pages.getIfPresent(new PageKey(segmentKey, page));
            if (cached.isPresent()) {
                matches(object, segment, page, cached.get(), 0, hashes, consumer);
                counters[2]++;
            }
            else {
                missing.add(page);
            }
        }
        List<PageRange> ranges = coalesce(segment, missing.stream().mapToInt(Integer::intValue).toArray());
        long needed = ranges.stream().mapToLong(PageRange::length).sum();
        if (counters[1] + needed > maxLookupBytes) {
            throw new KeyIndexLookupTooLargeException("%s: this lookup would read %d bytes of the index, more than key-index.max-lookup-bytes (%d)".formatted(object.location(), counters[1] + needed, maxLookupBytes));
        }
        for (List<PageRange> window : windows(ranges)) {
            List<Callable<byte[]>> reads = new ArrayList<>();
            for (PageRange range : window) {
                reads.add(() -> readUnchecked(object, range.offset(), range.length(), stats));
            }
            List<byte[]> read;
            try {
                read = ParallelTasks.runAll(reads, executor);
            }
            catch (UncheckedIOException e) {
                throw new KeyIndexUnusableException(e.getMessage(), e.getCause());
            }
            for (int i = 0; i < window.size(); i++) {
                matchRange(object, segmentKey, segment, window.get(i), read.get(i), hashes, consumer, counters);
            }
        }
        for (int file = 0; file < coveredPaths.length; file++) {
            // an ordinal past a covered file's row groups is a damaged segment, never a split to plan
            if (coveredPaths[file] != null && !hits.get(coveredPaths[file]).isEmpty() && hits.get(coveredPaths[file]).lastKey() >= segment.files().get(file).rowGroups()) {
                throw new KeyIndexUnusableException("%s names a row group past the end of %s".formatted(object.location(), coveredPaths[file]));
            }
        }
    }

    private void matchRange(S3ObjectInfo object, FileKey segmentKey, KeyIndexSegment segment, PageRange range, byte[] bytes, long[] hashes, KeyIndexSegment.MatchConsumer consumer, long[] counters)
            throws KeyIndexUnusableException
    {
        for (int page : range.pages()) {
            counters[0]++;
            int offset = (int) (segment.pageOffset(page) - range.offset());
            matches(object, segment, page, bytes, offset, hashes, consumer);
            pages.putIfAbsent(new PageKey(segmentKey, page), Arrays.copyOfRange(bytes, offset, offset + segment.pageLength(page)));
        }
        counters[1] += bytes.length;
    }

    /**
     * The ranges in groups of at most {@code windowBytes} (at least one range each): a group is read side by side,
     * matched and let go before the next is read.
     */
    private List<List<PageRange>> windows(List<PageRange> ranges)
    {
        List<List<PageRange>> windows = new ArrayList<>();
        List<PageRange> window = new ArrayList<>();
        long bytes = 0;
        for (PageRange range : ranges) {
            if (!window.isEmpty() && bytes + range.length() > windowBytes) {
                windows.add(window);
                window = new ArrayList<>();
                bytes = 0;
            }
            window.add(range);
            bytes += range.length();
        }
        if (!window.isEmpty()) {
            windows.add(window);
        }
        return windows;
    }

    private void matches(S3ObjectInfo object, KeyIndexSegment segment, int page, byte[] bytes, int offset, long[] hashes, KeyIndexSegment.MatchConsumer consumer)
            throws KeyIndexUnusableException
    {
        try {
            segment.matches(page, bytes, offset, hashes, consumer);
        }
        catch (KeyIndexUnusableException e) {
            damaged.add(FileKey.of(object));
            throw new KeyIndexUnusableException("%s: %s".formatted(object.location(), e.getMessage()), e);
        }
    }

    private static List<PageRange> coalesce(KeyIndexSegment segment, int[] pages)
    {
        List<PageRange> ranges = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= pages.length; i++) {
            boolean split = i == pages.length;
            if (!split) {
                long end = segment.pageOffset(pages[i - 1]) + segment.pageLength(pages[i - 1]);
                long gap = segment.pageOffset(pages[i]) - end;
                long length = segment.pageOffset(pages[i]) + segment.pageLength(pages[i]) - segment.pageOffset(pages[start]);
                split = gap > MAX_GAP || length > MAX_RANGE;
            }
            if (split) {
                long offset = segment.pageOffset(pages[start]);
                long end = segment.pageOffset(pages[i - 1]) + segment.pageLength(pages[i - 1]);
                ranges.add(new PageRange(offset, (int) (end - offset), Arrays.copyOfRange(pages, start, i)));
                start = i;
            }
        }
        return ranges;
    }

    /**
     * The segments a build's nodes wrote, referenced as a pointer names them: sizes and ETags from one listing of
     * the column's folder, then each trailer read at that ETag (its end first, where it is longer than 64 KB).
     *
     * @param columnType the Parquet type the build chose for the segments' values, where it chose one
     * @throws KeyIndexUnusableException when a segment is missing, hashes another type, or is not one this version
     * reads
     */
    public List<SegmentBuilder.NewSegment> describe(S3Location table, String column, Optional<String> columnType, List<String> names, S3RequestStats stats)
            throws KeyIndexUnusableException
    {
        Map<String, S3ObjectInfo> listed = new HashMap<>();
        for (S3ObjectStore.ListedObject object : store.listWithAges(KeyIndexLocations.folder(table, column), stats)) {
            String key = object.object().location().key();
            listed.put(key.substring(key.lastIndexOf('/') + 1), object.object());
        }
        List<SegmentBuilder.NewSegment> segments = new ArrayList<>();
        for (String name : names) {
            S3ObjectInfo object = listed.get(name);
            if (object == null) {
                throw new KeyIndexUnusableException("segment %s of the build is missing from %s".formatted(name, KeyIndexLocations.folder(table, column)));
            }
            segments.add(describe(object, name, column, columnType, stats));
        }
        return segments;
    }

    private SegmentBuilder.NewSegment describe(S3ObjectInfo object, String name, String column, Optional<String> columnType, S3RequestStats stats)
            throws KeyIndexUnusableException
    {
        int probe = (int) Math.min(object.size(), DESCRIBE_PROBE_BYTES);
        byte[] suffix = read(object, object.size() - probe, probe, stats);
        if (probe < KeyIndexFormat.END_LENGTH) {
            throw new KeyIndexUnusableException("%s is too short for a key index segment".formatted(object.location()));
        }
        long trailerBytes = (ByteBuffer.wrap(suffix, probe - KeyIndexFormat.END_LENGTH, Integer.BYTES).getInt() & 0xFFFF_FFFFL) + KeyIndexFormat.END_LENGTH;
        if (trailerBytes > object.size()) {
            throw new KeyIndexUnusableException("%s: trailer length %d does not fit its size %d".formatted(object.location(), trailerBytes, object.size()));
        }
        if (trailerBytes > probe) {
            suffix = read(object, object.size() - trailerBytes, toIntExact(trailerBytes), stats);
        }
        KeyIndexSegment parsed = KeyIndexSegment.parse(suffix, object.size(), object.location().toString());
        if (!parsed.header().column().equals(column)) {
            throw new KeyIndexUnusableException("%s indexes column %s, not %s".formatted(object.location(), parsed.header().column(), column));
        }
        if (columnType.isPresent() && !parsed.header().columnType().equals(columnType.get())) {
            throw new KeyIndexUnusableException("%s hashes values as %s, not as the build chose, %s".formatted(object.location(), parsed.header().columnType(), columnType.get()));
        }
        KeyIndexPointer.Segment reference = new KeyIndexPointer.Segment(name, object.size(), object.etag(), toIntExact(trailerBytes), parsed.files().size(), parsed.entries(), parsed.header().builtAtMillis(), parsed.header().buildMillis());
        return new SegmentBuilder.NewSegment(reference, (int) parsed.files().stream().filter(file -> !file.indexed()).count());
    }

    private static S3ObjectInfo segmentObject(S3Location table, String column, KeyIndexPointer.Segment segment)
    {
        return new S3ObjectInfo(KeyIndexLocations.segment(table, column, segment.name()), segment.size(), segment.etag());
    }

    private byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
            throws KeyIndexUnusableException
    {
        try {
            return store.read(object, position, length, stats);
        }
        catch (TrinoException e) {
            throw new KeyIndexUnusableException("cannot read %s: %s".formatted(object.location(), e.getMessage()), e);
        }
    }

    private byte[] readUnchecked(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        try {
            return store.read(object, position, length, stats);
        }
        catch (TrinoException e) {
            throw new UncheckedIOException(new IOException("cannot read %s: %s".formatted(object.location(), e.getMessage()), e));
        }
    }
}
