package io.parquetbloom.metadata;

import io.parquetbloom.s3.ParallelReads;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads the dictionary pages of chosen column chunks: from the bytes the footer read already holds where the page
 * lies in them, otherwise with one ranged GET per page (a few of a file at a time), pinned to the planned object version like every read. Where
 * the footer records where the data pages begin, the page lies in the bytes before them; where it does not (files
 * from parquet-java before PARQUET-1977), the chunk's first bytes are read up to a bound and the header tells the
 * page's length.
 */
final class DictionaryLoader
{
    // a dictionary page larger than this costs more to fetch than the row group it might spare, and hints at corruption
    private static final int MAX_PAGE_BYTES = 8 << 20;
    // where the page's length is unknown, the chunk's first bytes read to find it: most dictionaries fit
    private static final int UNKNOWN_EXTENT_READ = 1 << 20;

    private DictionaryLoader() {}

    /**
     * @param tailOnly answer only what the bytes already read hold; other requests are absent from the result
     */
    static LoadedDictionaries load(S3ObjectStore store, ParquetFileMetadata file, Collection<DictionaryRequest> requests, int maxEntries, boolean tailOnly, S3RequestStats stats)
    {
        requireNonNull(file, "file is null");
        ParquetDataSourceId id = new ParquetDataSourceId(file.object().location().toString());
        Map<BloomFilterKey, ChunkDictionary.Result> results = new HashMap<>();
        List<Located.At> toFetch = new ArrayList<>();
        long pages = 0;
        for (DictionaryRequest request : requests) {
            switch (extent(file, request)) {
                case Located.Refused(ChunkDictionary.Result result) -> results.put(request.key(), result);
                case Located.At located when file.tailContains(located.extent().start(), located.extent().length()) -> {
                    pages++;
                    results.put(request.key(), decode(id, located, file.tail(), (int) (located.extent().start() - file.tailStart()), maxEntries));
                }
                case Located.At located -> {
                    if (!tailOnly) {
                        toFetch.add(located);
                    }
                }
            }
        }
        List<byte[]> fetched = fetch(store, file, toFetch, stats);
        long bytesRead = 0;
        for (int i = 0; i < toFetch.size(); i++) {
            pages++;
            bytesRead += fetched.get(i).length;
            results.put(toFetch.get(i).request().key(), decode(id, toFetch.get(i), fetched.get(i), 0, maxEntries));
        }
        return new LoadedDictionaries(results, pages, bytesRead);
    }

    private static ChunkDictionary.Result decode(ParquetDataSourceId id, Located.At located, byte[] buffer, int position, int maxEntries)
    {
        DictionaryRequest request = located.request();
        Extent extent = located.extent();
        return DictionaryPageDecoder.decode(id, request.column(), request.chunk().getCodec().getParquetCompressionCodec(), buffer, position, extent.length(), extent.exact(), maxEntries);
    }

    /**
     * One ranged GET per page, a few of a file at a time: the pages of a file's row groups lie a row group apart, so
     * merging them would read the row groups between.
     */
    private static List<byte[]> fetch(S3ObjectStore store, ParquetFileMetadata file, List<Located.At> pages, S3RequestStats stats)
    {
        return ParallelReads.read(store, file.object(), pages.stream().map(page -> new ParallelReads.Range(page.extent().start(), page.extent().length())).toList(), stats);
    }

    /**
     * @param exact the page lies in the extent; otherwise the extent is the chunk's first bytes
     */
    private record Extent(long start, int length, boolean exact) {}

    private sealed interface Located
    {
        record At(DictionaryRequest request, Extent extent)
                implements Located {}

        record Refused(ChunkDictionary.Result result)
                implements Located {}
    }

    /**
     * Where the chunk's dictionary page lies, or why it is not read.
     */
    private static Located extent(ParquetFileMetadata file, DictionaryRequest request)
    {
        ColumnChunkMetadata chunk = request.chunk();
        Optional<String> unreadable = unreadable(file, request.key());
        if (unreadable.isPresent()) {
            return new Located.Refused(new ChunkDictionary.Result.Unusable(unreadable.get()));
        }
        long dictionary = chunk.getDictionaryPageOffset();
        long data = chunk.getFirstDataPageOffset();
        long start;
        long length;
        boolean exact = dictionary > 0 && data > dictionary;
        if (exact) {
            start = dictionary;
            length = data - dictionary;
            if (length > MAX_PAGE_BYTES) {
                return new Located.Refused(new ChunkDictionary.Result.TooLarge(Integer.MAX_VALUE, "a %d-byte dictionary page".formatted(length)));
            }
        }
        else {
            // the page starts the chunk and only its header tells its length
            start = chunk.getStartingPos();
            length = Math.min(chunk.getTotalSize(), UNKNOWN_EXTENT_READ);
        }
        if (start < 4 || length <= 0 || start + length > file.footerStart()) {
            return new Located.Refused(new ChunkDictionary.Result.Unusable("dictionary page at offset %d of %d bytes lies outside the data of a %d-byte file".formatted(start, length, file.object().size())));
        }
        return new Located.At(request, new Extent(start, (int) length, exact));
    }

    private static Optional<String> unreadable(ParquetFileMetadata file, BloomFilterKey key)
    {
        FileMetaData footer = file.metadata().getParquetMetadata();
        if (key.rowGroup() >= FooterChunks.rowGroups(footer).size()) {
            return Optional.of("the footer has no row group %d".formatted(key.rowGroup()));
        }
        Optional<ColumnChunk> chunk = FooterChunks.find(footer, key).map(FooterChunks.FooterChunk::chunk);
        if (chunk.isEmpty()) {
            return Optional.of("the footer has no chunk %s in row group %d".formatted(String.join(".", key.path()), key.rowGroup()));
        }
        if (chunk.get().isSetCrypto_metadata() || chunk.get().isSetEncrypted_column_metadata()) {
            return Optional.of("the column chunk is encrypted");
        }
        return Optional.empty();
    }
}
