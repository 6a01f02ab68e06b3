package io.parquetbloom.keyindex;

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_KEY_INDEX_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * Merges a column's segments into one without reading Parquet: each listed file is kept from the newest segment
 * that records it at its listed version (indexed, or known not to be indexable), everything else (rewritten, deleted
 * files) is dropped; entries are re-numbered to the
 * new file directory, cut to the shortest hash any input kept, and sorted again in bounded memory.
 */
public class KeyIndexCompactor
{
    private static final Logger log = Logger.get(KeyIndexCompactor.class);
    private static final long READ_CHUNK = 8 * 1024 * 1024;

    private final KeyIndexReader reader;
    private final S3ObjectStore store;
    private final KeyIndexConfig config;

    @Inject
    public KeyIndexCompactor(KeyIndexReader reader, S3ObjectStore store, KeyIndexConfig config)
    {
        this.reader = requireNonNull(reader, "reader is null");
        this.store = requireNonNull(store, "store is null");
        this.config = requireNonNull(config, "config is null");
    }

    /**
     * Writes the merged segment and returns the pointer naming only it; the caller commits that pointer.
     */
    public KeyIndexPointer compact(S3Location table, KeyIndexPointer pointer, Map<String, LakeFile> listed, S3RequestStats stats)
    {
        long start = System.nanoTime();
        String column = pointer.column();
        List<KeyIndexSegment> segments = new ArrayList<>();
        for (KeyIndexPointer.Segment reference : pointer.segments()) {
            segments.add(load(table, column, reference, stats));
        }
        // entries are hashed in their segment's Parquet type: merged under another type, a lookup would miss them
        SegmentHeader newest = segments.getLast().header();
        for (KeyIndexSegment segment : segments) {
            if (!segment.header().columnType().equals(newest.columnType()) || !segment.header().trinoType().equals(newest.trinoType())) {
                throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot compact the key index of %s column %s: its segments hash values of different types (%s, %s)".formatted(table, column, segment.header().columnType(), newest.columnType()));
            }
        }
        // newest first: the newest segment covering a path supplies it
        Set<String> taken = new HashSet<>();
        List<int[]> newOrdinals = new ArrayList<>();
        List<List<IndexedFile>> keptFiles = new ArrayList<>();
        for (int i = segments.size() - 1; i >= 0; i--) {
            KeyIndexSegment segment = segments.get(i);
            int[] ordinals = new int[segment.files().size()];
            Arrays.fill(ordinals, -1);
            List<IndexedFile> kept = new ArrayList<>();
            for (int file = 0; file < ordinals.length; file++) {
                IndexedFile indexed = segment.files().get(file);
                LakeFile listedFile = listed.get(indexed.path());
                // files that could not be indexed are kept too (without entries): a refresh then knows not to read them again
                if (listedFile != null && indexed.isVersionOf(listedFile) && taken.add(indexed.path())) {
                    ordinals[file] = kept.size();
                    kept.add(indexed);
                }
            }
            newOrdinals.addFirst(ordinals);
            keptFiles.addFirst(kept);
        }
        return writeMerged(table, column, pointer.segments(), segments, newOrdinals, keptFiles, start, stats);
    }

    private KeyIndexSegment load(S3Location table, String column, KeyIndexPointer.Segment reference, S3RequestStats stats)
    {
        try {
            return reader.segment(table, column, reference, stats);
        }
        catch (KeyIndexUnusableException e) {
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot compact the key index of %s column %s: %s".formatted(table, column, e.getMessage()), e);
        }
    }

    private KeyIndexPointer writeMerged(S3Location table, String column, List<KeyIndexPointer.Segment> references, List<KeyIndexSegment> segments, List<int[]> newOrdinals, List<List<IndexedFile>> keptFiles, long start, S3RequestStats stats)
    {
        // the merged directory: each segment's kept files in segment order, so ordinals are a running sum
        List<IndexedFile> directory = new ArrayList<>();
        long[][] rowGroupBase = new long[segments.size()][];
        long total = 0;
        for (int i = 0; i < segments.size(); i++) {
            List<IndexedFile> kept = keptFiles.get(i);
            rowGroupBase[i] = new long[kept.size()];
            for (int file = 0; file < kept.size(); file++) {
                rowGroupBase[i][file] = total;
                total += kept.get(file).slots();
            }
            directory.addAll(kept);
        }
        int rowGroupBits = KeyIndexFormat.rowGroupBits(total);
        long entries = segments.stream().mapToLong(KeyIndexSegment::entries).sum();
        int hashBits = KeyIndexFormat.hashBits(entries, rowGroupBits);
        for (KeyIndexSegment segment : segments) {
            hashBits = Math.min(hashBits, segment.header().hashBits());
        }
        KeyIndexSegment newest = segments.getLast();
        Path spill = Path.of(config.getSpillDirectory().orElse(System.getProperty("java.io.tmpdir")));
        try (EntrySorter sorter = new EntrySorter(config.getBuildMemory().toBytes(), Files.createDirectories(spill))) {
            for (int i = 0; i < segments.size(); i++) {
                remap(table, column, references.get(i), segments.get(i), newOrdinals.get(i), rowGroupBase[i], hashBits, rowGroupBits, sorter, stats);
            }
            Path file = Files.createTempFile(spill, "key-index-", KeyIndexFormat.SEGMENT_SUFFIX);
            try {
                SegmentHeader header = new SegmentHeader(column, newest.header().trinoType(), newest.header().columnType(), hashBits, rowGroupBits, System.currentTimeMillis(), (System.nanoTime() - start) / 1_000_000);
                KeyIndexWriter.WrittenSegment written = KeyIndexWriter.write(file, header, directory, sorter.sorted());
                String name = KeyIndexFormat.segmentName(UUID.randomUUID().toString());
                S3Location location = KeyIndexLocations.segment(table, column, name);
                String etag = store.write(location, file, new S3ObjectStore.PutCondition.None(), config.getUploadPartSize().toBytes(), stats).orElseThrow();
                log.info("Key index of %s column %s: %d segments compacted into %s: %d files, %d entries, %d bytes", table, column, segments.size(), name, directory.size(), written.entries(), written.size());
                return new KeyIndexPointer(column, List.of(new KeyIndexPointer.Segment(name, written.size(), etag, written.trailerBytes(), directory.size(), written.entries(), header.builtAtMillis(), (System.nanoTime() - start) / 1_000_000)));
            }
            finally {
                Files.deleteIfExists(file);
            }
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot compact the key index of %s column %s in %s: %s".formatted(table, column, spill, e.getMessage()), e);
        }
    }

    private void remap(S3Location table, String column, KeyIndexPointer.Segment reference, KeyIndexSegment segment, int[] ordinals, long[] newBase, int hashBits, int rowGroupBits, EntrySorter sorter, S3RequestStats stats)
            throws IOException
    {
        if (Arrays.stream(ordinals).allMatch(ordinal -> ordinal < 0) || segment.pageCount() == 0) {
            return;
        }
        int shift = segment.header().hashBits() - hashBits;
        int oldBits = segment.header().rowGroupBits();
        int page = 0;
        while (page < segment.pageCount()) {
            // whole pages, up to READ_CHUNK bytes per GET
            int last = page;
            while (last + 1 < segment.pageCount() && segment.pageOffset(last + 1) + segment.pageLength(last + 1) - segment.pageOffset(page) <= READ_CHUNK) {
                last++;
            }
            long offset = segment.pageOffset(page);
            int length = (int) (segment.pageOffset(last) + segment.pageLength(last) - offset);
            byte[] bytes = store.read(new S3ObjectInfo(KeyIndexLocations.segment(table, column, reference.name()), reference.size(), reference.etag()), offset, length, stats);
            for (int p = page; p <= last; p++) {
                long[] entries = entries(table, column, reference, segment, p, bytes, (int) (segment.pageOffset(p) - offset));
                long[] remapped = new long[entries.length];
                int count = 0;
                for (long entry : entries) {
                    long[] located = locate(segment, entry & ((1L << oldBits) - 1));
                    int ordinal = ordinals[(int) located[0]];
                    if (ordinal >= 0) {
                        // the merged directory keeps the file as this segment records it, key pages included
                        long slot = segment.slotInFile((int) located[0], (int) located[1], (int) located[2]);
                        remapped[count++] = KeyIndexFormat.pack((entry >>> oldBits) >>> shift, rowGroupBits, newBase[ordinal] + slot);
                    }
                }
                sorter.add(remapped, count);
            }
            page = last + 1;
        }
    }

    private long[] entries(S3Location table, String column, KeyIndexPointer.Segment reference, KeyIndexSegment segment, int page, byte[] bytes, int offset)
    {
        try {
            return segment.entries(page, bytes, offset);
        }
        catch (KeyIndexUnusableException e) {
            // remembered, so the build that asked for this compaction reads the segment's files again instead
            reader.markDamaged(table, column, reference);
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot compact the key index of %s column %s: segment %s is damaged: %s".formatted(table, column, reference.name(), e.getMessage()), e);
        }
    }

    /**
     * The file, row group and key page (-1: the row group) a slot names.
     */
    private static long[] locate(KeyIndexSegment segment, long slot)
    {
        long[] located = new long[3];
        try {
            segment.locate(slot, (file, ordinal, page) -> {
                located[0] = file;
                located[1] = ordinal;
                located[2] = page;
            });
        }
        catch (KeyIndexUnusableException e) {
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot compact a key index segment: %s".formatted(e.getMessage()), e);
        }
        return located;
    }
}
