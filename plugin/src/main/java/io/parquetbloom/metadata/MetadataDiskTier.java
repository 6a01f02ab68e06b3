package io.parquetbloom.metadata;

import com.google.inject.Inject;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.trino.spi.TrinoException;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Footers and bloom filters in the local disk tier ({@link MetadataDiskStore}), keyed by object version like the
 * memory cache. Written through when read from S3, so a restarted server and a memory budget far below a table's
 * metadata both find them on local disk instead of in S3. A footer is stored as the file's own bytes (parsed again
 * when read); a filter as the folded bitset the memory cache keeps, or the fact that the chunk has none. Filters a
 * reader could not use are not stored: reading them again costs a GET, never a wrong answer.
 */
public class MetadataDiskTier
{
    private static final byte NO_FILTER = 0;
    private static final byte FILTER = 1;

    private final MetadataDiskStore store;

    @Inject
    public MetadataDiskTier(MetadataDiskStore store)
    {
        this.store = requireNonNull(store, "store is null");
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
        Optional<BloomFilterCache.Cached> cached = store.read(filterKey(file, key)).flatMap(MetadataDiskTier::decodeFilter);
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

    private static byte[] encodeFilter(SplitBlockBloomFilterReader.Result.Usable usable)
    {
        byte[] bitset = usable.filter().bitset();
        Slice payload = Slices.allocate(5 + bitset.length);
        payload.setByte(0, FILTER);
        payload.setInt(1, usable.totalLength());
        payload.setBytes(5, bitset);
        return payload.byteArray();
    }

    private static Optional<BloomFilterCache.Cached> decodeFilter(byte[] payload)
    {
        if (payload.length == 0) {
            return Optional.empty();
        }
        if (payload.length == 1 && payload[0] == NO_FILTER) {
            return Optional.of(new BloomFilterCache.Cached.NoFilter());
        }
        int bitset = payload.length - 5;
        if (payload[0] != FILTER || bitset <= 0 || bitset % SplitBlockBloomFilter.BYTES_PER_BLOCK != 0 || bitset > SplitBlockBloomFilter.MAX_BYTES) {
            return Optional.empty();
        }
        int totalLength = Slices.wrappedBuffer(payload).getInt(1);
        return Optional.of(new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(SplitBlockBloomFilter.fromBitset(payload, 5, bitset), totalLength)));
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
