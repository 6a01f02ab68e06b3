package io.parquetbloom.keyindex;

import io.parquetbloom.hash.ParquetValueHasher;
import io.parquetbloom.hash.ValueHash;
import io.parquetbloom.metadata.BloomFilterKey;
import io.parquetbloom.metadata.ChunkDictionary;
import io.parquetbloom.metadata.ChunkPages;
import io.parquetbloom.metadata.DictionaryRequest;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.LoadedDictionaries;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.IntegerStatistics;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_KEY_INDEX_ERROR;
import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * The hashes of a row group's key values: from the chunk's dictionary page alone where the chunk is entirely
 * dictionary-encoded in the index's Parquet type; otherwise from the key column read by the connector's own reader
 * ({@link KeyColumnReader}, so every value is exactly what a query reads), each distinct non-null value hashed as a bloom filter of the
 * index's Parquet type would hash it. Either way the same rule hashes a lookup's literal, so the literal finds the
 * entry.
 */
final class KeyColumnHasher
{
    private final KeyColumnReader reader;
    private final SchemaTableName table;
    private final TableSchemaReader.DataColumn column;
    private final PrimitiveType indexType;
    private final ParquetMetadataReader metadataReader;
    private final FileColumnResolver resolver;
    private final S3RequestStats requests;
    private final AtomicLong rowGroupsFromDictionaries = new AtomicLong();

    KeyColumnHasher(KeyColumnReader reader, ParquetMetadataReader metadataReader, FileColumnResolver resolver, SchemaTableName table, TableSchemaReader.DataColumn column, PrimitiveType indexType, S3RequestStats requests)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.requests = requireNonNull(requests, "requests is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.table = requireNonNull(table, "table is null");
        this.column = requireNonNull(column, "column is null");
        this.indexType = requireNonNull(indexType, "indexType is null");
    }

    // a dictionary of more entries than this is read as values instead; trino-parquet's page reader bounds pages anyway
    private static final int MAX_DICTIONARY_ENTRIES = 1_000_000;

    /**
     * A row group's distinct (hash, key page) pairs: {@code pages[i]} is the page of {@code hashes[i]}, 0 where the
     * row group's pages are not told apart.
     */
    record PagedHashes(long[] hashes, int[] pages)
    {
        static PagedHashes unpaged(long[] hashes)
        {
            return new PagedHashes(hashes, new int[hashes.length]);
        }
    }

    /**
     * The distinct hashes of the row group's values, with the key page of each where {@code keyPages} locates them
     * (a value in two pages twice); empty when a value has no exact hash for the index's type (NaN, signed zero, a
     * value the type cannot hold), which leaves the file out of the index.
     */
    Optional<PagedHashes> hashes(S3ObjectInfo object, int rowGroup, Optional<ChunkPages> keyPages)
    {
        if (keyPages.isEmpty()) {
            // a dictionary tells no pages: taken only where the row group's pages are not told apart anyway
            Optional<long[]> dictionary = dictionaryHashes(object, rowGroup);
            if (dictionary.isPresent()) {
                return dictionary.map(PagedHashes::unpaged);
            }
        }
        return valueHashes(object, rowGroup, keyPages);
    }

    /**
     * The hashes of the chunk's dictionary entries, reading only its dictionary page, where that is exact: the chunk
     * is entirely dictionary-encoded (so it holds only entries of its dictionary) and stored in the index's own
     * Parquet type, whose entries are then hashed just as a writer hashes them into a bloom filter, and just as a
     * lookup's literal is hashed; empty otherwise, and the chunk is read.
     */
    private Optional<long[]> dictionaryHashes(S3ObjectInfo object, int rowGroup)
    {
        ReadStats stats = new ReadStats(requests, new MetadataCacheStats());
        ParquetFileMetadata file = metadataReader.footer(FooterRequest.footer(object, table), stats);
        Optional<Type> field = fileField(file);
        // a dictionary holds values as stored: where a value has several encodings, only the values read are canonical
        if (field.isEmpty() || !field.get().isPrimitive() || !field.get().asPrimitiveType().equals(indexType) || !ParquetValueHasher.storedInOneEncoding(column.type(), indexType)) {
            return Optional.empty();
        }
        List<String> path = List.of(field.get().getName());
        Optional<ColumnChunkMetadata> chunk = file.columnChunk(rowGroup, path);
        if (chunk.isEmpty() || !ChunkDictionary.entirelyDictionaryEncoded(chunk.get()) || !IntegerStatistics.storedValuesInReadRange(indexType, chunk.get().getStatistics())) {
            return Optional.empty();
        }
        PrimitiveType type = field.get().asPrimitiveType();
        ColumnDescriptor descriptor = new ColumnDescriptor(path.toArray(String[]::new), type, 0, type.isRepetition(Type.Repetition.REQUIRED) ? 0 : 1);
        BloomFilterKey key = new BloomFilterKey(rowGroup, path);
        LoadedDictionaries loaded = metadataReader.dictionaries(file, List.of(new DictionaryRequest(key, chunk.get(), descriptor)), MAX_DICTIONARY_ENTRIES, false, stats);
        if (loaded.results().get(key) instanceof ChunkDictionary.Result.Usable(ChunkDictionary dictionary)) {
            rowGroupsFromDictionaries.incrementAndGet();
            return Optional.of(dictionary.hashes());
        }
        return Optional.empty();
    }

    private Optional<Type> fileField(ParquetFileMetadata file)
    {
        return switch (resolver.resolve(column.name(), column.fieldId(), column.mappedNames(), column.type(), file.metadata().getFileMetaData().getSchema())) {
            case FileColumnResolver.Resolution.Match(Type field) -> Optional.of(field);
            case FileColumnResolver.Resolution.Missing _, FileColumnResolver.Resolution.Mismatch _, FileColumnResolver.Resolution.Widened _ -> Optional.empty();
        };
    }

    String columnName()
    {
        return column.name();
    }

    /**
     * Row groups whose hashes came from their dictionary page alone.
     */
    long rowGroupsFromDictionaries()
    {
        return rowGroupsFromDictionaries.get();
    }

    /**
     * The values as the reader returns them, in row order: each row's key page is the page holding its position.
     */
    private Optional<PagedHashes> valueHashes(S3ObjectInfo object, int rowGroup, Optional<ChunkPages> keyPages)
    {
        io.trino.spi.type.Type type = column.type();
        PageHashes collected = new PageHashes();
        long row = 0;
        try (ConnectorPageSource source = reader.readRowGroup(object, table, column, rowGroup, requests)) {
            while (!source.isFinished()) {
                SourcePage page = source.getNextSourcePage();
                if (page == null) {
                    continue;
                }
                Block block = page.getBlock(0);
                for (int position = 0; position < block.getPositionCount(); position++, row++) {
                    if (block.isNull(position)) {
                        continue;
                    }
                    if (!(ParquetValueHasher.hash(type, readNativeValue(type, block, position), indexType) instanceof ValueHash.Hashes found)) {
                        return Optional.empty();
                    }
                    long at = row;
                    // one entry per value, however many encodings a file may store it in: lookups probe the same one
                    collected.add(keyPages.map(pages -> pages.pageOf(at)).orElse(0), found.canonical());
                }
            }
        }
        catch (IOException e) {
            // closing the page source: a read failure, not the spill's
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Cannot read column %s of %s: %s".formatted(column.name(), object.location(), e.getMessage()), e);
        }
        return Optional.of(collected.finish());
    }

    /**
     * Hashes collected page by page (rows come in order, so pages do), each page's made distinct when it ends.
     */
    private static final class PageHashes
    {
        private long[] hashes = new long[1024];
        private int[] pages = new int[1024];
        private int count;
        // where the current page's hashes start
        private int pageStart;
        private int currentPage = -1;

        void add(int page, long hash)
        {
            if (page != currentPage) {
                endPage();
                currentPage = page;
            }
            if (count == hashes.length) {
                count = pageStart + distinct(hashes, pageStart, count);
                if (count > hashes.length / 2) {
                    hashes = Arrays.copyOf(hashes, hashes.length * 2);
                    pages = Arrays.copyOf(pages, pages.length * 2);
                }
            }
            pages[count] = page;
            hashes[count++] = hash;
        }

        private void endPage()
        {
            count = pageStart + distinct(hashes, pageStart, count);
            pageStart = count;
        }

        PagedHashes finish()
        {
            endPage();
            return new PagedHashes(Arrays.copyOf(hashes, count), Arrays.copyOf(pages, count));
        }
    }

    /**
     * Sorts {@code values[from, to)} and moves its distinct values to its start: how many there are.
     */
    private static int distinct(long[] values, int from, int to)
    {
        Arrays.sort(values, from, to);
        int distinct = 0;
        for (int i = from; i < to; i++) {
            if (distinct == 0 || values[i] != values[from + distinct - 1]) {
                values[from + distinct++] = values[i];
            }
        }
        return distinct;
    }
}
