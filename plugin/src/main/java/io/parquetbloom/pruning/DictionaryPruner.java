package io.parquetbloom.pruning;

import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.ChunkDictionary;
import io.parquetbloom.metadata.DictionaryRequest;
import io.parquetbloom.metadata.LoadedDictionaries;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.trino.parquet.metadata.ColumnChunkMetadata;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The last step of {@link RowGroupPruner}: a row group whose chunk of a constrained column is entirely
 * dictionary-encoded (trino-parquet's rule, as its Hive connector applies it: every data page per the chunk's
 * encoding stats, or only dictionary and level encodings where a v1 writer left no stats) holds only values of that
 * dictionary, so it is skipped when the dictionary holds no value of the predicate. Where the chunk's bloom filter
 * already answered "maybe", the dictionary is consulted only when it costs no GET (cached, or in the tail read), to
 * take back the filter's false positives for free. Dictionaries that cannot be read keep their row groups and are
 * counted; those above the entry bound are not used.
 */
final class DictionaryPruner
{
    private final ParquetMetadataReader metadataReader;

    DictionaryPruner(ParquetMetadataReader metadataReader)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
    }

    /**
     * @param answeredByFilter chunks whose usable bloom filter answered "maybe"
     */
    List<RowGroupPruner.Candidate> prune(
            ParquetFileMetadata file,
            List<BloomColumnPredicate> predicates,
            List<RowGroupPruner.Candidate> candidates,
            Set<BloomFilterKey> answeredByFilter,
            int maxEntries,
            ReadStats readStats,
            PruningStats stats)
    {
        List<RowGroupPruner.Candidate> survivors = candidates;
        // each row group's chunks by path, looked up once for all constrained columns
        Map<Integer, Map<List<String>, ColumnChunkMetadata>> chunks = new HashMap<>();
        // one column at a time: a row group the first column's dictionaries remove needs no page of the next
        for (BloomColumnPredicate predicate : predicates) {
            Map<BloomFilterKey, DictionaryRequest> requests = new HashMap<>();
            for (RowGroupPruner.Candidate candidate : survivors) {
                request(chunks.computeIfAbsent(candidate.ordinal(), file::columnChunks), candidate, predicate).ifPresent(request -> requests.put(request.key(), request));
            }
            if (requests.isEmpty()) {
                continue;
            }
            Map<BloomFilterKey, ChunkDictionary.Result> dictionaries = predicate.hashes().length == 0 ? Map.of() : load(file, requests, answeredByFilter, maxEntries, readStats, stats);
            List<RowGroupPruner.Candidate> kept = new ArrayList<>();
            for (RowGroupPruner.Candidate candidate : survivors) {
                BloomFilterKey key = RowGroupPruner.key(candidate, predicate);
                if (requests.containsKey(key) && excludes(dictionaries.get(key), predicate, stats)) {
                    stats.addPrunedByDictionary();
                }
                else {
                    kept.add(candidate);
                }
            }
            survivors = kept;
        }
        return survivors;
    }

    /**
     * The chunk's dictionary, when it may answer for the predicate: the chunk is entirely dictionary-encoded and, as
     * for a filter, NULLs and the column's read range cannot make the answer wrong.
     */
    private static Optional<DictionaryRequest> request(Map<List<String>, ColumnChunkMetadata> chunks, RowGroupPruner.Candidate candidate, BloomColumnPredicate predicate)
    {
        if (!RowGroupPruner.canUseFilter(candidate, predicate)) {
            return Optional.empty();
        }
        // by path without case, as filters are found; two chunks whose paths differ only in case have no dictionary
        BloomFilterKey key = RowGroupPruner.key(candidate, predicate);
        return Optional.ofNullable(chunks.get(key.path()))
                .filter(ChunkDictionary::entirelyDictionaryEncoded)
                .map(chunk -> new DictionaryRequest(key, chunk, predicate.column()));
    }

    private Map<BloomFilterKey, ChunkDictionary.Result> load(ParquetFileMetadata file, Map<BloomFilterKey, DictionaryRequest> requests, Set<BloomFilterKey> answeredByFilter, int maxEntries, ReadStats readStats, PruningStats stats)
    {
        List<DictionaryRequest> wanted = new ArrayList<>();
        List<DictionaryRequest> ifFree = new ArrayList<>();
        requests.forEach((key, request) -> (answeredByFilter.contains(key) ? ifFree : wanted).add(request));
        Map<BloomFilterKey, ChunkDictionary.Result> results = new HashMap<>();
        try {
            record(metadataReader.dictionaries(file, ifFree, maxEntries, true, readStats), results, stats);
            record(metadataReader.dictionaries(file, wanted, maxEntries, false, readStats), results, stats);
        }
        catch (RuntimeException e) {
            // pages we could not fetch (S3 trouble) prune nothing; reading the data reports a lasting problem
            for (DictionaryRequest request : requests.values()) {
                results.putIfAbsent(request.key(), new ChunkDictionary.Result.Unusable("cannot fetch: " + e.getMessage()));
            }
        }
        return results;
    }

    private static void record(LoadedDictionaries loaded, Map<BloomFilterKey, ChunkDictionary.Result> results, PruningStats stats)
    {
        results.putAll(loaded.results());
        stats.addDictionaryPagesRead(loaded.pagesRead(), loaded.bytesRead());
    }

    /**
     * @param result absent when the page was not fetched (only free answers were wanted)
     */
    private static boolean excludes(ChunkDictionary.Result result, BloomColumnPredicate predicate, PruningStats stats)
    {
        if (predicate.hashes().length == 0) {
            // no value of the predicate can be stored in this column: no dictionary entry can be one
            return true;
        }
        return switch (result) {
            case null -> false;
            case ChunkDictionary.Result.Usable(ChunkDictionary dictionary) -> !dictionary.containsAny(predicate.hashes());
            case ChunkDictionary.Result.Unusable _ -> {
                stats.addDictionaryUnusable();
                yield false;
            }
            case ChunkDictionary.Result.TooLarge _ -> false;
        };
    }
}
