package io.parquetbloom.metadata;

import com.google.inject.Inject;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Footers and bloom filters in the local disk tier ({@link MetadataDiskStore}), keyed by object version like the
 * memory cache. Written through when read from S3, so a restarted server and a memory budget far below a table's
 * metadata both find them on local disk instead of in S3. A footer is stored as the file's own bytes (parsed again
 * when read); a filter as the folded bitset the memory cache keeps, or the fact that the chunk has none. Filters a
 * reader could not use are not stored: reading them again costs a GET, never a wrong answer.
 * <p>
 * A filter is probed where it lies ({@link #probe}): only the 4 KiB pages holding the probed blocks are read, each
 * checked against its own tag (SipHash-2-4 under the directory's key, {@link DiskTierDirectory}), so a lookup over
 * filters many times the heap reads a few KB per filter from disk, not the filter, and a page planted by whoever can
 * write the directory is a miss. Layout of a filter's payload: type, total length, blocks, pages, a tag per page, a
 * tag of all that, then the bitset.
 */
public class MetadataDiskTier
{
    private static final byte NO_FILTER = 0;
    private static final byte FILTER = 1;
    private static final int PAGE = 4096;
    private static final int BLOCKS_PER_PAGE = PAGE / SplitBlockBloomFilter.BYTES_PER_BLOCK;
    // type, total length, blocks, pages
    private static final int FIXED_HEADER = 13;

    /**
     * What a filter on disk says of a chunk for a set of hashes.
     */
    public enum Verdict
    {
        /**
         * No hash can be in the chunk.
         */
        ABSENT,
        MIGHT_CONTAIN,
        /**
         * The writer made no filter for the chunk.
         */
        NO_FILTER,
    }

    private final MetadataDiskStore store;

    @Inject
    public MetadataDiskTier(MetadataDiskStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    public boolean enabled()
    {
        return store.enabled();
    }

    public Optional<ParquetFileMetadata> footer(S3ObjectInfo object, MetadataCacheStats stats)
    {
        FileKey file = FileKey.of(object);
        if (!store.enabled() || !file.cacheable()) {
            return Optional.empty();
        }
        Optional<byte[]> bytes = store.read(footerKey(file));
        if (bytes.isEmpty() || bytes.get().length < 8 || bytes.get().length > object.size()) {
            return Optional.empty();
        }
        try {
            ParquetFileMetadata footer = FooterReader.parse(object, object.size() - bytes.get().length, bytes.get());
            stats.disk(bytes.get().length);
            return Optional.of(footer);
        }
        catch (TrinoException e) {
            // checksummed, so written this way: read it from S3 again
            return Optional.empty();
        }
    }

    /**
     * Keeps the footer bytes of a file just read (not its filters or data pages).
     */
    public void keepFooter(ParquetFileMetadata file)
    {
        FileKey key = FileKey.of(file.object());
        if (store.enabled() && key.cacheable()) {
            store.write(footerKey(key), file.retainOnlyFooter().tail());
        }
    }

    public Optional<BloomFilterCache.Cached> filter(FileKey file, BloomFilterKey key, MetadataCacheStats stats)
    {
        if (!store.enabled() || !file.cacheable()) {
            return Optional.empty();
        }
        Optional<BloomFilterCache.Cached> cached = store.read(filterKey(file, key)).flatMap(this::decodeFilter);
        cached.ifPresent(value -> stats.disk(value instanceof BloomFilterCache.Cached.Filter(SplitBlockBloomFilterReader.Result.Usable usable) ? usable.filter().sizeInBytes() : 1));
        return cached;
    }

    public void keepFilter(FileKey file, BloomFilterKey key, BloomFilterCache.Cached cached)
    {
        if (!store.enabled() || !file.cacheable()) {
            return;
        }
        switch (cached) {
            case BloomFilterCache.Cached.NoFilter _ -> store.write(filterKey(file, key), new byte[] {NO_FILTER});
            case BloomFilterCache.Cached.Filter(SplitBlockBloomFilterReader.Result.Usable usable) -> store.write(filterKey(file, key), encodeFilter(usable));
            case BloomFilterCache.Cached.Filter _ -> {}
        }
    }

    /**
     * Probes the chunk's filter on disk for {@code hashes}, reading only the pages of the blocks they fall in. Empty
     * when the disk has no such filter, or any part read fails its check (the entry is then dropped, and the filter
     * read again from S3 by the caller).
     */
    public Optional<Verdict> probe(FileKey file, BloomFilterKey key, long[] hashes, MetadataCacheStats stats)
    {
        if (!store.enabled() || !file.cacheable() || hashes.length == 0) {
            return Optional.empty();
        }
        Optional<MetadataDiskStore.PayloadReader> opened = store.openPayload(filterKey(file, key));
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        try (MetadataDiskStore.PayloadReader reader = opened.get()) {
            Optional<Verdict> verdict = probe(reader, hashes, stats);
            if (verdict.isEmpty()) {
                // a check failed: the entry is not what was written
                reader.discard();
            }
            return verdict;
        }
        catch (IOException e) {
            // the disk failed, or the query was cancelled while reading: no verdict, and nothing against the entry
            return Optional.empty();
        }
    }

    private Optional<Verdict> probe(MetadataDiskStore.PayloadReader reader, long[] hashes, MetadataCacheStats stats)
            throws IOException
    {
        if (reader.payloadLength() == 1) {
            Optional<byte[]> type = reader.read(0, 1);
            if (type.isEmpty() || type.get()[0] != NO_FILTER) {
                return Optional.empty();
            }
            stats.disk(1);
            return Optional.of(Verdict.NO_FILTER);
        }
        Optional<FilterHeader> header = FilterHeader.read(reader, store);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        Map<Integer, List<Long>> hashesByPage = new TreeMap<>();
        for (long hash : hashes) {
            int block = SplitBlockBloomFilter.blockOf(hash, header.get().blocks());
            hashesByPage.computeIfAbsent(block / BLOCKS_PER_PAGE, _ -> new ArrayList<>()).add(hash);
        }
        long bytes = header.get().length();
        for (Map.Entry<Integer, List<Long>> page : hashesByPage.entrySet()) {
            Optional<byte[]> bitsetPage = header.get().page(reader, page.getKey(), store);
            if (bitsetPage.isEmpty()) {
                return Optional.empty();
            }
            bytes += bitsetPage.get().length;
            for (long hash : page.getValue()) {
                int blockInPage = SplitBlockBloomFilter.blockOf(hash, header.get().blocks()) % BLOCKS_PER_PAGE;
                // the block alone, as a filter of one block: a hash's bits within a block do not depend on the
                // number of blocks (see SplitBlockBloomFilter#fold)
                if (SplitBlockBloomFilter.fromBitset(bitsetPage.get(), blockInPage * SplitBlockBloomFilter.BYTES_PER_BLOCK, SplitBlockBloomFilter.BYTES_PER_BLOCK).mightContain(hash)) {
                    stats.disk(bytes);
                    return Optional.of(Verdict.MIGHT_CONTAIN);
                }
            }
        }
        stats.disk(bytes);
        return Optional.of(Verdict.ABSENT);
    }

    /**
     * A filter's header on disk, checked against its own checksum.
     *
     * @param length bytes of the header
     */
    private record FilterHeader(int totalLength, int blocks, long[] pageTags, int length)
    {
        /**
         * The header, read in two steps (its length depends on the number of pages) and parsed from the second,
         * checked read only: the file may change between the reads.
         */
        static Optional<FilterHeader> read(MetadataDiskStore.PayloadReader reader, MetadataDiskStore store)
                throws IOException
        {
            Optional<byte[]> fixed = reader.read(0, FIXED_HEADER);
            if (fixed.isEmpty() || !plausible(fixed.get())) {
                return Optional.empty();
            }
            Optional<byte[]> bytes = reader.read(0, headerLength(Slices.wrappedBuffer(fixed.get()).getInt(9)));
            return bytes.isEmpty() ? Optional.empty() : parse(bytes.get(), reader.payloadLength(), store);
        }

        /**
         * The header at the start of {@code bytes} of a payload of {@code payloadLength} bytes, when it is whole,
         * matches its checksum and describes a bitset that fills the rest of the payload exactly.
         */
        static Optional<FilterHeader> parse(byte[] bytes, long payloadLength, MetadataDiskStore store)
        {
            if (bytes.length < FIXED_HEADER || !plausible(bytes)) {
                return Optional.empty();
            }
            Slice header = Slices.wrappedBuffer(bytes);
            int blocks = header.getInt(5);
            int length = headerLength(pagesOf(blocks));
            if (bytes.length < length || header.getLong(length - Long.BYTES) != store.tag(bytes, 0, length - Long.BYTES)
                    || payloadLength != length + (long) blocks * SplitBlockBloomFilter.BYTES_PER_BLOCK) {
                return Optional.empty();
            }
            return Optional.of(new FilterHeader(header.getInt(1), blocks, header.getLongs(FIXED_HEADER, pagesOf(blocks)), length));
        }

        private static boolean plausible(byte[] header)
        {
            Slice slice = Slices.wrappedBuffer(header);
            int blocks = slice.getInt(5);
            return header[0] == FILTER && blocks > 0 && blocks <= SplitBlockBloomFilter.MAX_BYTES / SplitBlockBloomFilter.BYTES_PER_BLOCK && slice.getInt(9) == pagesOf(blocks);
        }

        Optional<byte[]> page(MetadataDiskStore.PayloadReader reader, int page, MetadataDiskStore store)
                throws IOException
        {
            int bitsetLength = blocks * SplitBlockBloomFilter.BYTES_PER_BLOCK;
            int pageLength = Math.min(PAGE, bitsetLength - page * PAGE);
            return reader.read(length + (long) page * PAGE, pageLength)
                    .filter(bytes -> store.tag(bytes, 0, bytes.length) == pageTags[page]);
        }
    }

    private static int headerLength(int pages)
    {
        return FIXED_HEADER + Long.BYTES * pages + Long.BYTES;
    }

    private static int pagesOf(int blocks)
    {
        return (blocks + BLOCKS_PER_PAGE - 1) / BLOCKS_PER_PAGE;
    }

    private byte[] encodeFilter(SplitBlockBloomFilterReader.Result.Usable usable)
    {
        byte[] bitset = usable.filter().bitset();
        int pages = pagesOf(usable.filter().numBlocks());
        int headerLength = headerLength(pages);
        Slice payload = Slices.allocate(headerLength + bitset.length);
        payload.setByte(0, FILTER);
        payload.setInt(1, usable.totalLength());
        payload.setInt(5, usable.filter().numBlocks());
        payload.setInt(9, pages);
        for (int page = 0; page < pages; page++) {
            payload.setLong(FIXED_HEADER + Long.BYTES * page, store.tag(bitset, page * PAGE, Math.min(PAGE, bitset.length - page * PAGE)));
        }
        payload.setLong(headerLength - Long.BYTES, store.tag(payload.byteArray(), 0, headerLength - Long.BYTES));
        payload.setBytes(headerLength, bitset);
        return payload.byteArray();
    }

    /**
     * A whole filter read back (the entry's checksum already covers every byte).
     */
    private Optional<BloomFilterCache.Cached> decodeFilter(byte[] payload)
    {
        if (payload.length == 1 && payload[0] == NO_FILTER) {
            return Optional.of(new BloomFilterCache.Cached.NoFilter());
        }
        return FilterHeader.parse(payload, payload.length, store).map(header -> {
            SplitBlockBloomFilter filter = SplitBlockBloomFilter.fromBitset(payload, header.length(), header.blocks() * SplitBlockBloomFilter.BYTES_PER_BLOCK);
            return new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(filter, header.totalLength()));
        });
    }

    /**
     * Fields are length-prefixed, so no location, ETag or column name can make two keys alike.
     */
    static String footerKey(FileKey file)
    {
        return "footer|" + field(file.location()) + field(Long.toString(file.size())) + field(file.etag());
    }

    static String filterKey(FileKey file, BloomFilterKey key)
    {
        StringBuilder builder = new StringBuilder("filter|").append(field(file.location())).append(field(Long.toString(file.size()))).append(field(file.etag()))
                .append(field(Integer.toString(key.rowGroup())));
        key.path().forEach(name -> builder.append(field(name)));
        return builder.toString();
    }

    private static String field(String value)
    {
        return value.length() + ":" + value + "|";
    }
}
