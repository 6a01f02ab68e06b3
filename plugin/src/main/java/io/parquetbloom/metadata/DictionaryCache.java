package io.parquetbloom.metadata;

import com.google.inject.Inject;

import java.util.Optional;

/**
 * What reading column chunks' dictionary pages gave, by object version, row group and column: the compact
 * {@link ChunkDictionary} of a usable page (never the page itself), or that the page is unusable or too large, so a
 * warm lookup of a new key costs no GET.
 */
public class DictionaryCache
{
    static final String KIND = "dictionary";

    public record Key(FileKey file, BloomFilterKey chunk) {}

    private final ParquetMetadataCache.Region<Key, ChunkDictionary.Result> dictionaries;

    @Inject
    public DictionaryCache(ParquetMetadataCache budget)
    {
        this.dictionaries = budget.region(KIND, ChunkDictionary.Result.class, Key::file, (key, result) -> switch (result) {
            case ChunkDictionary.Result.Usable(ChunkDictionary dictionary) -> dictionary.getRetainedSizeInBytes() + 64 + 2L * key.file().location().length();
            default -> 256 + 2L * key.file().location().length();
        });
    }

    /**
     * @param maxEntries the bound of the asking session: a page too large under a smaller bound is read again
     */
    public Optional<ChunkDictionary.Result> getIfPresent(Key key, int maxEntries)
    {
        return dictionaries.getIfPresent(key)
                .filter(result -> !(result instanceof ChunkDictionary.Result.TooLarge tooLarge) || tooLarge.entries() > maxEntries);
    }

    /**
     * Keeps what a read found; a page read again because a larger bound asked for it replaces "too large".
     */
    public void put(Key key, ChunkDictionary.Result result)
    {
        if (!(result instanceof ChunkDictionary.Result.TooLarge) && dictionaries.getIfPresent(key).orElse(null) instanceof ChunkDictionary.Result.TooLarge) {
            dictionaries.invalidate(key);
        }
        dictionaries.putIfAbsent(key, result);
    }
}
