package io.parquetbloom.health;

import com.google.inject.Inject;
import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.ChunkDictionary;
import io.parquetbloom.metadata.DictionaryRequest;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.pruning.RowGroupScope;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.RowGroup;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;

import static io.parquetbloom.health.BloomProbeRow.EXCLUDES;
import static io.parquetbloom.health.BloomProbeRow.MAY_CONTAIN;
import static java.util.Objects.requireNonNull;

/**
 * Explains a lookup of one value: runs the pruner a query runs (same plan, same entry point) once per path on its
 * own, to say what statistics, the bloom filter, the dictionary and the no-match cache each say of every row group, and once with the
 * session's settings, to say which row groups a query reads.
 */
public class BloomProbe
{
    public static final String NOT_DICTIONARY_ENCODED = "not dictionary-encoded";

    // files probed ahead of the caller: the table function has no close, so this is also what a LIMIT leaves running
    private static final int FILES_IN_FLIGHT = 32;

    private final ParquetMetadataReader metadataReader;
    private final RowGroupPruner pruner;

    @Inject
    public BloomProbe(ParquetMetadataReader metadataReader, RowGroupPruner pruner)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
    }

    /**
     * @param planFor the query's plan for {@code column = value} under the given options
     * @param session the session's options: what a query would do
     * @return each file's rows, in the table's file order
     */
    public InOrderWindow<LakeFile, List<BloomProbeRow>> probe(LakeTable table, String column, Function<PruningPlan.Options, PruningPlan> planFor, PruningPlan.Options session, Executor executor, ReadStats stats)
    {
        PruningPlan query = planFor.apply(session);
        PruningPlan statistics = planFor.apply(new PruningPlan.Options(EnumSet.of(PruningPlan.Path.STATISTICS), session.maxBloomValues(), 0, 0));
        PruningPlan bloomFilter = planFor.apply(new PruningPlan.Options(EnumSet.of(PruningPlan.Path.BLOOM_FILTERS), session.maxBloomValues(), 0, 0));
        PruningPlan noMatch = planFor.apply(new PruningPlan.Options(EnumSet.of(PruningPlan.Path.NO_MATCH_CACHE), session.maxBloomValues(), 0, 0));
        PruningPlan dictionary = planFor.apply(new PruningPlan.Options(EnumSet.of(PruningPlan.Path.DICTIONARIES), session.maxBloomValues(), session.maxDictionaryEntries(), 0));
        Paths paths = new Paths(query, statistics, bloomFilter, dictionary, noMatch);
        // file after file, a bounded number of files ahead of the caller: a table of any size is streamed
        return new InOrderWindow<>(table.files(), file -> probeFile(table, file, column, paths, stats), executor, FILES_IN_FLIGHT);
    }

    /**
     * The plan of the query, and of each pruning path on its own.
     */
    private record Paths(PruningPlan query, PruningPlan statistics, PruningPlan bloomFilter, PruningPlan dictionary, PruningPlan noMatch) {}

    private List<BloomProbeRow> probeFile(LakeTable table, LakeFile lakeFile, String column, Paths paths, ReadStats stats)
    {
        PruningPlan query = paths.query();
        String path = lakeFile.object().location().toString();
        Optional<String> partition = FilterHealthScanner.partitionName(table, lakeFile);
        if (!query.matchesPartition(lakeFile.partitionValues())) {
            return List.of(new BloomProbeRow(path, partition, OptionalInt.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, Optional.of("partition")));
        }
        ParquetFileMetadata file;
        try {
            file = metadataReader.footer(FooterRequest.withAllFilters(lakeFile.object(), table.name()), stats);
        }
        catch (RuntimeException e) {
            // the split source keeps such a file whole and lets the reader report it
            return List.of(new BloomProbeRow(path, partition, OptionalInt.empty(), OptionalLong.empty(), Optional.of("footer unreadable: " + e.getMessage()), Optional.empty(), Optional.empty(), Optional.empty(), true, Optional.empty()));
        }
        Set<Integer> read = survivors(file, query, stats);
        Set<Integer> statisticsKeep = survivors(file, paths.statistics(), stats);
        Set<Integer> filterKeeps = survivors(file, paths.bloomFilter(), stats);
        Set<Integer> dictionaryKeeps = survivors(file, paths.dictionary(), stats);
        Set<Integer> noMatchKeeps = survivors(file, paths.noMatch(), stats);
        List<RowGroup> rowGroups = file.metadata().getParquetMetadata().getRow_groups();
        List<BloomProbeRow> rows = new ArrayList<>();
        for (int ordinal = 0; ordinal < rowGroups.size(); ordinal++) {
            String statisticsSays = statisticsKeep.contains(ordinal) ? MAY_CONTAIN : EXCLUDES;
            String filterSays = filterKeeps.contains(ordinal) ? filterKeeps(file, ordinal, column, stats) : EXCLUDES;
            String dictionarySays = dictionaryKeeps.contains(ordinal) ? dictionaryKeeps(file, ordinal, column, paths.dictionary().options().maxDictionaryEntries(), stats) : EXCLUDES;
            String noMatchSays = noMatchKeeps.contains(ordinal) ? "nothing recorded" : "no match recorded";
            Optional<String> skippedBy = read.contains(ordinal) ? Optional.empty() : Optional.of(skippedBy(query.options(), statisticsSays, filterSays, dictionarySays, noMatchSays));
            rows.add(new BloomProbeRow(path, partition, OptionalInt.of(ordinal), OptionalLong.of(rowGroups.get(ordinal).getNum_rows()),
                    Optional.of(statisticsSays), Optional.of(filterSays), Optional.of(dictionarySays), Optional.of(noMatchSays), read.contains(ordinal), skippedBy));
        }
        return rows;
    }

    private Set<Integer> survivors(ParquetFileMetadata file, PruningPlan plan, ReadStats stats)
    {
        return new HashSet<>(pruner.prune(file, plan, RowGroupScope.WHOLE_FILE, stats).rowGroups());
    }

    /**
     * Why the filter kept a row group: it may hold the value, or there is no filter it can use.
     */
    private String filterKeeps(ParquetFileMetadata file, int ordinal, String column, ReadStats stats)
    {
        RowGroup rowGroup = file.metadata().getParquetMetadata().getRow_groups().get(ordinal);
        for (ColumnChunk chunk : rowGroup.getColumns()) {
            if (!chunk.isSetMeta_data() || !String.join(".", chunk.getMeta_data().getPath_in_schema()).equalsIgnoreCase(column)) {
                continue;
            }
            if (!chunk.getMeta_data().isSetBloom_filter_offset()) {
                return "no filter";
            }
            BloomFilterKey key = new BloomFilterKey(ordinal, chunk.getMeta_data().getPath_in_schema());
            try {
                return switch (metadataReader.filters(file, List.of(key), stats).results().get(key)) {
                    case null -> "unusable: not found at its offset";
                    case SplitBlockBloomFilterReader.Result.Usable _ -> MAY_CONTAIN;
                    case SplitBlockBloomFilterReader.Result.Unusable unusable -> "unusable: " + unusable.reason();
                };
            }
            catch (RuntimeException e) {
                return "unusable: cannot fetch: " + e.getMessage();
            }
        }
        return "no filter";
    }

    /**
     * Why the dictionary kept a row group: it holds the value, or the chunk has no dictionary it can use. The
     * dictionary-only pass before this one left what it read in the cache.
     */
    private String dictionaryKeeps(ParquetFileMetadata file, int ordinal, String column, int maxEntries, ReadStats stats)
    {
        // a top-level column, named as trino-parquet names the file's fields (lower case)
        List<String> path = List.of(column.toLowerCase(Locale.ROOT));
        Optional<ColumnChunkMetadata> chunk = file.columnChunk(ordinal, path);
        if (chunk.isEmpty() || !ChunkDictionary.entirelyDictionaryEncoded(chunk.get())) {
            return NOT_DICTIONARY_ENCODED;
        }
        try {
            DictionaryRequest request = new DictionaryRequest(new BloomFilterKey(ordinal, path), chunk.get(), file.metadata().getFileMetaData().getSchema().getColumnDescription(path.toArray(String[]::new)));
            return switch (metadataReader.dictionaries(file, List.of(request), maxEntries, true, stats).results().get(request.key())) {
                case null -> MAY_CONTAIN;
                case ChunkDictionary.Result.Usable _ -> MAY_CONTAIN;
                case ChunkDictionary.Result.TooLarge tooLarge -> "too large: " + tooLarge.reason();
                case ChunkDictionary.Result.Unusable unusable -> "unusable: " + unusable.reason();
            };
        }
        catch (RuntimeException e) {
            return "unusable: " + e.getMessage();
        }
    }

    private static String skippedBy(PruningPlan.Options options, String statistics, String filter, String dictionary, String noMatch)
    {
        if (options.statistics() && statistics.equals(EXCLUDES)) {
            return "statistics";
        }
        if (options.noMatchCache() && noMatch.equals("no match recorded")) {
            return "no-match cache";
        }
        if (options.bloomFilters() && filter.equals(EXCLUDES)) {
            return "bloom filter";
        }
        if (options.dictionaries() && dictionary.equals(EXCLUDES)) {
            return "dictionary";
        }
        // a value no chunk of the column can store: no row matches, whatever the filters
        return "no possible match";
    }
}
