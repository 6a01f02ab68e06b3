package io.parquetbloom.metadata;

import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;

import java.util.Map;

/**
 * @param results one per requested chunk that has a filter
 * @param bytesRead filter bytes fetched with new GETs
 */
public record LoadedFilters(Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results, long bytesRead)
{
    public LoadedFilters
    {
        results = Map.copyOf(results);
    }
}
