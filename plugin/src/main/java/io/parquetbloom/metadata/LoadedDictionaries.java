package io.parquetbloom.metadata;

import java.util.Map;

/**
 * @param results one per requested chunk that could be answered (from the cache, the tail or a GET)
 * @param pagesRead dictionary pages decoded for this request rather than taken from the cache
 * @param bytesRead dictionary bytes fetched with new GETs
 */
public record LoadedDictionaries(Map<BloomFilterKey, ChunkDictionary.Result> results, long pagesRead, long bytesRead)
{
    public LoadedDictionaries
    {
        results = Map.copyOf(results);
    }
}
