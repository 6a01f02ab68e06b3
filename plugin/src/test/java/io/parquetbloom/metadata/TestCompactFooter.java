package io.parquetbloom.metadata;

import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.column.EncodingStats;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The compact footer planning keeps reads, for the columns it covers, exactly as the file's footer does (row groups,
 * their starts and sizes, the chunks' statistics, encodings, dictionary and filter offsets, and what bounds each
 * filter), and is a fraction of the parsed footer's size.
 */
final class TestCompactFooter
{
    private static final SchemaTableName TABLE = new SchemaTableName("schema", "table");
    private static final Path EXTERNAL = Path.of(System.getProperty("parquetbloom.testdata",
            Path.of("..", "testdata", "parquet-testing", "data").toString()));

    @Test
    void compactFootersReadAsTheFilesFooter()
            throws IOException
    {
        List<byte[]> files = List.of(
                TestingParquetFiles.devices(4, 100),
                TestingParquetFiles.serials(3, 50),
                Files.readAllBytes(EXTERNAL.resolve("data_index_bloom_encoding_stats.parquet")),
                Files.readAllBytes(EXTERNAL.resolve("data_index_bloom_encoding_with_length.parquet")));
        for (byte[] bytes : files) {
            ParquetFileMetadata full = parse(bytes);
            Set<String> columns = topLevelColumns(full);
            assertThat(columns).isNotEmpty();
            for (String column : columns) {
                assertReadsAlike(full, CompactFooter.of(full, Set.of(column)).expand(full.object()), Set.of(column));
            }
            assertReadsAlike(full, CompactFooter.of(full, columns).expand(full.object()), columns);
            // no column constrained: row groups only
            assertReadsAlike(full, CompactFooter.of(full, Set.of()).expand(full.object()), Set.of());
        }
    }

    @Test
    void compactFooterCoversOnlyItsColumns()
    {
        ParquetFileMetadata full = parse(TestingParquetFiles.serials(3, 50));
        CompactFooter compact = CompactFooter.of(full, Set.of("serial"));
        assertThat(compact.covers(Set.of("serial"))).isTrue();
        assertThat(compact.covers(Set.of())).isTrue();
        assertThat(compact.covers(Set.of("serial", "num"))).isFalse();
        ParquetFileMetadata expanded = compact.expand(full.object());
        // the first chunk locates each row group; the other unconstrained columns are not kept
        assertThat(expanded.columnChunk(0, List.of("num"))).isEmpty();
        assertThat(expanded.columnChunk(0, List.of("fallback"))).isEmpty();
        assertThat(expanded.compacted()).isPresent();
        assertThat(expanded.tail()).isEmpty();
        assertThat(expanded.retainOnlyFooter()).isSameAs(expanded);
    }

    @Test
    void compactFooterIsAFractionOfTheParsedFooter()
    {
        ParquetFileMetadata full = parse(TestingParquetFiles.serials(8, 50));
        CompactFooter compact = CompactFooter.of(full, Set.of("serial"));
        // what the cache weighs a parsed footer at (FooterCache), against the compact form's retained bytes
        long parsedWeight = full.retainOnlyFooter().tail().length + 3L * full.footerLength() + 4096;
        assertThat(compact.retainedBytes() * 4).isLessThan(parsedWeight);
    }

    @Test
    void planningKeepsTheCompactFormAndReadsAgainOnlyForColumnsItLacks()
    {
        InMemoryObjectStore store = new InMemoryObjectStore(TestingParquetFiles.serials(3, 50));
        TestingMetadata metadata = TestingMetadata.create(store);
        ParquetMetadataReader reader = metadata.reader();
        S3ObjectInfo object = store.object();

        ParquetFileMetadata read = reader.footer(FooterRequest.forPruning(object, TABLE, 0, Set.of("serial"), Set.of("serial")), new ReadStats());
        assertThat(store.gets()).isEqualTo(1);
        // read now: the whole footer and its tail, for this pruning
        assertThat(read.compacted()).isEmpty();
        assertThat(metadata.budget().getCompactFooterEntries()).isEqualTo(1);
        assertThat(metadata.budget().getFooterEntries()).isEqualTo(1);

        MetadataCacheStats cacheStats = new MetadataCacheStats();
        ParquetFileMetadata cached = reader.footer(FooterRequest.forPruning(object, TABLE, 0, Set.of(), Set.of("serial")), new ReadStats(new S3RequestStats(), cacheStats));
        assertThat(store.gets()).isEqualTo(1);
        assertThat(cached.compacted()).isPresent();
        assertThat(cacheStats.footerHits()).isEqualTo(1);

        // another column: read again, then both are covered
        reader.footer(FooterRequest.forPruning(object, TABLE, 0, Set.of(), Set.of("serial", "num")), new ReadStats());
        assertThat(store.gets()).isEqualTo(2);
        assertThat(reader.footer(FooterRequest.forPruning(object, TABLE, 0, Set.of(), Set.of("num")), new ReadStats()).compacted().orElseThrow().columns()).containsExactlyInAnyOrder("serial", "num");
        assertThat(store.gets()).isEqualTo(2);

        // a split's reader of columns the compact form holds reads with it
        assertThat(reader.footer(FooterRequest.forReading(object, TABLE, 0, Set.of("serial"), Set.of("serial", "num")), new ReadStats()).compacted()).isPresent();
        assertThat(store.gets()).isEqualTo(2);
        // one reading another column needs the whole footer: read once more, then kept
        assertThat(reader.footer(FooterRequest.forReading(object, TABLE, 0, Set.of("serial"), Set.of("serial", "fallback")), new ReadStats()).compacted()).isEmpty();
        assertThat(store.gets()).isEqualTo(3);
        assertThat(reader.footer(FooterRequest.forReading(object, TABLE, 0, Set.of("serial"), Set.of("serial", "fallback")), new ReadStats()).compacted()).isEmpty();
        assertThat(store.gets()).isEqualTo(3);
        // the compact form still serves where it holds the columns
        assertThat(reader.footer(FooterRequest.forReading(object, TABLE, 0, Set.of("serial"), Set.of("serial")), new ReadStats()).compacted()).isPresent();
        // with the whole footer cached, planning uses it
        assertThat(reader.footer(FooterRequest.forPruning(object, TABLE, 0, Set.of(), Set.of("fallback")), new ReadStats()).compacted()).isEmpty();
        assertThat(store.gets()).isEqualTo(3);
    }

    @Test
    void planningKeepsTheFooterForTheReaderOnlyWhenAsked()
    {
        InMemoryObjectStore store = new InMemoryObjectStore(TestingParquetFiles.serials(3, 50));
        TestingMetadata metadata = TestingMetadata.create(store);
        ParquetFileMetadata read = metadata.reader().footer(FooterRequest.forPruning(store.object(), TABLE, 0, Set.of(), Set.of("serial")), new ReadStats());
        metadata.reader().keepForReading(read);
        metadata.reader().footer(FooterRequest.forReading(store.object(), TABLE, 0, Set.of("serial"), Set.of("serial", "num", "fallback")), new ReadStats());
        assertThat(store.gets()).isEqualTo(1);
        // a compact footer is never handed to a reader
        ParquetFileMetadata compact = CompactFooter.of(read, Set.of("serial")).expand(store.object());
        TestingMetadata other = TestingMetadata.create(store);
        other.reader().keepForReading(compact);
        assertThat(other.budget().getFooterEntries()).isZero();
        assertThatThrownBy(() -> new FooterCache(other.budget()).putIfAbsent(FileKey.of(store.object()), compact))
                .hasMessageContaining("a compact footer is not a whole one");
    }

    private static void assertReadsAlike(ParquetFileMetadata full, ParquetFileMetadata compact, Set<String> columns)
            throws IOException
    {
        List<BlockMetadata> fullBlocks = full.blocks();
        List<BlockMetadata> compactBlocks = compact.blocks();
        assertThat(compactBlocks).hasSameSizeAs(fullBlocks);
        assertThat(compact.footerStart()).isEqualTo(full.footerStart());
        assertThat(compact.metadata().getFileMetaData().getSchema()).isEqualTo(full.metadata().getFileMetaData().getSchema());
        for (int ordinal = 0; ordinal < fullBlocks.size(); ordinal++) {
            BlockMetadata fullBlock = fullBlocks.get(ordinal);
            BlockMetadata compactBlock = compactBlocks.get(ordinal);
            assertThat(compactBlock.rowCount()).isEqualTo(fullBlock.rowCount());
            assertThat(compactBlock.fileRowCountOffset()).isEqualTo(fullBlock.fileRowCountOffset());
            assertThat(compactBlock.columns().getFirst().getStartingPos()).isEqualTo(fullBlock.columns().getFirst().getStartingPos());
            assertThat(compact.compressedSize(ordinal)).isEqualTo(full.compressedSize(ordinal)).isPositive();
            Map<List<String>, ColumnChunkMetadata> fullChunks = full.columnChunks(ordinal);
            for (Map.Entry<List<String>, ColumnChunkMetadata> entry : fullChunks.entrySet()) {
                if (!columns.contains(entry.getKey().getFirst())) {
                    continue;
                }
                BloomFilterKey key = new BloomFilterKey(ordinal, entry.getKey());
                ColumnChunkMetadata expected = entry.getValue();
                ColumnChunkMetadata actual = compact.columnChunk(ordinal, entry.getKey()).orElseThrow();
                assertThat(actual.getStatistics()).isEqualTo(expected.getStatistics());
                assertThat(actual.getEncodings()).isEqualTo(expected.getEncodings());
                assertThat(describe(actual.getEncodingStats())).isEqualTo(describe(expected.getEncodingStats()));
                assertThat(actual.getDictionaryPageOffset()).isEqualTo(expected.getDictionaryPageOffset());
                assertThat(actual.getFirstDataPageOffset()).isEqualTo(expected.getFirstDataPageOffset());
                assertThat(actual.getTotalSize()).isEqualTo(expected.getTotalSize());
                assertThat(actual.getValueCount()).isEqualTo(expected.getValueCount());
                assertThat(actual.getCodec()).isEqualTo(expected.getCodec());
                assertThat(actual.getPrimitiveType()).isEqualTo(expected.getPrimitiveType());
                assertThat(compact.valueCount(key)).isEqualTo(full.valueCount(key));
                long filterOffset = expected.getBloomFilterOffset();
                assertThat(actual.getBloomFilterOffset()).isEqualTo(filterOffset);
                if (filterOffset >= 4) {
                    // what bounds a filter without a declared length: the same next structure in both forms (0 is
                    // no filter, and an offset inside the magic is unusable in both)
                    assertThat(compact.structureStarts().higherEntry(filterOffset)).isEqualTo(full.structureStarts().higherEntry(filterOffset));
                }
            }
        }
    }

    private static String describe(EncodingStats stats)
    {
        if (stats == null) {
            return "none";
        }
        StringBuilder text = new StringBuilder(stats.usesV2Pages() ? "v2" : "v1");
        stats.getDictionaryEncodings().forEach(encoding -> text.append(" dictionary ").append(encoding).append('=').append(stats.getNumDictionaryPagesEncodedAs(encoding)));
        stats.getDataEncodings().forEach(encoding -> text.append(" data ").append(encoding).append('=').append(stats.getNumDataPagesEncodedAs(encoding)));
        return text.toString();
    }

    private static Set<String> topLevelColumns(ParquetFileMetadata file)
    {
        Set<String> columns = new TreeSet<>();
        file.metadata().getFileMetaData().getSchema().getFields().forEach(field -> columns.add(field.getName().toLowerCase(Locale.ROOT)));
        return columns;
    }

    private static ParquetFileMetadata parse(byte[] bytes)
    {
        InMemoryObjectStore store = new InMemoryObjectStore(bytes);
        S3ObjectInfo object = store.object();
        return FooterReader.readFooter(store, object, bytes.length, new S3RequestStats());
    }
}
