package io.parquetbloom.keyindex;

import com.google.inject.Inject;
import io.airlift.concurrent.BoundedExecutor;
import io.airlift.log.Logger;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.metadata.ChunkDictionary;
import io.parquetbloom.metadata.ChunkPages;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.OffsetIndexLoader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.base.Preconditions.checkArgument;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_KEY_INDEX_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * Writes one segment of a column's key index: reads the given files' footers and key column chunks
 * ({@code metadata.concurrency} files at a time) through {@link KeyColumnReader}, so each value is hashed as a query
 * reads it, sorts the entries in bounded memory (spilling to {@code key-index.spill-directory}) and uploads the
 * segment under a new name. It reads only the files it is given and publishes nothing: the build decides which files
 * a segment covers, and publishes it.
 */
public class SegmentBuilder
{
    private static final Logger log = Logger.get(SegmentBuilder.class);
    private static final long PROGRESS_INTERVAL_NANOS = 10_000_000_000L;

    /**
     * A segment uploaded, which no pointer names yet.
     *
     * @param notIndexed files read but left out (a value without an exact hash, a column stored as another type)
     */
    public record NewSegment(KeyIndexPointer.Segment reference, int notIndexed) {}

    private final ParquetMetadataReader metadataReader;
    private final FileColumnResolver resolver;
    private final KeyColumnReader reader;
    private final S3ObjectStore store;
    private final KeyIndexConfig config;
    private final int concurrency;
    private final ExecutorService executor;
    private final KeyIndexBuildStats buildStats;
    private final OffsetIndexLoader offsetIndexes;

    @Inject
    public SegmentBuilder(
            ParquetMetadataReader metadataReader,
            FileColumnResolver resolver,
            KeyColumnReader reader,
            S3ObjectStore store,
            KeyIndexConfig config,
            MetadataConfig metadataConfig,
            @ForParquetBloomMetadata ExecutorService executor,
            KeyIndexBuildStats buildStats,
            OffsetIndexLoader offsetIndexes)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.store = requireNonNull(store, "store is null");
        this.config = requireNonNull(config, "config is null");
        this.concurrency = metadataConfig.getMetadataConcurrency();
        this.executor = requireNonNull(executor, "executor is null");
        this.buildStats = requireNonNull(buildStats, "buildStats is null");
        this.offsetIndexes = requireNonNull(offsetIndexes, "offsetIndexes is null");
    }

    /**
     * @param keyPages per row group, the key column's pages by its offset index, where the index is usable and
     * tells more than one page apart
     */
    private record FileFooter(LakeFile file, long[] rowCounts, long[] compressedSizes, Optional<Type> field, boolean readable, List<Optional<ChunkPages>> keyPages)
    {
        static FileFooter of(LakeFile file, ParquetFileMetadata metadata, Optional<Type> field, boolean readable, Map<Integer, ChunkPages> keyPages)
                throws IOException
        {
            int rowGroups = metadata.blocks().size();
            long[] rowCounts = new long[rowGroups];
            long[] sizes = new long[rowGroups];
            List<Optional<ChunkPages>> pages = new ArrayList<>();
            for (int rowGroup = 0; rowGroup < rowGroups; rowGroup++) {
                rowCounts[rowGroup] = metadata.blocks().get(rowGroup).rowCount();
                sizes[rowGroup] = metadata.compressedSize(rowGroup);
                pages.add(Optional.ofNullable(keyPages.get(rowGroup)).filter(chunkPages -> chunkPages.getPageCount() > 1));
            }
            return new FileFooter(file, rowCounts, sizes, field, readable, pages);
        }

        int rowGroups()
        {
            return rowCounts.length;
        }

        /**
         * Per row group, the slots its entries name: one per key page, or one for the row group.
         */
        int[] slots()
        {
            return keyPages.stream().mapToInt(pages -> pages.map(ChunkPages::getPageCount).orElse(1)).toArray();
        }
    }

    /**
     * What a segment is written as.
     *
     * @param name the segment's object name: new for each build (a build's split writes under a name its retries
     * share)
     * @param knownType the index's Parquet type where segments exist or the build chose one: segments of one index
     * hash in one type, so compaction can merge them
     * @param indexedEntries the entries of the segments the build keeps
     * @param segmentsInBuild how many segments the build writes, of files of about equal size: the hash keeps as many
     * bits as the whole index needs, so merging never cuts it shorter than a lookup of the whole table wants
     */
    public record SegmentSpec(String name, Optional<String> knownType, long indexedEntries, int segmentsInBuild)
    {
        public SegmentSpec
        {
            requireNonNull(name, "name is null");
            requireNonNull(knownType, "knownType is null");
            checkArgument(segmentsInBuild >= 1, "segmentsInBuild must be at least 1");
        }

        public static String newName()
        {
            return KeyIndexFormat.segmentName(UUID.randomUUID().toString());
        }
    }

    /**
     * Reads, hashes and uploads the files' entries of the column to {@code indexes}.
     */
    public NewSegment write(SchemaTableName table, S3Location indexes, TableSchemaReader.DataColumn column, List<LakeFile> files, SegmentSpec spec, BuildCancellation cancellation, S3RequestStats stats)
    {
        long start = System.nanoTime();
        List<FileFooter> footers = readFooters(table, column, files, cancellation, stats);
        PrimitiveType indexType = indexType(table, column, footers, spec.knownType());
        long slots = footers.stream().flatMapToInt(footer -> Arrays.stream(footer.slots())).asLongStream().sum();
        long rows = footers.stream().flatMapToLong(footer -> Arrays.stream(footer.rowCounts())).sum();
        int rowGroupBits = KeyIndexFormat.rowGroupBits(slots);
        int hashBits = KeyIndexFormat.hashBits(rows * spec.segmentsInBuild() + spec.indexedEntries(), rowGroupBits);
        Path directory = spillDirectory();
        // half the build memory sorts entries, half holds the row groups being hashed
        try (EntrySorter sorter = new EntrySorter(config.getBuildMemory().toBytes() / 2, directory)) {
            List<IndexedFile> indexed = hashFiles(table, column, footers, indexType, rowGroupBits, hashBits, sorter, cancellation, stats);
            Path segmentFile = Files.createTempFile(directory, "key-index-", KeyIndexFormat.SEGMENT_SUFFIX);
            try {
                SegmentHeader header = new SegmentHeader(KeyIndexLocations.indexedColumn(column), column.type().getDisplayName(), indexType.toString(), hashBits, rowGroupBits, System.currentTimeMillis(), (System.nanoTime() - start) / 1_000_000);
                KeyIndexWriter.WrittenSegment written = KeyIndexWriter.write(segmentFile, header, indexed, sorter.sorted());
                cancellation.check();
                String name = spec.name();
                S3Location location = KeyIndexLocations.segment(indexes, KeyIndexLocations.indexedColumn(column), name);
                // a name of this build: nothing to be conditional on (an SDK retry of a PUT that landed, or a retried
                // split, must not fail the build)
                String etag = store.write(location, segmentFile, new S3ObjectStore.PutCondition.None(), config.getUploadPartSize().toBytes(), stats).orElseThrow();
                int notIndexed = (int) indexed.stream().filter(file -> !file.indexed()).count();
                buildStats.filesUnindexable(notIndexed);
                if (sorter.runs() > 0) {
                    buildStats.spilled();
                }
                if (written.size() > config.getUploadPartSize().toBytes()) {
                    buildStats.multipartUpload();
                }
                log.info("Key index of %s.%s: segment %s written: %d entries, %d bytes (%.2f bytes per entry), %d pages, %d bytes spilled", table, column.name(), name, written.entries(), written.size(), written.entries() == 0 ? 0.0 : (double) written.size() / written.entries(), written.pages(), sorter.spilledBytes());
                return new NewSegment(new KeyIndexPointer.Segment(name, written.size(), etag, written.trailerBytes(), indexed.size(), written.entries(), header.builtAtMillis(), (System.nanoTime() - start) / 1_000_000), notIndexed);
            }
            finally {
                Files.deleteIfExists(segmentFile);
            }
        }
        catch (IOException | UncheckedIOException e) {
            // the sorter's runs and the segment file: a full or vanished spill directory
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot build the key index of %s.%s in key-index.spill-directory %s: %s".formatted(table, column.name(), directory, e.getMessage()), e);
        }
    }

    /**
     * The Parquet type a new index of the column hashes in, as a build of these files on one node chooses it: the
     * type of the first file (in order) that stores the column readably. The coordinator of a build by the cluster
     * chooses it so, so that every node's segment hashes in one type.
     */
    public String indexTypeOf(SchemaTableName table, TableSchemaReader.DataColumn column, List<LakeFile> files, BuildCancellation cancellation, S3RequestStats stats)
    {
        for (LakeFile file : files) {
            FileFooter footer;
            try {
                footer = readFooter(table, column, file, false, cancellation, stats);
            }
            catch (IOException e) {
                throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot read the footer of %s: %s".formatted(file.object().location(), e.getMessage()), e);
            }
            if (footer.readable() && footer.field().isPresent()) {
                return indexType(table, column, List.of(footer), Optional.empty()).toString();
            }
        }
        return indexType(table, column, List.of(), Optional.empty()).toString();
    }

    private List<FileFooter> readFooters(SchemaTableName table, TableSchemaReader.DataColumn column, List<LakeFile> files, BuildCancellation cancellation, S3RequestStats stats)
    {
        List<Callable<FileFooter>> reads = new ArrayList<>();
        for (LakeFile file : files) {
            reads.add(() -> readFooter(table, column, file, true, cancellation, stats));
        }
        return ParallelTasks.runAll(reads, new BoundedExecutor(executor, concurrency));
    }

    /**
     * @param withKeyPages whether the key column's pages are found too (by the offset indexes, a GET more)
     */
    private FileFooter readFooter(SchemaTableName table, TableSchemaReader.DataColumn column, LakeFile file, boolean withKeyPages, BuildCancellation cancellation, S3RequestStats stats)
            throws IOException
    {
        cancellation.check();
        ParquetFileMetadata metadata = metadataReader.footer(FooterRequest.footer(file.object(), table), new ReadStats(stats, new MetadataCacheStats()));
        return switch (resolver.resolve(column.name(), column.fieldId(), column.mappedNames(), column.type(), metadata.metadata().getFileMetaData().getSchema())) {
            case FileColumnResolver.Resolution.Match(Type field) -> FileFooter.of(file, metadata, Optional.of(field), field.isPrimitive(), withKeyPages ? keyPages(metadata, field, stats) : Map.of());
            // the reader gives NULL for every row: no key can match, nothing to index; unless a table format
            // fills it with the file's identity partition value (a migrated file): left to the per-file path
            case FileColumnResolver.Resolution.Missing _ -> FileFooter.of(file, metadata, Optional.empty(), !file.partitionValues().containsKey(column.name()), Map.of());
            // a query fails on this file; the index leaves it to the per-file path, which reports it
            // values converted after reading (a widened type): hashed as the file stores them they would not be
            // the table's; left to the per-file path, which reads and converts them
            case FileColumnResolver.Resolution.Widened _ -> FileFooter.of(file, metadata, Optional.empty(), false, Map.of());
            case FileColumnResolver.Resolution.Mismatch _ -> FileFooter.of(file, metadata, Optional.empty(), false, Map.of());
        };
    }

    /**
     * The key column's pages in each row group, by its offset indexes (one GET for the file, or none where they came
     * with the footer): entries then name the page a key is in, and a lookup reads that page only. A chunk entirely
     * dictionary-encoded is indexed from its dictionary page alone and by row group: its data pages are small, and
     * reading them at every build would cost more than a lookup saves.
     */
    private Map<Integer, ChunkPages> keyPages(ParquetFileMetadata metadata, Type field, S3RequestStats stats)
            throws IOException
    {
        if (!field.isPrimitive()) {
            return Map.of();
        }
        List<OffsetIndexLoader.Chunk> chunks = new ArrayList<>();
        List<BlockMetadata> blocks = metadata.blocks();
        for (int rowGroup = 0; rowGroup < blocks.size(); rowGroup++) {
            long rows = blocks.get(rowGroup).rowCount();
            int ordinal = rowGroup;
            metadata.columnChunk(rowGroup, List.of(field.getName()))
                    .filter(chunk -> !ChunkDictionary.entirelyDictionaryEncoded(chunk))
                    .ifPresent(chunk -> chunks.add(new OffsetIndexLoader.Chunk(ordinal, chunk, rows)));
        }
        Map<Integer, ChunkPages> pages = new HashMap<>();
        offsetIndexes.load(metadata, chunks, new ReadStats(stats, new MetadataCacheStats())).pages().forEach((chunk, chunkPages) -> pages.put(chunk.rowGroup(), chunkPages));
        return pages;
    }

    private static PrimitiveType indexType(SchemaTableName table, TableSchemaReader.DataColumn column, List<FileFooter> footers, Optional<String> knownType)
    {
        if (knownType.isPresent()) {
            try {
                return KeyIndexReader.parquetType(knownType.get());
            }
            catch (KeyIndexUnusableException e) {
                throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Key index of %s.%s: %s".formatted(table, column.name(), e.getMessage()), e);
            }
        }
        return footers.stream()
                .filter(FileFooter::readable)
                .flatMap(footer -> footer.field().stream())
                .map(Type::asPrimitiveType)
                .findFirst()
                .orElseThrow(() -> new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Column %s of %s is not a primitive column of any file to index: a key index holds values of primitive columns".formatted(column.name(), table)));
    }

    private List<IndexedFile> hashFiles(SchemaTableName table, TableSchemaReader.DataColumn column, List<FileFooter> footers, PrimitiveType indexType, int rowGroupBits, int hashBits, EntrySorter sorter, BuildCancellation cancellation, S3RequestStats stats)
    {
        KeyColumnHasher hasher = new KeyColumnHasher(reader, metadataReader, resolver, table, column, indexType, stats);
        Progress progress = new Progress(table, column.name(), footers.size());
        // row groups being hashed hold their values' hashes and a reader's buffers: at most half the build memory
        InFlightMemory inFlight = new InFlightMemory(config.getBuildMemory().toBytes() / 2);
        List<Callable<IndexedFile>> tasks = new ArrayList<>();
        long base = 0;
        for (FileFooter footer : footers) {
            long fileBase = base;
            base += Arrays.stream(footer.slots()).asLongStream().sum();
            tasks.add(() -> {
                IndexedFile file = hashFile(table, footer, hasher, fileBase, rowGroupBits, hashBits, sorter, inFlight, cancellation);
                progress.fileDone(file);
                return file;
            });
        }
        List<IndexedFile> files = ParallelTasks.runAll(tasks, new BoundedExecutor(executor, concurrency));
        log.info("Key index of %s.%s: %d row groups answered by their dictionary page alone", table, column.name(), hasher.rowGroupsFromDictionaries());
        return files;
    }

    private static IndexedFile hashFile(SchemaTableName table, FileFooter footer, KeyColumnHasher hasher, long base, int rowGroupBits, int hashBits, EntrySorter sorter, InFlightMemory inFlight, BuildCancellation cancellation)
            throws IOException, InterruptedException
    {
        S3ObjectInfo object = footer.file().object();
        int rowGroups = footer.rowGroups();
        // without an ETag a rewrite of the same size would look covered: such a file is never indexed (a table format's
        // files are never rewritten at their path: the path and size are the version)
        boolean indexed = footer.readable() && object.identifiesVersion();
        for (int rowGroup = 0; indexed && footer.field().isPresent() && rowGroup < rowGroups; rowGroup++) {
            cancellation.check();
            Optional<KeyColumnHasher.PagedHashes> hashes;
            long bytes = InFlightMemory.estimate(footer.rowCounts()[rowGroup]);
            inFlight.acquire(bytes);
            try {
                hashes = hasher.hashes(object, rowGroup, footer.keyPages().get(rowGroup));
            }
            finally {
                inFlight.release(bytes);
            }
            if (hashes.isEmpty()) {
                indexed = false;
                break;
            }
            long[] entries = hashes.get().hashes();
            int[] pages = hashes.get().pages();
            long rowGroupSlot = base + slotOf(footer, rowGroup);
            for (int i = 0; i < entries.length; i++) {
                entries[i] = KeyIndexFormat.pack(KeyIndexFormat.truncate(entries[i], hashBits), rowGroupBits, rowGroupSlot + pages[i]);
            }
            try {
                sorter.add(entries, entries.length);
            }
            catch (IOException e) {
                throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot spill the key index build of %s.%s to key-index.spill-directory %s: %s".formatted(table, hasher.columnName(), sorter.spillDirectory(), e.getMessage()), e);
            }
        }
        return new IndexedFile(footer.file().relativePath(), object.size(), object.etag(), indexed, footer.rowCounts(), footer.compressedSizes(), footer.slots());
    }

    private static long slotOf(FileFooter footer, int rowGroup)
    {
        int[] slots = footer.slots();
        long slot = 0;
        for (int i = 0; i < rowGroup; i++) {
            slot += slots[i];
        }
        return slot;
    }

    private Path spillDirectory()
    {
        Path directory = Path.of(config.getSpillDirectory().orElse(System.getProperty("java.io.tmpdir")));
        try {
            return Files.createDirectories(directory);
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot create key-index.spill-directory %s: %s".formatted(directory, e.getMessage()), e);
        }
    }

    /**
     * A byte budget for row groups being hashed at once, on top of the files' concurrency: 128 row groups of 250,000
     * keys would hold about 1 GB of hashes and buffers.
     */
    private static final class InFlightMemory
    {
        // a reader's buffers (pages, decompression) beside the values' hashes
        private static final long READER_BYTES = 1L << 20;

        private final Semaphore kilobytes;
        private final int total;

        InFlightMemory(long bytes)
        {
            this.total = (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes >> 10));
            this.kilobytes = new Semaphore(total);
        }

        static long estimate(long rows)
        {
            // a hash and its key page per row, twice while the distinct ones are sorted out
            return rows * 2 * (Long.BYTES + Integer.BYTES) + READER_BYTES;
        }

        void acquire(long bytes)
                throws InterruptedException
        {
            kilobytes.acquire(permits(bytes));
        }

        void release(long bytes)
        {
            kilobytes.release(permits(bytes));
        }

        private int permits(long bytes)
        {
            // one row group larger than the whole budget still runs, alone
            return (int) Math.min(total, Math.max(1, bytes >> 10));
        }
    }

    private static final class Progress
    {
        private final SchemaTableName table;
        private final String column;
        private final int files;
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicLong lastReport = new AtomicLong(System.nanoTime());

        Progress(SchemaTableName table, String column, int files)
        {
            this.table = table;
            this.column = column;
            this.files = files;
        }

        void fileDone(IndexedFile file)
        {
            int count = done.incrementAndGet();
            long now = System.nanoTime();
            long last = lastReport.get();
            if ((now - last > PROGRESS_INTERVAL_NANOS && lastReport.compareAndSet(last, now)) || count == files) {
                log.info("Key index of %s.%s: %d of %d files read", table, column, count, files);
            }
        }
    }
}
