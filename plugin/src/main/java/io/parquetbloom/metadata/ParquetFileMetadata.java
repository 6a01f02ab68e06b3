package io.parquetbloom.metadata;

import com.google.common.base.Suppliers;
import io.airlift.slice.Slices;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.RowGroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A file's parsed footer plus the raw tail bytes it came from: writers such as Trino place the bloom filters right
 * before the footer, so they are often already in the tail and cost no further GET.
 *
 * @param tailStart file offset of {@code tail[0]}
 * @param compacted set when this is the {@link CompactFooter} form planning keeps: its footer holds only some
 * columns' chunks, and the tail is empty
 */
public record ParquetFileMetadata(S3ObjectInfo object, ParquetMetadata metadata, long tailStart, byte[] tail, Supplier<List<BlockMetadata>> blocksSupplier, Optional<CompactFooter> compacted)
{
    public ParquetFileMetadata
    {
        requireNonNull(object, "object is null");
        requireNonNull(metadata, "metadata is null");
        requireNonNull(tail, "tail is null");
        requireNonNull(blocksSupplier, "blocksSupplier is null");
        requireNonNull(compacted, "compacted is null");
    }

    public ParquetFileMetadata(S3ObjectInfo object, ParquetMetadata metadata, long tailStart, byte[] tail)
    {
        this(object, metadata, tailStart, tail, rowGroupsOnce(object, metadata), Optional.empty());
    }

    /**
     * A compact footer parsed for pruning: no bytes of the file are at hand.
     */
    static ParquetFileMetadata compact(S3ObjectInfo object, ParquetMetadata metadata, CompactFooter compact)
    {
        return new ParquetFileMetadata(object, metadata, object.size(), new byte[0], rowGroupsOnce(object, metadata), Optional.of(compact));
    }

    private static Supplier<List<BlockMetadata>> rowGroupsOnce(S3ObjectInfo object, ParquetMetadata metadata)
    {
        return Suppliers.memoize(() -> {
            try {
                return allRowGroups(object, metadata);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Every row group of the footer, in the footer's order, so that index {@code i} here is row group {@code i} of
     * the footer's Thrift list everywhere (pruner, filter loader, no-match facts, health tables, probe). trino-parquet
     * leaves out, without error, a row group whose first column chunk starts before the file: its rows could then be
     * read by no one and every later row group would be numbered one lower, so such a footer is corrupt.
     */
    private static List<BlockMetadata> allRowGroups(S3ObjectInfo object, ParquetMetadata metadata)
            throws IOException
    {
        List<BlockMetadata> blocks = metadata.getBlocks();
        List<RowGroup> rowGroups = FooterChunks.rowGroups(metadata.getParquetMetadata());
        if (blocks.size() == rowGroups.size()) {
            return List.copyOf(blocks);
        }
        for (int ordinal = 0; ordinal < rowGroups.size(); ordinal++) {
            ColumnMetaData first = rowGroups.get(ordinal).getColumns().getFirst().getMeta_data();
            long start = startingPosition(first);
            if (start < 0) {
                throw new ParquetCorruptionException(new ParquetDataSourceId(object.location().toString()), "row group %d of %d cannot be located: its first column chunk (%s) starts at %d (data_page_offset %d, dictionary_page_offset %s)",
                        ordinal, rowGroups.size(), String.join(".", first.getPath_in_schema()), start,
                        first.getData_page_offset(), first.isSetDictionary_page_offset() ? first.getDictionary_page_offset() : "none");
            }
        }
        throw new ParquetCorruptionException(new ParquetDataSourceId(object.location().toString()), "footer lists %d row groups, of which trino-parquet reads %d", rowGroups.size(), blocks.size());
    }

    /**
     * Where trino-parquet takes a column chunk to start: its dictionary page when it has one before its data.
     */
    private static long startingPosition(ColumnMetaData chunk)
    {
        long data = chunk.getData_page_offset();
        if (chunk.isSetDictionary_page_offset() && chunk.getDictionary_page_offset() > 0 && chunk.getDictionary_page_offset() < data) {
            return chunk.getDictionary_page_offset();
        }
        return data;
    }

    /**
     * The row groups, parsed from the footer once per cached file rather than once per query (trino-parquet parses
     * them on every call); one per row group of the footer, in its order.
     */
    public List<BlockMetadata> blocks()
            throws IOException
    {
        try {
            return blocksSupplier.get();
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * File offset where the Thrift footer starts.
     */
    public long footerStart()
    {
        return object.size() - 8 - footerLength();
    }

    /**
     * Length of the Thrift footer (without the trailing length and magic).
     */
    public int footerLength()
    {
        return compacted.map(CompactFooter::footerLength).orElseGet(() -> Slices.wrappedBuffer(tail).getInt(tail.length - 8));
    }

    /**
     * Compressed bytes of a row group, over all its column chunks (a compact footer keeps the sum, not the chunks).
     */
    public long compressedSize(int rowGroup)
            throws IOException
    {
        if (compacted.isPresent()) {
            return compacted.get().rowGroupSizes()[rowGroup];
        }
        return blocks().get(rowGroup).columns().stream().mapToLong(ColumnChunkMetadata::getTotalSize).sum();
    }

    /**
     * File offsets where something the footer describes begins (page indexes, data and dictionary pages, filters,
     * the footer), mapped to whether a bloom filter or the footer begins there: what bounds a filter written without
     * its length. A compact footer keeps those of its filters only.
     */
    public NavigableMap<Long, Boolean> structureStarts()
    {
        if (compacted.isPresent()) {
            return compacted.get().decodeStructureStarts();
        }
        TreeMap<Long, Boolean> starts = new TreeMap<>();
        starts.put(footerStart(), true);
        for (RowGroup rowGroup : FooterChunks.rowGroups(metadata.getParquetMetadata())) {
            for (ColumnChunk chunk : rowGroup.isSetColumns() ? rowGroup.getColumns() : List.<ColumnChunk>of()) {
                if (chunk.isSetColumn_index_offset()) {
                    starts.putIfAbsent(chunk.getColumn_index_offset(), false);
                }
                if (chunk.isSetOffset_index_offset()) {
                    starts.putIfAbsent(chunk.getOffset_index_offset(), false);
                }
                if (!chunk.isSetMeta_data()) {
                    continue;
                }
                ColumnMetaData columnMetadata = chunk.getMeta_data();
                starts.putIfAbsent(columnMetadata.getData_page_offset(), false);
                if (columnMetadata.isSetDictionary_page_offset() && columnMetadata.getDictionary_page_offset() > 0) {
                    starts.putIfAbsent(columnMetadata.getDictionary_page_offset(), false);
                }
                if (columnMetadata.isSetBloom_filter_offset()) {
                    starts.put(columnMetadata.getBloom_filter_offset(), true);
                }
            }
        }
        return starts;
    }

    /**
     * This file's metadata keeping of the tail read only the footer: its filters are cached on their own, and the data
     * pages a short file's tail also holds would fill the cache with bytes nobody asks for again.
     */
    public ParquetFileMetadata retainOnlyFooter()
    {
        long keepFrom = footerStart();
        if (compacted.isPresent() || keepFrom <= tailStart) {
            return this;
        }
        byte[] kept = Arrays.copyOfRange(tail, (int) (keepFrom - tailStart), tail.length);
        return new ParquetFileMetadata(object, metadata, keepFrom, kept, blocksSupplier, compacted);
    }

    /**
     * Values in the column chunk of a filter key, or -1 when the footer has no such chunk.
     */
    public long valueCount(BloomFilterKey key)
    {
        return FooterChunks.find(metadata.getParquetMetadata(), key)
                .map(chunk -> chunk.metadata().getNum_values())
                .orElse(-1L);
    }

    /**
     * A column chunk as trino-parquet reads it, by row group and column path (compared without case), or empty when
     * the footer has none, has two whose paths differ only in case, or its row groups cannot be parsed.
     */
    public Optional<ColumnChunkMetadata> columnChunk(int rowGroup, List<String> path)
    {
        return Optional.ofNullable(columnChunks(rowGroup).get(new BloomFilterKey(rowGroup, path).path()));
    }

    /**
     * The row group's column chunks as trino-parquet reads them, by lower-case path; chunks whose paths differ only in
     * case are left out (which of them a lower-case name means is not certain), as is everything when the row groups
     * cannot be parsed.
     */
    public Map<List<String>, ColumnChunkMetadata> columnChunks(int rowGroup)
    {
        List<BlockMetadata> blocks;
        try {
            blocks = blocks();
        }
        catch (IOException e) {
            return Map.of();
        }
        if (rowGroup < 0 || rowGroup >= blocks.size()) {
            return Map.of();
        }
        Map<List<String>, ColumnChunkMetadata> chunks = new HashMap<>();
        Set<List<String>> ambiguous = new HashSet<>();
        for (ColumnChunkMetadata chunk : blocks.get(rowGroup).columns()) {
            List<String> path = new BloomFilterKey(rowGroup, List.of(chunk.getPath().toArray())).path();
            if (chunks.putIfAbsent(path, chunk) != null) {
                ambiguous.add(path);
            }
        }
        chunks.keySet().removeAll(ambiguous);
        return chunks;
    }

    /**
     * True when {@code [offset, offset + length)} lies in the bytes already read.
     */
    public boolean tailContains(long offset, long length)
    {
        return offset >= tailStart && offset + length <= tailStart + tail.length;
    }
}
