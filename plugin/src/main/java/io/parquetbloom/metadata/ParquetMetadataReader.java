package io.parquetbloom.metadata;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Footers and bloom filters of object versions: from the node's caches, or read from S3 (one tail GET per footer,
 * usually bringing the filters too; one GET per cluster of filters otherwise) and then cached.
 */
public class ParquetMetadataReader
{
    // a tail holding the whole file up to this size has its dictionaries hashed when read (about trino-parquet's
    // small-file threshold, with room for the learned tail's margin)
    private static final int WHOLE_FILE_DICTIONARIES = 4 << 20;
    // dictionaries taken from a whole file are kept up to this many entries; larger ones are remembered as too large
    private static final int WHOLE_FILE_MAX_ENTRIES = 65_536;

    private final S3ObjectStore store;
    private final FooterCache footers;
    private final BloomFilterCache filters;
    private final DictionaryCache dictionaries;
    private final MetadataDiskTier disk;
    private final TailSizes tailSizes;

    @Inject
    public ParquetMetadataReader(S3ObjectStore store, FooterCache footers, BloomFilterCache filters, DictionaryCache dictionaries, MetadataDiskTier disk, MetadataConfig config)
    {
        this.disk = requireNonNull(disk, "disk is null");
        this.store = requireNonNull(store, "store is null");
        this.footers = requireNonNull(footers, "footers is null");
        this.filters = requireNonNull(filters, "filters is null");
        this.dictionaries = requireNonNull(dictionaries, "dictionaries is null");
        this.tailSizes = new TailSizes((int) config.getFooterReadSize().toBytes());
    }

    /**
     * The file's footer for {@code request}'s purpose ({@link FooterRequest.Purpose}). For an object listed without an
     * ETag nothing is cached, and the footer comes with all the bytes read.
     */
    public ParquetFileMetadata footer(FooterRequest request, ReadStats stats)
    {
        S3ObjectInfo object = request.object();
        SchemaTableName table = request.table();
        return switch (request.purpose()) {
            case FOOTER -> retained(object, read(object, table, 0, Optional.of(Set.of()), false, stats));
            case ALL_FILTERS -> retained(object, read(object, table, 0, Optional.empty(), true, stats));
            case PRUNING -> footerForPruning(object, table, request.readWholeUpTo(), request.filterColumns(), request.columns(), stats);
            case READING -> footerForReading(object, table, request.readWholeUpTo(), request.filterColumns(), request.columns(), stats);
        };
    }

    private static ParquetFileMetadata retained(S3ObjectInfo object, ParquetFileMetadata file)
    {
        // an object without an ETag caches nothing: its filters are taken from this read's tail
        return FileKey.of(object).cacheable() ? file.retainOnlyFooter() : file;
    }

    /**
     * The file's footer for pruning it at planning: the compact form when cached and covering the constrained
     * columns, else the whole footer when cached, else read (and a compact form of those columns and the ones the
     * cached form covered kept); when read now, with all the bytes read, so that dictionary pages among them cost no
     * further GET. The caller holds the tail only while it prunes the file, and passes it to
     * {@link #keepForReading} when splits of the file will be read.
     *
     * @param readWhole a file of at most this many bytes is read whole (0: never), as trino-parquet reads small files:
     * one GET brings the dictionaries too
     * @param filterColumns the top-level columns (lower case) whose filters pruning asks for next
     * @param constrainedColumns the top-level columns (lower case) the plan constrains, whose chunks pruning reads
     */
    private ParquetFileMetadata footerForPruning(S3ObjectInfo object, SchemaTableName table, long readWhole, Set<String> filterColumns, Set<String> constrainedColumns, ReadStats stats)
    {
        FileKey key = FileKey.of(object);
        if (!key.cacheable()) {
            return read(object, table, readWhole, Optional.of(filterColumns), false, stats);
        }
        Optional<CompactFooter> compact = footers.compactIfPresent(key);
        Optional<ParquetFileMetadata> cached = compact.filter(form -> form.covers(constrainedColumns)).flatMap(form -> expand(key, form, object))
                .or(() -> footers.peek(key));
        stats.cache().footer(cached.isPresent(), cached.map(file -> file.compacted().isPresent()).orElse(false));
        if (cached.isPresent()) {
            return cached.get();
        }
        Set<String> columns = ImmutableSet.<String>builder().addAll(constrainedColumns).addAll(compact.map(CompactFooter::columns).orElse(Set.of())).build();
        FooterLoad load = new FooterLoad(object, table, tailSize(object, table, readWhole, Optional.of(filterColumns)), false, stats);
        return readForPruning(key, load, columns, compact.isEmpty());
    }

    /**
     * Reads a footer for pruning and keeps its compact form for {@code columns}. The first read of a file is shared by
     * the queries that ask for it meanwhile; a form that another one kept serves when it covers the columns.
     */
    private ParquetFileMetadata readForPruning(FileKey key, FooterLoad load, Set<String> columns, boolean firstForm)
    {
        if (firstForm) {
            CompactFooter kept = footers.compact(key, () -> CompactFooter.of(load.load(), columns));
            if (load.read().isEmpty() && kept.covers(columns)) {
                Optional<ParquetFileMetadata> expanded = expand(key, kept, load.object());
                if (expanded.isPresent()) {
                    return expanded.get();
                }
            }
        }
        if (load.read().isEmpty()) {
            footers.keepCompact(key, CompactFooter.of(load.load(), columns));
        }
        load.keepTailContents(key);
        return load.read().orElseThrow();
    }

    /**
     * A compact footer parsed; none when it cannot be (then it is dropped, and the footer read again).
     */
    private Optional<ParquetFileMetadata> expand(FileKey key, CompactFooter compact, S3ObjectInfo object)
    {
        try {
            return Optional.of(compact.expand(object));
        }
        catch (RuntimeException e) {
            footers.invalidateCompact(key);
            return Optional.empty();
        }
    }

    /**
     * Whether this node keeps the file's footer in memory, whole or compact (no I/O, no hit or miss counted).
     */
    public boolean hasFooter(S3ObjectInfo object)
    {
        FileKey key = FileKey.of(object);
        return key.cacheable() && (footers.compactIfPresent(key).isPresent() || footers.peek(key).isPresent());
    }

    /**
     * Keeps the whole footer of a file that planning read and whose splits will be read, so that the reader does not
     * read it again. A coordinator that runs no splits keeps it until eviction: planning itself prefers the compact
     * form, so it is not used again and goes first.
     */
    public void keepForReading(ParquetFileMetadata file)
    {
        FileKey key = FileKey.of(file.object());
        if (file.compacted().isEmpty() && key.cacheable()) {
            footers.putIfAbsent(key, file);
        }
    }

    /**
     * The file's footer for reading a split of it, pruning it first: the compact form when cached and holding every
     * column the reader reads (the reader needs only those columns' chunks and the row groups), else the whole
     * footer, cached or read as {@link #footerForPruning} reads it and then kept.
     *
     * @param filterColumns the top-level columns (lower case) whose filters pruning asks for next
     * @param readColumns the top-level columns (lower case) the reader reads or filters on
     */
    private ParquetFileMetadata footerForReading(S3ObjectInfo object, SchemaTableName table, long readWhole, Set<String> filterColumns, Set<String> readColumns, ReadStats stats)
    {
        FileKey key = FileKey.of(object);
        if (key.cacheable()) {
            // as planning does, the compact form first: a whole footer used by no reader then goes first
            Optional<ParquetFileMetadata> compact = footers.compactIfPresent(key).filter(form -> form.covers(readColumns)).flatMap(form -> expand(key, form, object));
            if (compact.isPresent()) {
                stats.cache().footer(true, true);
                return compact.get();
            }
        }
        // pruning asks for the constrained columns' filters next (filters()), taking them from this tail:
        // only those are cached, so the budget holds what lookups probe, not every column's filter
        return read(object, table, readWhole, Optional.of(filterColumns), false, stats);
    }

    private int tailSize(S3ObjectInfo object, SchemaTableName table, long readWhole, Optional<Set<String>> columns)
    {
        int learnedTail = tailSizes.tailSize(table, columns);
        return object.size() <= readWhole ? (int) Math.max(object.size(), learnedTail) : learnedTail;
    }

    /**
     * @param columns whose filters the caller wants: the tail brings the others' filters too only where these are
     * most of them ({@link TailSizes}); empty: all columns'
     */
    private ParquetFileMetadata read(S3ObjectInfo object, SchemaTableName table, long readWhole, Optional<Set<String>> columns, boolean keepAllFilters, ReadStats stats)
    {
        FileKey key = FileKey.of(object);
        int tailSize = tailSize(object, table, readWhole, columns);
        if (!key.cacheable()) {
            // no version to key it by: read it for this query only
            stats.cache().footer(false);
            return FooterReader.readFooter(store, object, tailSize, stats.requests());
        }
        var cached = footers.getIfPresent(key);
        if (cached.isPresent()) {
            stats.cache().footer(true);
            return cached.get();
        }
        stats.cache().footer(false);
        FooterLoad load = new FooterLoad(object, table, tailSize, keepAllFilters, stats);
        ParquetFileMetadata footer = footers.get(key, load::load);
        load.keepTailContents(key);
        return load.read().orElse(footer);
    }

    /**
     * One read of a footer, from the disk tier or S3, and what its tail brought besides.
     */
    private final class FooterLoad
    {
        private final S3ObjectInfo object;
        private final SchemaTableName table;
        private final int tailSize;
        private final boolean keepAllFilters;
        private final ReadStats stats;
        private final Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filtersInTail = new HashMap<>();
        private final Map<BloomFilterKey, ChunkDictionary.Result> dictionariesInTail = new HashMap<>();
        // with all the bytes read; null until read
        private ParquetFileMetadata read;

        FooterLoad(S3ObjectInfo object, SchemaTableName table, int tailSize, boolean keepAllFilters, ReadStats stats)
        {
            this.object = object;
            this.table = table;
            this.tailSize = tailSize;
            this.keepAllFilters = keepAllFilters;
            this.stats = stats;
        }

        ParquetFileMetadata load()
        {
            if (read != null) {
                return read;
            }
            Optional<ParquetFileMetadata> onDisk = disk.footer(object, stats.cache());
            if (onDisk.isPresent()) {
                // after a restart, the tail sizes are learned from what the disk kept
                tailSizes.learn(table, onDisk.get());
                read = onDisk.get();
                return read;
            }
            ParquetFileMetadata file = FooterReader.readFooter(store, object, tailSize, stats.requests());
            disk.keepFooter(file);
            tailSizes.learn(table, file);
            if (keepAllFilters) {
                filtersInTail.putAll(parseFiltersInTail(file));
            }
            dictionariesInTail.putAll(parseDictionariesOfWholeFile(file));
            read = file;
            return file;
        }

        /**
         * The tail's filters and dictionaries become entries of their own (folded, hashed), so the footer entry keeps
         * no bytes but the footer's.
         */
        S3ObjectInfo object()
        {
            return object;
        }

        /**
         * The footer this load read, with all the bytes read; empty until it ran.
         */
        Optional<ParquetFileMetadata> read()
        {
            return Optional.ofNullable(read);
        }

        void keepTailContents(FileKey key)
        {
            filtersInTail.forEach((filter, result) -> keepFilter(key, filter, new BloomFilterCache.Cached.Filter(result), read.valueCount(filter)));
            dictionariesInTail.forEach((chunk, result) -> dictionaries.put(new DictionaryCache.Key(key, chunk), result));
        }
    }

    /**
     * Where the read brought a whole small file, the dictionaries of its entirely dictionary-encoded chunks, hashed
     * now at no I/O cost: a later lookup of any such column then needs no GET, as trino-parquet reading a small file
     * whole would not either. Larger tails are left alone: decoding every column's dictionaries is worth it only
     * while the file is small.
     */
    private Map<BloomFilterKey, ChunkDictionary.Result> parseDictionariesOfWholeFile(ParquetFileMetadata file)
    {
        if (file.tail().length > WHOLE_FILE_DICTIONARIES || !file.tailContains(4, file.footerStart() - 4)) {
            return Map.of();
        }
        List<DictionaryRequest> requests = new ArrayList<>();
        MessageType schema = file.metadata().getFileMetaData().getSchema();
        int rowGroups = file.metadata().getParquetMetadata().getRow_groupsSize();
        for (int rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
            for (Map.Entry<List<String>, ColumnChunkMetadata> chunk : file.columnChunks(rowGroup).entrySet()) {
                if (ChunkDictionary.entirelyDictionaryEncoded(chunk.getValue()) && schema.containsPath(chunk.getKey().toArray(String[]::new))) {
                    requests.add(new DictionaryRequest(new BloomFilterKey(rowGroup, chunk.getKey()), chunk.getValue(), schema.getColumnDescription(chunk.getKey().toArray(String[]::new))));
                }
            }
        }
        return DictionaryLoader.load(store, file, requests, WHOLE_FILE_MAX_ENTRIES, true, new S3RequestStats()).results();
    }

    /**
     * Every bloom filter the tail read brought along, parsed now: keeping them raw in the tail would hold their bytes
     * twice once probed, and filters nobody probes at their full, often oversized, length.
     */
    private Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> parseFiltersInTail(ParquetFileMetadata file)
    {
        Set<BloomFilterKey> keys = new LinkedHashSet<>();
        FileMetaData footer = file.metadata().getParquetMetadata();
        Set<BloomFilterKey> seen = new HashSet<>();
        for (FooterChunks.FooterChunk chunk : FooterChunks.chunks(footer)) {
            // keys are case-insensitive, so only the first of two chunks whose paths differ in case counts (the one
            // trino-parquet reads); its filter is taken if it lies in the tail
            BloomFilterKey key = chunk.key();
            if (seen.add(key) && chunk.metadata().isSetBloom_filter_offset() && chunk.metadata().getBloom_filter_offset() >= file.tailStart()) {
                keys.add(key);
            }
        }
        if (keys.isEmpty()) {
            return Map.of();
        }
        // all in the tail: no GET
        return BloomFilterLoader.load(store, file, keys, new S3RequestStats()).results();
    }

    /**
     * Filters of the given column chunks that this node has cached, without any I/O; chunks without a filter and
     * filters not cached are absent from the result.
     */
    public Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> cachedFilters(ParquetFileMetadata file, Collection<BloomFilterKey> keys)
    {
        FileKey fileKey = FileKey.of(file.object());
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = new HashMap<>();
        if (!fileKey.cacheable()) {
            return results;
        }
        for (BloomFilterKey key : keys) {
            if (filters.getIfPresent(new BloomFilterCache.Key(fileKey, key)).orElse(null) instanceof BloomFilterCache.Cached.Filter(SplitBlockBloomFilterReader.Result result)) {
                results.put(key, result);
            }
        }
        return results;
    }

    /**
     * Filters of the given column chunks: cached ones without I/O, the others from the tail read or in as few GETs as
     * possible, then cached. Chunks without a filter are absent from the result.
     */
    public LoadedFilters filters(ParquetFileMetadata file, Collection<BloomFilterKey> keys, ReadStats stats)
    {
        FileKey fileKey = FileKey.of(file.object());
        if (!fileKey.cacheable()) {
            stats.cache().filters(0, keys.size());
            return BloomFilterLoader.load(store, file, keys, stats.requests());
        }
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = new HashMap<>();
        List<BloomFilterKey> missing = new ArrayList<>();
        for (BloomFilterKey key : keys) {
            switch (cachedFilter(fileKey, key, file.valueCount(key), stats.cache())) {
                case BloomFilterCache.Cached.Filter(SplitBlockBloomFilterReader.Result result) -> results.put(key, result);
                case BloomFilterCache.Cached.NoFilter _ -> {}
                case null -> missing.add(key);
            }
        }
        long bytesRead = 0;
        if (!missing.isEmpty()) {
            LoadedFilters loaded = BloomFilterLoader.load(store, file, missing, stats.requests());
            bytesRead = loaded.bytesRead();
            for (BloomFilterKey key : missing) {
                SplitBlockBloomFilterReader.Result result = loaded.results().get(key);
                // the chunk has no filter: remember that too
                BloomFilterCache.Cached cached = result == null ? new BloomFilterCache.Cached.NoFilter() : new BloomFilterCache.Cached.Filter(result);
                if (keepFilter(fileKey, key, cached, file.valueCount(key)) instanceof BloomFilterCache.Cached.Filter(SplitBlockBloomFilterReader.Result kept)) {
                    results.put(key, kept);
                }
            }
        }
        stats.cache().filters(keys.size() - missing.size(), missing.size());
        return new LoadedFilters(results, bytesRead);
    }

    /**
     * Verdicts of the filters that are not in memory but on the disk tier, probed there for each key's hashes (only
     * the pages of the probed blocks are read), while the memory budget is full: loading them would only push
     * others out. The caller needs no filter for the keys answered.
     */
    public Map<BloomFilterKey, MetadataDiskTier.Verdict> probeOnDisk(ParquetFileMetadata file, Map<BloomFilterKey, long[]> hashes, ReadStats stats)
    {
        FileKey fileKey = FileKey.of(file.object());
        if (!disk.enabled() || !fileKey.cacheable() || !filters.budgetNearlyFull()) {
            return Map.of();
        }
        Map<BloomFilterKey, MetadataDiskTier.Verdict> verdicts = new HashMap<>();
        hashes.forEach((key, values) -> {
            if (filters.getIfPresent(new BloomFilterCache.Key(fileKey, key)).isEmpty()) {
                disk.probe(fileKey, key, values, stats.cache()).ifPresent(verdict -> verdicts.put(key, verdict));
            }
        });
        // memory misses, answered by the disk
        stats.cache().filters(0, verdicts.size());
        return verdicts;
    }

    /**
     * A filter from memory, else from the disk tier (then kept in memory too), else null.
     */
    private BloomFilterCache.Cached cachedFilter(FileKey file, BloomFilterKey key, long valueCount, MetadataCacheStats stats)
    {
        BloomFilterCache.Key cacheKey = new BloomFilterCache.Key(file, key);
        Optional<BloomFilterCache.Cached> inMemory = filters.getIfPresent(cacheKey);
        if (inMemory.isPresent()) {
            return inMemory.get();
        }
        return disk.filter(file, key, stats)
                .map(onDisk -> filters.put(cacheKey, onDisk, valueCount))
                .orElse(null);
    }

    /**
     * Keeps a filter just read in memory, folded, and on the disk tier as kept in memory.
     */
    private BloomFilterCache.Cached keepFilter(FileKey file, BloomFilterKey key, BloomFilterCache.Cached cached, long valueCount)
    {
        BloomFilterCache.Cached kept = filters.put(new BloomFilterCache.Key(file, key), cached, valueCount);
        disk.keepFilter(file, key, kept);
        return kept;
    }

    /**
     * Dictionaries of the given column chunks: cached ones without I/O, the others from the tail read or with one GET
     * each, then cached.
     *
     * @param cachedOnly answer only from the cache and the bytes already read: no GET
     */
    public LoadedDictionaries dictionaries(ParquetFileMetadata file, Collection<DictionaryRequest> requests, int maxEntries, boolean cachedOnly, ReadStats stats)
    {
        FileKey fileKey = FileKey.of(file.object());
        Map<BloomFilterKey, ChunkDictionary.Result> results = new HashMap<>();
        List<DictionaryRequest> missing = new ArrayList<>();
        for (DictionaryRequest request : requests) {
            var cached = fileKey.cacheable() ? dictionaries.getIfPresent(new DictionaryCache.Key(fileKey, request.key()), maxEntries) : Optional.<ChunkDictionary.Result>empty();
            cached.ifPresentOrElse(result -> results.put(request.key(), result), () -> missing.add(request));
        }
        if (missing.isEmpty()) {
            return new LoadedDictionaries(results, 0, 0);
        }
        LoadedDictionaries loaded = DictionaryLoader.load(store, file, missing, maxEntries, cachedOnly, stats.requests());
        loaded.results().forEach((chunk, result) -> {
            results.put(chunk, result);
            if (fileKey.cacheable()) {
                dictionaries.put(new DictionaryCache.Key(fileKey, chunk), result);
            }
        });
        return new LoadedDictionaries(results, loaded.pagesRead(), loaded.bytesRead());
    }
}
