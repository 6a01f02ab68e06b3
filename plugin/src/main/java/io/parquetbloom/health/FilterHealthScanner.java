package io.parquetbloom.health;

import com.google.inject.Inject;
import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.ChunkDictionary;
import io.parquetbloom.metadata.FooterChunks;
import io.parquetbloom.metadata.FooterChunks.FooterChunk;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.sbbf.BloomFilterMath;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.PartitionValues;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

import static io.parquetbloom.sbbf.SplitBlockBloomFilter.BYTES_PER_BLOCK;
import static java.util.Objects.requireNonNull;

/**
 * Reads the footers and every bloom filter of a table (through the node's metadata cache, never a column chunk) and
 * measures them: per chunk what {@code "t$bloom_filters"} shows, per column what the advice is built on.
 */
public class FilterHealthScanner
{
    // files read or waiting to be consumed at one time: what a scan holds is this many files' chunks, not the table's
    static final int FILES_IN_FLIGHT = 128;

    private final ParquetMetadataReader metadataReader;

    @Inject
    public FilterHealthScanner(ParquetMetadataReader metadataReader)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
    }

    /**
     * @param executor bounded to the catalog's metadata concurrency: files are read side by side, in listing order
     * @param keepChunks whether to return one {@link ChunkHealth} per chunk (the per-column summary never needs them)
     */
    public TableHealth scan(LakeTable table, Executor executor, boolean keepChunks, ReadStats stats)
    {
        return scan(table, executor, keepChunks, true, stats);
    }

    /**
     * @param fetchFilters false to measure only the filters already cached (those of the footer reads' tails),
     * without any GET beyond the footers: a filter not cached is {@link FilterStatus.NotCached}
     */
    public TableHealth scan(LakeTable table, Executor executor, boolean keepChunks, boolean fetchFilters, ReadStats stats)
    {
        Map<String, Integer> filesLeft = new HashMap<>();
        for (LakeFile file : table.files()) {
            filesLeft.merge(partitionName(table, file).orElse(""), 1, Integer::sum);
        }
        Scan scan = new Scan(keepChunks, filesLeft);
        try (InOrderWindow<LakeFile, FileResult> results = new InOrderWindow<>(table.files(), file -> inspect(table, file, fetchFilters, stats), executor, FILES_IN_FLIGHT)) {
            for (LakeFile file : table.files()) {
                scan.add(table, file, results.next());
            }
        }
        long bytes = table.files().stream().mapToLong(file -> file.object().size()).sum();
        return scan.build(table.files().size(), bytes);
    }

    /**
     * One file's chunks as {@code "t$bloom_filters"} shows them, or why its footer cannot be read.
     */
    public record ScannedFile(LakeFile file, Optional<String> partition, List<ChunkHealth> chunks, Optional<String> unreadable) {}

    /**
     * The chunks of {@code files}, file after file in their order, read at most {@value #FILES_IN_FLIGHT} files ahead
     * of the consumer: a table of any size is streamed, never held.
     */
    public InOrderWindow<LakeFile, ScannedFile> scanFiles(LakeTable table, List<LakeFile> files, Executor executor, ReadStats stats)
    {
        return new InOrderWindow<>(files, file -> {
            Optional<String> partition = partitionName(table, file);
            return switch (inspect(table, file, true, stats)) {
                case FileResult.Unreadable(String reason) -> new ScannedFile(file, partition, List.of(), Optional.of(reason));
                case FileResult.Read(List<RowGroupColumn> columns) -> new ScannedFile(file, partition, columns.stream().map(RowGroupColumn::chunk).toList(), Optional.empty());
            };
        }, executor, FILES_IN_FLIGHT);
    }

    private record RowGroupColumn(ChunkHealth chunk, long nonNullValues, Optional<SplitBlockBloomFilter> filter, Optional<Range> range) {}

    private record Range(String primitiveType, Comparator<?> comparator, Object min, Object max) {}

    private sealed interface FileResult
    {
        record Read(List<RowGroupColumn> columns)
                implements FileResult {}

        record Unreadable(String reason)
                implements FileResult {}
    }

    private FileResult inspect(LakeTable table, LakeFile lakeFile, boolean fetchFilters, ReadStats stats)
    {
        ParquetFileMetadata file;
        try {
            file = metadataReader.footer(FooterRequest.withAllFilters(lakeFile.object(), table.name()), stats);
        }
        catch (RuntimeException e) {
            return new FileResult.Unreadable("cannot read footer: " + e.getMessage());
        }
        FileMetaData footer = file.metadata().getParquetMetadata();
        List<FooterChunk> chunks = FooterChunks.chunks(footer);
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters = filters(file, chunks, fetchFilters, stats);
        FileFacts facts = new FileFacts(
                lakeFile.object().location().toString(),
                partitionName(table, lakeFile),
                Optional.ofNullable(footer.getCreated_by()),
                file.metadata().getFileMetaData().getSchema(),
                FooterChunks.rowGroups(footer).stream().mapToLong(FilterHealthScanner::rowGroupEnd).max().orElse(0),
                ranges(file));
        List<RowGroupColumn> columns = new ArrayList<>();
        Map<List<String>, ColumnChunkMetadata> chunksByPath = Map.of();
        int chunksOf = -1;
        for (FooterChunk chunk : chunks) {
            if (chunk.rowGroup() != chunksOf) {
                chunksOf = chunk.rowGroup();
                chunksByPath = file.columnChunks(chunksOf);
            }
            FilterStatus status = status(chunk, filters.get(chunk.key()), fetchFilters);
            Optional<ColumnChunkMetadata> dictionaryChunk = Optional.ofNullable(chunksByPath.get(chunk.key().path())).filter(ChunkDictionary::entirelyDictionaryEncoded);
            columns.add(rowGroupColumn(facts, chunk, status, filters.get(chunk.key()), dictionaryChunk));
        }
        return new FileResult.Read(columns);
    }

    /**
     * What a file's chunks share.
     *
     * @param dataEnd where the last row group's data ends
     * @param ranges min/max by "rowGroup/column", see {@link #ranges}
     */
    private record FileFacts(String path, Optional<String> partition, Optional<String> createdBy, MessageType schema, long dataEnd, Map<String, Range> ranges) {}

    /**
     * The filters of the chunks that have one: fetched, or only those cached.
     */
    private Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters(ParquetFileMetadata file, List<FooterChunk> chunks, boolean fetchFilters, ReadStats stats)
    {
        List<BloomFilterKey> withFilter = chunks.stream()
                .filter(chunk -> chunk.metadata().isSetBloom_filter_offset())
                .map(FooterChunk::key)
                .toList();
        if (withFilter.isEmpty()) {
            return Map.of();
        }
        if (!fetchFilters) {
            return metadataReader.cachedFilters(file, withFilter);
        }
        try {
            return metadataReader.filters(file, withFilter, stats).results();
        }
        catch (RuntimeException e) {
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> unusable = new HashMap<>();
            for (BloomFilterKey key : withFilter) {
                unusable.put(key, new SplitBlockBloomFilterReader.Result.Unusable("cannot fetch: " + e.getMessage()));
            }
            return unusable;
        }
    }

    private static FilterStatus status(FooterChunk chunk, SplitBlockBloomFilterReader.Result result, boolean fetchFilters)
    {
        if (!chunk.metadata().isSetBloom_filter_offset()) {
            return new FilterStatus.Missing();
        }
        return switch (result) {
            case null -> fetchFilters ? new FilterStatus.Unusable("not found at its offset") : new FilterStatus.NotCached();
            case SplitBlockBloomFilterReader.Result.Usable _ -> new FilterStatus.Usable();
            case SplitBlockBloomFilterReader.Result.Unusable unusable -> new FilterStatus.Unusable(unusable.reason());
        };
    }

    private static RowGroupColumn rowGroupColumn(FileFacts facts, FooterChunk chunk, FilterStatus status, SplitBlockBloomFilterReader.Result result, Optional<ColumnChunkMetadata> dictionaryChunk)
    {
        ColumnMetaData meta = chunk.metadata();
        String column = String.join(".", meta.getPath_in_schema());
        OptionalLong nullCount = meta.isSetStatistics() && meta.getStatistics().isSetNull_count() ? OptionalLong.of(meta.getStatistics().getNull_count()) : OptionalLong.empty();
        long nonNull = Math.max(0, meta.getNum_values() - nullCount.orElse(0));
        FilterMeasures measures = result instanceof SplitBlockBloomFilterReader.Result.Usable usable ? FilterMeasures.of(usable, nonNull) : FilterMeasures.NONE;
        boolean hasFilter = meta.isSetBloom_filter_offset();
        ChunkHealth health = new ChunkHealth(
                facts.path(),
                facts.partition(),
                chunk.rowGroup(),
                column,
                meta.getType().name(),
                logicalType(facts.schema(), meta.getPath_in_schema()),
                chunk.rowGroupMetadata().getNum_rows(),
                nullCount,
                hasFilter,
                status,
                measures.filterBytes(),
                measures.distinct(),
                measures.bitsPerValue(),
                measures.fpp(),
                facts.createdBy(),
                hasFilter ? Optional.of(position(meta.getBloom_filter_offset(), rowGroupEnd(chunk.rowGroupMetadata()), facts.dataEnd())) : Optional.empty(),
                meta.isSetBloom_filter_length(),
                dictionaryChunk.isPresent(),
                dictionaryChunk.map(ChunkDictionary::dictionaryPageBytes).orElse(OptionalLong.empty()));
        return new RowGroupColumn(health, nonNull, measures.filter(), Optional.ofNullable(facts.ranges().get(chunk.rowGroup() + "/" + column.toLowerCase(Locale.ROOT))));
    }

    /**
     * What a usable filter tells of its chunk.
     */
    private record FilterMeasures(Optional<SplitBlockBloomFilter> filter, OptionalLong filterBytes, OptionalDouble distinct, OptionalDouble bitsPerValue, OptionalDouble fpp)
    {
        static final FilterMeasures NONE = new FilterMeasures(Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());

        static FilterMeasures of(SplitBlockBloomFilterReader.Result.Usable usable, long nonNullValues)
        {
            // a header is under 32 bytes, the bitset a multiple of 32: the cache may hold the filter folded
            long bytes = usable.totalLength() / BYTES_PER_BLOCK * (long) BYTES_PER_BLOCK;
            double estimate = Math.min(nonNullValues, BloomFilterMath.estimateDistinctValues(usable.filter().bitsSet(), usable.filter().sizeInBytes() * 8L));
            return new FilterMeasures(
                    Optional.of(usable.filter()),
                    OptionalLong.of(bytes),
                    OptionalDouble.of(estimate),
                    estimate > 0 ? OptionalDouble.of(bytes * 8.0 / estimate) : OptionalDouble.empty(),
                    OptionalDouble.of(BloomFilterMath.falsePositiveProbability(bytes, Math.round(estimate))));
        }
    }

    private static long rowGroupEnd(RowGroup rowGroup)
    {
        long end = 0;
        for (ColumnChunk chunk : rowGroup.getColumns()) {
            if (!chunk.isSetMeta_data()) {
                continue;
            }
            ColumnMetaData meta = chunk.getMeta_data();
            long start = meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > 0 ? Math.min(meta.getDictionary_page_offset(), meta.getData_page_offset()) : meta.getData_page_offset();
            end = Math.max(end, start + meta.getTotal_compressed_size());
        }
        return end;
    }

    private static String position(long offset, long rowGroupEnd, long dataEnd)
    {
        if (offset >= dataEnd) {
            return "before footer";
        }
        if (offset >= rowGroupEnd) {
            return "after row group";
        }
        return "inside data";
    }

    private static Optional<String> logicalType(MessageType schema, List<String> path)
    {
        try {
            // trino-parquet's schema has the field names in lower case
            String[] lowerCase = path.stream().map(name -> name.toLowerCase(Locale.ROOT)).toArray(String[]::new);
            LogicalTypeAnnotation annotation = schema.getColumnDescription(lowerCase).getPrimitiveType().getLogicalTypeAnnotation();
            return Optional.ofNullable(annotation).map(LogicalTypeAnnotation::toString);
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Min/max of every chunk that has them, by "rowGroup/column": read with the column's own ordering (unsigned,
     * decimal, string), which is what min/max pruning compares with.
     */
    private static Map<String, Range> ranges(ParquetFileMetadata file)
    {
        List<BlockMetadata> blocks;
        try {
            blocks = file.blocks();
        }
        catch (Exception e) {
            return Map.of();
        }
        Map<String, Range> ranges = new HashMap<>();
        for (int ordinal = 0; ordinal < blocks.size(); ordinal++) {
            for (ColumnChunkMetadata chunk : blocks.get(ordinal).columns()) {
                try {
                    Statistics<?> statistics = chunk.getStatistics();
                    if (statistics == null || statistics.isEmpty() || !statistics.hasNonNullValue()) {
                        continue;
                    }
                    ranges.put(ordinal + "/" + chunk.getPath().toDotString().toLowerCase(Locale.ROOT),
                            new Range(chunk.getPrimitiveType().getPrimitiveTypeName().name(), statistics.comparator(), statistics.genericGetMin(), statistics.genericGetMax()));
                }
                catch (RuntimeException e) {
                    // statistics that cannot be read leave this chunk out of the clustering measure
                }
            }
        }
        return ranges;
    }

    public static Optional<String> partitionName(LakeTable table, LakeFile file)
    {
        if (table.partitionColumns().isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        file.partitionValues().forEach((column, value) -> parts.add(column + "=" + value.orElse(PartitionValues.HIVE_DEFAULT_PARTITION)));
        return Optional.of(String.join("/", parts));
    }

    /**
     * The running totals of one scan; files arrive from several threads.
     */
    private static final class Scan
    {
        private final boolean keepChunks;
        private final Map<String, Integer> filesLeft;
        private final List<ChunkHealth> chunks = new ArrayList<>();
        private final Map<String, ColumnAccumulator> columns = new LinkedHashMap<>();
        private final List<TableHealth.UnreadableFile> unreadable = new ArrayList<>();

        Scan(boolean keepChunks, Map<String, Integer> filesLeft)
        {
            this.keepChunks = keepChunks;
            this.filesLeft = new HashMap<>(filesLeft);
        }

        synchronized void add(LakeTable table, LakeFile file, FileResult result)
        {
            Optional<String> partition = partitionName(table, file);
            String partitionKey = partition.orElse("");
            switch (result) {
                case FileResult.Unreadable(String reason) -> unreadable.add(new TableHealth.UnreadableFile(file.object().location().toString(), partition, reason));
                case FileResult.Read(List<RowGroupColumn> rowGroupColumns) -> {
                    Map<String, Boolean> everyRowGroupFiltered = new LinkedHashMap<>();
                    for (RowGroupColumn rowGroupColumn : rowGroupColumns) {
                        ChunkHealth chunk = rowGroupColumn.chunk();
                        if (keepChunks) {
                            chunks.add(chunk);
                        }
                        String name = chunk.column().toLowerCase(Locale.ROOT);
                        ColumnAccumulator column = columns.computeIfAbsent(name, _ -> new ColumnAccumulator(chunk.column(), chunk.physicalType(), chunk.logicalType()));
                        column.addRowGroup(partitionKey, chunk, rowGroupColumn.nonNullValues(), rowGroupColumn.filter());
                        rowGroupColumn.range().ifPresent(range -> column.addRange(range.primitiveType(), range.comparator(), range.min(), range.max()));
                        // a chunk its dictionary prunes needs no filter (parquet-java and Trino write none there)
                        everyRowGroupFiltered.merge(name, chunk.hasFilter() || chunk.dictionaryEncoded(), Boolean::logicalAnd);
                    }
                    everyRowGroupFiltered.forEach((name, filtered) -> columns.get(name).addFile(filtered));
                }
            }
            if (filesLeft.merge(partitionKey, -1, Integer::sum) == 0) {
                columns.values().forEach(column -> column.finishPartition(partitionKey));
            }
        }

        synchronized TableHealth build(int files, long bytes)
        {
            List<ColumnHealth> summaries = columns.values().stream().map(column -> column.build(bytes)).toList();
            // files arrive in any order; a file's chunks arrive together, in row group and column order
            List<ChunkHealth> sorted = new ArrayList<>(chunks);
            sorted.sort(Comparator.comparing(ChunkHealth::file).thenComparingInt(ChunkHealth::rowGroup));
            List<TableHealth.UnreadableFile> failed = new ArrayList<>(unreadable);
            failed.sort(Comparator.comparing(TableHealth.UnreadableFile::file));
            return new TableHealth(files, bytes, sorted, summaries, failed);
        }
    }
}
