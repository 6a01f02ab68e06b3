package io.parquetbloom.pruning;

import com.google.common.collect.ImmutableList;
import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.BloomFilterLoader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.RowGroupInfo;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Decides which row groups of a file (within a split's byte range) may hold matching rows: first by min/max and
 * null-count statistics, then by the bloom filters of the surviving row groups, fetched together. A filter that is
 * missing, unreadable or untrusted keeps its row group; the predicate is still applied to the rows read.
 */
public final class RowGroupPruner
{
    private final S3ObjectStore store;

    public RowGroupPruner(S3ObjectStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    public record Request(
            ParquetFileMetadata file,
            long splitStart,
            long splitLength,
            Map<List<String>, ColumnDescriptor> descriptorsByPath,
            Optional<TupleDomainParquetPredicate> statisticsPredicate,
            List<BloomColumnPredicate> bloomPredicates) {}

    public List<RowGroupInfo> prune(Request request, S3RequestStats requestStats, PruningStats stats)
            throws IOException
    {
        ParquetFileMetadata file = request.file();
        ParquetDataSourceId id = new ParquetDataSourceId(file.object().location().toString());
        List<BlockMetadata> blocks = file.metadata().getBlocks();

        List<Candidate> candidates = new ArrayList<>();
        for (int ordinal = 0; ordinal < blocks.size(); ordinal++) {
            BlockMetadata block = blocks.get(ordinal);
            if (block.columns().isEmpty()) {
                continue;
            }
            long start = block.columns().getFirst().getStartingPos();
            if (start < request.splitStart() || start >= request.splitStart() + request.splitLength()) {
                continue;
            }
            stats.addRowGroups(1);
            if (block.rowCount() == 0) {
                stats.addPrunedByStatistics();
                continue;
            }
            PrunedBlockMetadata pruned = PrunedBlockMetadata.createPrunedColumnsMetadata(block, id, request.descriptorsByPath());
            if (request.statisticsPredicate().isPresent() && !statisticsMatch(request.statisticsPredicate().get(), pruned, request.descriptorsByPath(), id)) {
                stats.addPrunedByStatistics();
                continue;
            }
            candidates.add(new Candidate(ordinal, block, pruned));
        }

        if (!request.bloomPredicates().isEmpty() && !candidates.isEmpty()) {
            candidates = pruneByBloomFilters(request, candidates, requestStats, stats);
        }
        return candidates.stream()
                .map(candidate -> new RowGroupInfo(candidate.pruned(), candidate.block().fileRowCountOffset(), Optional.empty()))
                .collect(ImmutableList.toImmutableList());
    }

    private record Candidate(int ordinal, BlockMetadata block, PrunedBlockMetadata pruned) {}

    private List<Candidate> pruneByBloomFilters(Request request, List<Candidate> candidates, S3RequestStats requestStats, PruningStats stats)
            throws ParquetCorruptionException
    {
        // a filter helps only where the predicate excludes NULL or the chunk has no NULLs
        List<BloomFilterKey> wanted = new ArrayList<>();
        for (Candidate candidate : candidates) {
            for (BloomColumnPredicate predicate : request.bloomPredicates()) {
                if (predicate.hashes().length > 0 && canUseFilter(candidate, predicate)) {
                    wanted.add(key(candidate, predicate));
                }
            }
        }
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters = new HashMap<>();
        if (!wanted.isEmpty()) {
            long[] bytesRead = new long[1];
            filters = BloomFilterLoader.load(store, request.file(), wanted, requestStats, bytesRead);
            stats.addBloomFilterBytesRead(bytesRead[0]);
        }

        List<Candidate> survivors = new ArrayList<>();
        for (Candidate candidate : candidates) {
            boolean excluded = false;
            for (BloomColumnPredicate predicate : request.bloomPredicates()) {
                if (!canUseFilter(candidate, predicate)) {
                    continue;
                }
                if (predicate.hashes().length == 0) {
                    // no value of the predicate can be stored in this column: no row matches, filter or not
                    excluded = true;
                    break;
                }
                SplitBlockBloomFilterReader.Result result = filters.get(key(candidate, predicate));
                if (result == null) {
                    // the writer made no filter for this chunk
                    continue;
                }
                switch (result) {
                    case SplitBlockBloomFilterReader.Result.Unusable _ -> stats.addBloomFilterUnusable();
                    case SplitBlockBloomFilterReader.Result.Usable usable -> {
                        stats.addBloomFilterProbed();
                        long[] hashes = predicate.hashes();
                        if (!usable.filter().mightContainAny(hashes, 0, hashes.length)) {
                            excluded = true;
                        }
                    }
                }
                if (excluded) {
                    break;
                }
            }
            if (excluded) {
                stats.addPrunedByBloomFilter();
            }
            else {
                survivors.add(candidate);
            }
        }
        return survivors;
    }

    private static boolean canUseFilter(Candidate candidate, BloomColumnPredicate predicate)
    {
        if (!predicate.nullAllowed()) {
            return true;
        }
        try {
            ColumnChunkMetadata chunk = candidate.pruned().getColumnChunkMetaData(predicate.column());
            Statistics<?> statistics = chunk.getStatistics();
            return statistics != null && statistics.isNumNullsSet() && statistics.getNumNulls() == 0;
        }
        catch (ParquetCorruptionException e) {
            return false;
        }
    }

    private static BloomFilterKey key(Candidate candidate, BloomColumnPredicate predicate)
    {
        return new BloomFilterKey(candidate.ordinal(), Arrays.asList(predicate.column().getPath()));
    }

    private static boolean statisticsMatch(TupleDomainParquetPredicate predicate, PrunedBlockMetadata block, Map<List<String>, ColumnDescriptor> descriptorsByPath, ParquetDataSourceId id)
            throws ParquetCorruptionException
    {
        Map<ColumnDescriptor, Statistics<?>> statistics = new HashMap<>();
        Map<ColumnDescriptor, Long> valueCounts = new HashMap<>();
        for (ColumnDescriptor descriptor : descriptorsByPath.values()) {
            ColumnChunkMetadata chunk = block.getColumnChunkMetaData(descriptor);
            if (chunk.getStatistics() != null) {
                statistics.put(descriptor, chunk.getStatistics());
            }
            valueCounts.put(descriptor, chunk.getValueCount());
        }
        return predicate.getIndexLookupCandidates(valueCounts, statistics, id).isPresent();
    }
}
