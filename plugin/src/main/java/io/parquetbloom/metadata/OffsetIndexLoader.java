package io.parquetbloom.metadata;

import com.google.inject.Inject;
import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.S3ObjectStore;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.IndexReference;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trino.parquet.ParquetMetadataConverter.fromParquetOffsetIndex;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The offset indexes of column chunks, each checked against its chunk ({@link ChunkPages#validated}) and kept in the
 * node's metadata budget, the fact that a chunk has no usable one included. Writers put a file's offset indexes
 * together before its footer, so those a split needs are one GET (none where the footer read brought them).
 */
public class OffsetIndexLoader
{
    static final String KIND = "offset_index";
    // offset indexes lie together; a gap wider than this is not one writer's index block
    private static final int MAX_GAP = 64 << 10;
    private static final int MAX_READ = 8 << 20;

    /**
     * A column chunk of a row group (its ordinal in the file) with that row group's row count.
     */
    public record Chunk(int rowGroup, ColumnChunkMetadata metadata, long rowCount)
    {
        public Chunk
        {
            requireNonNull(metadata, "metadata is null");
        }

        List<String> path()
        {
            return List.of(metadata.getPath().toArray());
        }
    }

    /**
     * @param pages the chunks with a usable offset index
     * @param cacheHits chunks answered by the cache, usable or not
     * @param loaded chunks whose index was read now
     * @param unusable chunks whose index was read now and does not parse or describe its chunk, or could not be read
     */
    public record Loaded(Map<Chunk, ChunkPages> pages, int cacheHits, int loaded, int unusable) {}

    private record Key(FileKey file, int rowGroup, List<String> path) {}

    private record Cached(Optional<ChunkPages> pages) {}

    private final S3ObjectStore store;
    private final ParquetMetadataCache.Region<Key, Cached> cache;

    @Inject
    public OffsetIndexLoader(S3ObjectStore store, ParquetMetadataCache budget)
    {
        this.store = requireNonNull(store, "store is null");
        this.cache = budget.region(KIND, Cached.class, Key::file, (key, cached) -> 128 + 2L * key.file().location().length() + cached.pages().map(ChunkPages::getRetainedSizeInBytes).orElse(0L));
    }

    /**
     * The chunk's pages where this node has its offset index already (no I/O).
     */
    public Optional<ChunkPages> cached(ParquetFileMetadata file, Chunk chunk)
    {
        FileKey fileKey = FileKey.of(file.object());
        if (!fileKey.cacheable()) {
            return Optional.empty();
        }
        return cache.getIfPresent(new Key(fileKey, chunk.rowGroup(), chunk.path())).flatMap(Cached::pages);
    }

    /**
     * Whether loading the chunk's offset index would read it now and cache it: it lies in the file, this node has not
     * read it yet (usable or not), and the file is one whose metadata is cached (it has a version to pin it to).
     */
    public boolean awaitsLoad(ParquetFileMetadata file, Chunk chunk)
    {
        FileKey fileKey = FileKey.of(file.object());
        return fileKey.cacheable() && locatable(chunk, file) && cache.getIfPresent(new Key(fileKey, chunk.rowGroup(), chunk.path())).isEmpty();
    }

    public Loaded load(ParquetFileMetadata file, List<Chunk> chunks, ReadStats stats)
    {
        FileKey fileKey = FileKey.of(file.object());
        Map<Chunk, ChunkPages> pages = new HashMap<>();
        List<Chunk> missing = new ArrayList<>();
        int hits = 0;
        int unusable = 0;
        for (Chunk chunk : chunks) {
            Optional<Cached> cached = fileKey.cacheable() ? cache.getIfPresent(new Key(fileKey, chunk.rowGroup(), chunk.path())) : Optional.empty();
            if (cached.isPresent()) {
                hits++;
                cached.get().pages().ifPresent(value -> pages.put(chunk, value));
            }
            else if (locatable(chunk, file)) {
                missing.add(chunk);
            }
            else if (chunk.metadata().getOffsetIndexReference() != null) {
                unusable++;
            }
        }
        AtomicInteger unusableNow = new AtomicInteger();
        for (MergedRanges.Read<Chunk> read : MergedRanges.merge(missing, chunk -> reference(chunk).getOffset(), chunk -> reference(chunk).getOffset() + reference(chunk).getLength(), MAX_GAP, MAX_READ)) {
            byte[] bytes;
            try {
                bytes = bytesOf(file, read.start(), toIntExact(read.length()), stats);
            }
            catch (RuntimeException e) {
                // the chunks are read whole, which reports a failure of the file itself; nothing is cached
                unusable += read.members().size();
                continue;
            }
            for (Chunk chunk : read.members()) {
                Optional<ChunkPages> parsed = parse(bytes, toIntExact(reference(chunk).getOffset() - read.start()), reference(chunk).getLength(), chunk);
                if (fileKey.cacheable()) {
                    cache.putIfAbsent(new Key(fileKey, chunk.rowGroup(), chunk.path()), new Cached(parsed));
                }
                parsed.ifPresentOrElse(value -> pages.put(chunk, value), () -> unusableNow.incrementAndGet());
            }
        }
        return new Loaded(pages, hits, missing.size(), unusable + unusableNow.get());
    }

    /**
     * Whether the chunk names an index that lies inside the file, before its footer.
     */
    private static boolean locatable(Chunk chunk, ParquetFileMetadata file)
    {
        IndexReference reference = reference(chunk);
        return reference != null && reference.getOffset() >= 0 && reference.getLength() > 0 && reference.getOffset() + reference.getLength() <= file.footerStart();
    }

    private static IndexReference reference(Chunk chunk)
    {
        return chunk.metadata().getOffsetIndexReference();
    }

    private byte[] bytesOf(ParquetFileMetadata file, long offset, int length, ReadStats stats)
    {
        if (file.tailContains(offset, length)) {
            int from = toIntExact(offset - file.tailStart());
            byte[] bytes = new byte[length];
            System.arraycopy(file.tail(), from, bytes, 0, length);
            return bytes;
        }
        return store.read(file.object(), offset, length, stats.requests());
    }

    /**
     * An index that does not parse, or does not describe its chunk, is unusable: the chunk is then read whole.
     */
    private static Optional<ChunkPages> parse(byte[] bytes, int offset, int length, Chunk chunk)
    {
        if (offset < 0 || length <= 0 || offset + length > bytes.length) {
            return Optional.empty();
        }
        try {
            ColumnChunkMetadata metadata = chunk.metadata();
            return ChunkPages.validated(
                    fromParquetOffsetIndex(Util.readOffsetIndex(new ByteArrayInputStream(bytes, offset, length))),
                    metadata.getFirstDataPageOffset(),
                    metadata.getStartingPos() + metadata.getTotalSize(),
                    chunk.rowCount());
        }
        catch (Exception e) {
            // any damage: not an index we may trust
            return Optional.empty();
        }
    }
}
