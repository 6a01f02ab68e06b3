package io.parquetbloom.pruning;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.Longs;
import com.google.inject.Inject;
import io.parquetbloom.hash.UnsignedIntegers;
import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.BloomFilterLoader;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.LoadedFilters;
import io.parquetbloom.metadata.MetadataDiskTier;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.sbbf.BloomFilterMath;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.table.FileColumnResolver;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.DoubleType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static com.google.common.collect.ImmutableList.toImmutableList;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.predicate.PredicateUtils.buildPredicate;
import static java.util.Objects.requireNonNull;

/**
 * Decides which row groups of a file may hold rows a {@link PruningPlan} accepts: first by min/max and null-count
 * statistics, then by what this node learned by reading ({@link NoMatchCache}), then by the bloom filters of the
 * surviving row groups, fetched together (or from the cache), then by the dictionaries of entirely dictionary-encoded
 * chunks ({@link DictionaryPruner}). A filter that is missing, unreadable or untrusted keeps
 * its row group; the engine still applies the predicate to the rows. The one entry point of the split source (whole
 * files, before splits exist) and of the page source (its split's byte range, or the row groups the coordinator
 * chose), so both decide alike and both fail open alike: statistics that cannot be read, or filters that cannot be
 * fetched, keep their row groups and are counted; only a footer that cannot be read at all is the caller's problem.
 */
public final class RowGroupPruner
{
    static final int UNSELECTIVE_VALUES = 1_000;

    private final ParquetMetadataReader metadataReader;
    private final NoMatchCache noMatchCache;
    private final FileColumnResolver resolver;
    private final DictionaryPruner dictionaryPruner;

    @Inject
    public RowGroupPruner(ParquetMetadataReader metadataReader, NoMatchCache noMatchCache, FileColumnResolver resolver)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.dictionaryPruner = new DictionaryPruner(metadataReader);
        this.noMatchCache = requireNonNull(noMatchCache, "noMatchCache is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
    }

    /**
     * A REAL column of an older file read as the table's DOUBLE (schema evolution) prunes nothing: trino-parquet's
     * statistics and dictionary predicates take a DOUBLE domain's values to be doubles, which a FLOAT chunk's are not.
     */
    private static Map<String, org.apache.parquet.schema.Type> withoutWidenedFloats(Map<String, org.apache.parquet.schema.Type> fileFields, Map<String, Domain> domains)
    {
        Map<String, org.apache.parquet.schema.Type> kept = new HashMap<>(fileFields);
        kept.entrySet().removeIf(entry -> entry.getValue().isPrimitive()
                && entry.getValue().asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT
                && domains.containsKey(entry.getKey())
                && domains.get(entry.getKey()).getType() instanceof DoubleType);
        return kept;
    }

    /**
     * The row groups of {@code file} within {@code scope} that may hold rows the plan accepts. Never throws for
     * statistics or filters it cannot read or fetch: those keep their row groups and are counted.
     */
    public RowGroupSelection prune(ParquetFileMetadata file, PruningPlan plan, RowGroupScope scope, ReadStats readStats)
    {
        return prune(file, plan, scope, plan.constrainedFieldsIn(file.metadata().getFileMetaData().getSchema(), resolver), readStats);
    }

    /**
     * As {@link #prune(ParquetFileMetadata, PruningPlan, RowGroupScope, ReadStats)}, for a caller that has resolved
     * the file's columns already.
     *
     * @param fileFields the file's fields of the table's columns it stores readably as the table's types, by column
     * name (see {@link PruningPlan#constrainedFieldsIn}); fields of columns the plan does not constrain are ignored
     */
    public RowGroupSelection prune(ParquetFileMetadata file, PruningPlan plan, RowGroupScope scope, Map<String, org.apache.parquet.schema.Type> resolvedFields, ReadStats readStats)
    {
        Map<String, org.apache.parquet.schema.Type> fileFields = withoutWidenedFloats(resolvedFields, plan.domainsOf(resolvedFields));
        Map<String, Domain> domains = plan.domainsOf(fileFields);
        PruningStats stats = new PruningStats();
        List<Integer> survivors = switch (scope) {
            case RowGroupScope.Planned planned -> plan.options().noMatchCache() ? removeKnownNoMatch(file, planned.rowGroups(), domains, stats) : planned.rowGroups();
            case RowGroupScope.ByteRange range -> prune(file, fileFields, domains, range, plan, readStats, stats);
        };
        return new RowGroupSelection(survivors, domains, stats);
    }

    private List<Integer> prune(
            ParquetFileMetadata file,
            Map<String, org.apache.parquet.schema.Type> fileFields,
            Map<String, Domain> domains,
            RowGroupScope.ByteRange range,
            PruningPlan plan,
            ReadStats readStats,
            PruningStats stats)
    {
        PruningPlan.Options options = plan.options();
        ConstrainedColumns constrained = constrainedColumns(file.metadata().getFileMetaData().getSchema(), fileFields, domains, plan, stats);
        List<Candidate> candidates = candidatesByStatistics(file, range, constrained, options, stats);
        Set<BloomFilterKey> answeredByFilter = new HashSet<>();
        if (options.bloomFilters() && !constrained.bloomPredicates().isEmpty() && !candidates.isEmpty()) {
            candidates = pruneByBloomFilters(file, constrained.bloomPredicates(), candidates, answeredByFilter, readStats, stats);
        }
        if (options.dictionaries() && !constrained.bloomPredicates().isEmpty() && !candidates.isEmpty()) {
            candidates = dictionaryPruner.prune(file, constrained.bloomPredicates(), candidates, answeredByFilter, options.maxDictionaryEntries(), readStats, stats);
        }
        return candidates.stream().map(Candidate::ordinal).collect(toImmutableList());
    }

    /**
     * The file's primitive top-level columns the plan constrains, and what each pruning step checks of them.
     *
     * @param unsignedDomains constraints on unsigned integers, whose statistics we read ourselves: trino-parquet reads
     * them as signed ("corrupted" when max > 2^31)
     * @param statisticsPredicate trino-parquet's min/max check of the other constrained columns
     */
    private record ConstrainedColumns(
            Map<List<String>, ColumnDescriptor> descriptorsByPath,
            Map<String, Domain> primitiveDomains,
            Map<ColumnDescriptor, Domain> unsignedDomains,
            Optional<TupleDomainParquetPredicate> statisticsPredicate,
            List<BloomColumnPredicate> bloomPredicates) {}

    private static ConstrainedColumns constrainedColumns(MessageType fileSchema, Map<String, org.apache.parquet.schema.Type> fileFields, Map<String, Domain> domains, PruningPlan plan, PruningStats stats)
    {
        Map<String, org.apache.parquet.schema.Type> fields = new LinkedHashMap<>();
        Map<String, Domain> primitiveDomains = new HashMap<>();
        domains.forEach((name, domain) -> {
            org.apache.parquet.schema.Type field = fileFields.get(name);
            if (field != null && field.isPrimitive()) {
                fields.put(name, field);
                primitiveDomains.put(name, domain);
            }
        });
        MessageType requestedSchema = new MessageType(fileSchema.getName(), List.copyOf(fields.values()));
        Map<List<String>, ColumnDescriptor> descriptorsByPath = getDescriptors(fileSchema, requestedSchema);
        Map<ColumnDescriptor, Domain> parquetDomains = new HashMap<>();
        Map<ColumnDescriptor, Domain> unsignedDomains = new HashMap<>();
        List<BloomColumnPredicate> bloomPredicates = new ArrayList<>();
        fields.forEach((name, field) -> {
            ColumnDescriptor descriptor = descriptorsByPath.get(List.of(field.getName()));
            if (descriptor == null) {
                return;
            }
            Domain domain = domains.get(name);
            boolean unsigned = UnsignedIntegers.unsignedWidth(descriptor.getPrimitiveType()).isPresent();
            (unsigned ? unsignedDomains : parquetDomains).put(descriptor, domain);
            if (plan.options().hashesValues()) {
                plan.memo().get(descriptor, domain, plan.options().maxBloomValues()).ifPresent(bloomPredicates::add);
            }
        });
        Optional<TupleDomainParquetPredicate> statisticsPredicate = Optional.empty();
        if (plan.options().statistics() && !parquetDomains.isEmpty()) {
            try {
                statisticsPredicate = Optional.of(buildPredicate(requestedSchema, TupleDomain.withColumnDomains(parquetDomains), descriptorsByPath, DateTimeZone.UTC));
            }
            catch (RuntimeException e) {
                // a predicate trino-parquet cannot turn into a statistics check prunes nothing by statistics
                stats.addStatisticsUnusable();
            }
        }
        return new ConstrainedColumns(descriptorsByPath, primitiveDomains, unsignedDomains, statisticsPredicate, bloomPredicates);
    }

    /**
     * The row groups of the split's range that statistics and the no-match cache leave, with their constrained chunks.
     */
    private List<Candidate> candidatesByStatistics(ParquetFileMetadata file, RowGroupScope.ByteRange range, ConstrainedColumns constrained, PruningPlan.Options options, PruningStats stats)
    {
        ParquetDataSourceId id = new ParquetDataSourceId(file.object().location().toString());
        FileKey fileKey = FileKey.of(file.object());
        Map<String, Long> noMatchDomains = options.noMatchCache() ? rememberedDomains(constrained.primitiveDomains()) : Map.of();
        List<BlockMetadata> blocks = blocks(file);
        List<Candidate> candidates = new ArrayList<>();
        for (int ordinal = 0; ordinal < blocks.size(); ordinal++) {
            BlockMetadata block = blocks.get(ordinal);
            if (!inSplit(block, file.object().size(), range.start(), range.length())) {
                continue;
            }
            stats.addRowGroups(1);
            if (block.rowCount() == 0) {
                stats.addPrunedByStatistics();
                continue;
            }
            Optional<PrunedBlockMetadata> pruned;
            try {
                pruned = Optional.of(PrunedBlockMetadata.createPrunedColumnsMetadata(block, id, constrained.descriptorsByPath()));
            }
            catch (IOException | RuntimeException e) {
                // the reader will report what is wrong with this row group, if anything; we do not prune it
                stats.addStatisticsUnusable();
                candidates.add(new Candidate(ordinal, Optional.empty()));
                continue;
            }
            if (options.statistics() && !statisticsMatch(constrained, pruned.get(), id, stats)) {
                stats.addPrunedByStatistics();
                continue;
            }
            if (knownNoMatch(fileKey, ordinal, noMatchDomains)) {
                stats.addPrunedByNoMatchCache();
                continue;
            }
            candidates.add(new Candidate(ordinal, pruned));
        }
        return candidates;
    }

    private static List<BlockMetadata> blocks(ParquetFileMetadata file)
    {
        try {
            // parsed when the footer was read, so this does not fail here
            return file.blocks();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param pruned the row group's chunks of the constrained columns, empty when they could not be read
     */
    record Candidate(int ordinal, Optional<PrunedBlockMetadata> pruned) {}

    /**
     * Whether a row group belongs to the split that covers {@code [splitStart, splitStart + splitLength)}: the one
     * holding its first byte. A row group whose recorded start lies outside the file (a writer's bad offset) belongs
     * to the split starting at 0, so every row group is read by exactly one split.
     */
    private static boolean inSplit(BlockMetadata block, long fileSize, long splitStart, long splitLength)
    {
        long start = block.columns().isEmpty() ? 0 : block.columns().getFirst().getStartingPos();
        if (start < 0 || start >= fileSize) {
            start = 0;
        }
        return start >= splitStart && start - splitStart < splitLength;
    }

    /**
     * Drops the row groups an earlier read found to hold no match (see {@link NoMatchRecorder}); no I/O.
     */
    private List<Integer> removeKnownNoMatch(ParquetFileMetadata file, List<Integer> ordinals, Map<String, Domain> domains, PruningStats stats)
    {
        FileKey fileKey = FileKey.of(file.object());
        Map<String, Long> noMatchDomains = rememberedDomains(domains);
        ImmutableList.Builder<Integer> survivors = ImmutableList.builder();
        for (int ordinal : ordinals) {
            if (knownNoMatch(fileKey, ordinal, noMatchDomains)) {
                stats.addPrunedByNoMatchCache();
            }
            else {
                survivors.add(ordinal);
            }
        }
        return survivors.build();
    }

    /**
     * The numbers of the domains the cache holds facts about, by column, looked up once per file rather than per row
     * group.
     */
    private Map<String, Long> rememberedDomains(Map<String, Domain> domains)
    {
        Map<String, Long> remembered = new HashMap<>();
        domains.forEach((column, domain) -> {
            if (noMatchCache.remembers(domain)) {
                noMatchCache.domainId(domain).ifPresent(id -> remembered.put(column, id));
            }
        });
        return remembered;
    }

    private boolean knownNoMatch(FileKey fileKey, int ordinal, Map<String, Long> domainIds)
    {
        for (Map.Entry<String, Long> entry : domainIds.entrySet()) {
            if (noMatchCache.knownNoMatch(fileKey, ordinal, entry.getKey(), entry.getValue())) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param answeredByFilter receives the chunks of surviving row groups whose usable filter answered "maybe"
     */
    private List<Candidate> pruneByBloomFilters(ParquetFileMetadata file, List<BloomColumnPredicate> predicates, List<Candidate> candidates, Set<BloomFilterKey> answeredByFilter, ReadStats readStats, PruningStats stats)
    {
        FetchedFilters filters = fetchFilters(file, predicates, candidates, readStats, stats);
        List<Candidate> survivors = new ArrayList<>();
        for (Candidate candidate : candidates) {
            if (excludedByFilter(candidate, predicates, filters, answeredByFilter, stats)) {
                stats.addPrunedByBloomFilter();
            }
            else {
                survivors.add(candidate);
            }
        }
        return survivors;
    }

    /**
     * Filters by chunk, verdicts of the filters the disk tier probed in place (those chunks have no filter here), and
     * the chunks whose filters were not fetched because they could hardly rule out the predicate's values.
     */
    private record FetchedFilters(Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters, Map<BloomFilterKey, MetadataDiskTier.Verdict> onDisk, Set<BloomFilterKey> unselective) {}

    /**
     * The chunks whose filter would be a GET for nothing (and is in neither the tail read, the disk tier nor the
     * cache): at least {@value #UNSELECTIVE_VALUES} values, and a filter of its size, holding as many distinct values
     * as the chunk has values, would answer "maybe" for at least one of them in more than 99 row groups of 100 that
     * hold none (2,000 values against 1% filters: 1 - 0.99^2000). A chunk with fewer distinct values has a tighter
     * filter than so estimated; the floor on the values keeps that from costing a lookup or a small IN list its
     * pruning. Fetching is a cost decision only: the row group is kept, as it would be after a "maybe", and its
     * dictionary is still used where it costs no GET.
     */
    private Set<BloomFilterKey> notWorthFetching(ParquetFileMetadata file, Map<BloomFilterKey, long[]> wanted, Set<BloomFilterKey> probedOnDisk, PruningStats stats)
    {
        List<BloomFilterKey> candidates = wanted.entrySet().stream()
                .filter(entry -> !probedOnDisk.contains(entry.getKey()) && cannotRuleOut(file, entry.getKey(), entry.getValue().length))
                .map(Map.Entry::getKey)
                .toList();
        if (candidates.isEmpty()) {
            return Set.of();
        }
        // a cached filter costs no GET: it answers
        Set<BloomFilterKey> unselective = new HashSet<>(candidates);
        unselective.removeAll(metadataReader.cachedFilters(file, candidates).keySet());
        unselective.forEach(_ -> stats.addBloomFilterNotFetched());
        return unselective;
    }

    private static boolean cannotRuleOut(ParquetFileMetadata file, BloomFilterKey key, int values)
    {
        if (values < UNSELECTIVE_VALUES) {
            return false;
        }
        OptionalLong length = BloomFilterLoader.lengthToFetch(file, key);
        long valueCount = file.valueCount(key);
        if (length.isEmpty() || valueCount <= 0) {
            return false;
        }
        double falsePositive = BloomFilterMath.falsePositiveProbability(length.getAsLong(), valueCount);
        return Math.pow(1 - falsePositive, values) < 0.01;
    }

    /**
     * The filters that can answer for the candidates, fetched together; filters we could not fetch (S3 trouble) are
     * unusable and prune nothing: reading the data reports a lasting problem.
     */
    private FetchedFilters fetchFilters(ParquetFileMetadata file, List<BloomColumnPredicate> predicates, List<Candidate> candidates, ReadStats readStats, PruningStats stats)
    {
        // a filter helps only where the predicate excludes NULL or the chunk has no NULLs
        Map<BloomFilterKey, long[]> wanted = new LinkedHashMap<>();
        for (Candidate candidate : candidates) {
            for (BloomColumnPredicate predicate : predicates) {
                if (predicate.hashes().length > 0 && canUseFilter(candidate, predicate)) {
                    // two predicates on one chunk: a verdict for all their hashes is "absent" only if each one's is
                    wanted.merge(key(candidate, predicate), predicate.hashes(), Longs::concat);
                }
            }
        }
        if (wanted.isEmpty()) {
            return new FetchedFilters(Map.of(), Map.of(), Set.of());
        }
        Map<BloomFilterKey, MetadataDiskTier.Verdict> onDisk = probeOnDisk(file, wanted, readStats);
        Set<BloomFilterKey> unselective = notWorthFetching(file, wanted, onDisk.keySet(), stats);
        List<BloomFilterKey> toLoad = wanted.keySet().stream().filter(key -> !onDisk.containsKey(key) && !unselective.contains(key)).toList();
        if (toLoad.isEmpty()) {
            return new FetchedFilters(Map.of(), onDisk, unselective);
        }
        try {
            LoadedFilters loaded = metadataReader.filters(file, toLoad, readStats);
            stats.addBloomFilterBytesRead(loaded.bytesRead());
            return new FetchedFilters(loaded.results(), onDisk, unselective);
        }
        catch (RuntimeException e) {
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> unusable = new HashMap<>();
            for (BloomFilterKey key : toLoad) {
                unusable.put(key, new SplitBlockBloomFilterReader.Result.Unusable("cannot fetch: " + e.getMessage()));
            }
            return new FetchedFilters(unusable, onDisk, unselective);
        }
    }

    /**
     * Verdicts of filters probed on the disk tier; none when that fails in any way (the filters are then fetched).
     */
    private Map<BloomFilterKey, MetadataDiskTier.Verdict> probeOnDisk(ParquetFileMetadata file, Map<BloomFilterKey, long[]> wanted, ReadStats readStats)
    {
        try {
            return metadataReader.probeOnDisk(file, wanted, readStats);
        }
        catch (RuntimeException e) {
            return Map.of();
        }
    }

    /**
     * Whether a usable filter of the row group rules out every value of a predicate.
     *
     * @param answeredByFilter receives the chunks whose usable filter answered "maybe"
     */
    private static boolean excludedByFilter(Candidate candidate, List<BloomColumnPredicate> predicates, FetchedFilters filters, Set<BloomFilterKey> answeredByFilter, PruningStats stats)
    {
        for (BloomColumnPredicate predicate : predicates) {
            if (!canUseFilter(candidate, predicate)) {
                continue;
            }
            if (predicate.hashes().length == 0) {
                // no value of the predicate can be stored in this column: no row matches, filter or not
                return true;
            }
            if (filters.unselective().contains(key(candidate, predicate))) {
                // not fetched: as good as a "maybe"
                answeredByFilter.add(key(candidate, predicate));
                continue;
            }
            MetadataDiskTier.Verdict verdict = filters.onDisk().get(key(candidate, predicate));
            if (verdict != null) {
                if (verdict == MetadataDiskTier.Verdict.NO_FILTER) {
                    continue;
                }
                stats.addBloomFilterProbed(false);
                if (verdict == MetadataDiskTier.Verdict.ABSENT) {
                    return true;
                }
                answeredByFilter.add(key(candidate, predicate));
                continue;
            }
            SplitBlockBloomFilterReader.Result result = filters.filters().get(key(candidate, predicate));
            switch (result) {
                // the writer made no filter for this chunk
                case null -> {}
                case SplitBlockBloomFilterReader.Result.Unusable _ -> stats.addBloomFilterUnusable();
                case SplitBlockBloomFilterReader.Result.Usable usable -> {
                    stats.addBloomFilterProbed(usable.filter().probe().name().startsWith("vector"));
                    long[] hashes = predicate.hashes();
                    if (!usable.filter().mightContainAny(hashes, 0, hashes.length)) {
                        return true;
                    }
                    answeredByFilter.add(key(candidate, predicate));
                }
            }
        }
        return false;
    }

    /**
     * Whether the chunk's filter can answer the predicate: it records no NULLs, so a predicate that accepts NULL needs
     * a chunk known to have none; and for integers narrower than their physical type (INT(8/16) on INT32) the value
     * read is the stored value only when the statistics prove every stored value is in the annotation's range.
     */
    static boolean canUseFilter(Candidate candidate, BloomColumnPredicate predicate)
    {
        if (candidate.pruned().isEmpty()) {
            return false;
        }
        Statistics<?> statistics;
        try {
            statistics = candidate.pruned().get().getColumnChunkMetaData(predicate.column()).getStatistics();
        }
        catch (ParquetCorruptionException | RuntimeException e) {
            return false;
        }
        if (predicate.nullAllowed() && (statistics == null || !statistics.isNumNullsSet() || statistics.getNumNulls() != 0)) {
            return false;
        }
        return IntegerStatistics.storedValuesInReadRange(predicate.column().getPrimitiveType(), statistics);
    }

    static BloomFilterKey key(Candidate candidate, BloomColumnPredicate predicate)
    {
        return new BloomFilterKey(candidate.ordinal(), Arrays.asList(predicate.column().getPath()));
    }

    /**
     * Whether the row group's statistics allow a match; statistics that cannot be read or that contradict themselves
     * allow one (and are counted).
     */
    private static boolean statisticsMatch(ConstrainedColumns constrained, PrunedBlockMetadata block, ParquetDataSourceId id, PruningStats stats)
    {
        Map<ColumnDescriptor, Domain> unsignedDomains = constrained.unsignedDomains();
        Optional<TupleDomainParquetPredicate> predicate = constrained.statisticsPredicate();
        Map<List<String>, ColumnDescriptor> descriptorsByPath = constrained.descriptorsByPath();
        try {
            for (Map.Entry<ColumnDescriptor, Domain> entry : unsignedDomains.entrySet()) {
                ColumnChunkMetadata chunk = block.getColumnChunkMetaData(entry.getKey());
                if (!IntegerStatistics.unsignedMayMatch(entry.getKey().getPrimitiveType(), chunk.getStatistics(), chunk.getValueCount(), entry.getValue())) {
                    return false;
                }
            }
            if (predicate.isEmpty()) {
                return true;
            }
            Map<ColumnDescriptor, Statistics<?>> statistics = new HashMap<>();
            Map<ColumnDescriptor, Long> valueCounts = new HashMap<>();
            for (ColumnDescriptor descriptor : descriptorsByPath.values()) {
                if (unsignedDomains.containsKey(descriptor)) {
                    continue;
                }
                ColumnChunkMetadata chunk = block.getColumnChunkMetaData(descriptor);
                if (chunk.getStatistics() != null) {
                    statistics.put(descriptor, chunk.getStatistics());
                }
                valueCounts.put(descriptor, chunk.getValueCount());
            }
            return predicate.get().getIndexLookupCandidates(valueCounts, statistics, id).isPresent();
        }
        catch (ParquetCorruptionException | RuntimeException e) {
            stats.addStatisticsUnusable();
            return true;
        }
    }
}
