package io.parquetbloom.metadata;

import com.google.common.collect.ImmutableSet;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.metadata.ParquetMetadata;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * What planning reads of a footer, kept by the cache instead of the parsed footer (20-30 times smaller): the footer
 * re-encoded with the schema, each row group's row count and first column chunk (where trino-parquet takes the row
 * group to start) without its statistics, and the chunks of the columns that were constrained, whole but for their
 * size statistics, page index offsets and key-value metadata. Parsed by trino-parquet again on each use, so pruning
 * reads statistics, encodings and filter offsets exactly as it reads them from the file. Beside it, what planning
 * needs of the chunks left out: each row group's compressed size (for splits) and the structures that bound the kept
 * filters (for filters without a declared length). A split's reader uses this form only where it holds every column
 * the reader reads (a {@code count(*)} of a key, say); otherwise it reads the whole footer.
 *
 * @param thrift the reduced footer, Thrift compact encoded
 * @param columns the top-level columns (lower case) whose chunks are kept
 * @param footerLength the length of the file's own footer
 * @param rowGroupSizes each row group's compressed bytes, summed over all its chunks
 * @param structureStarts file offsets (times two, plus one where a filter or the footer starts there) of the kept
 * filters and of what follows each: see {@link ParquetFileMetadata#structureStarts()}
 */
public record CompactFooter(byte[] thrift, Set<String> columns, int footerLength, long[] rowGroupSizes, long[] structureStarts)
{
    public CompactFooter
    {
        requireNonNull(thrift, "thrift is null");
        columns = ImmutableSet.copyOf(columns);
        requireNonNull(rowGroupSizes, "rowGroupSizes is null");
        requireNonNull(structureStarts, "structureStarts is null");
    }

    /**
     * @param file a footer as read from the file, not a compact one
     * @param columns top-level columns, lower case
     */
    public static CompactFooter of(ParquetFileMetadata file, Set<String> columns)
    {
        Set<String> chunkColumns = chunkColumns(file.metadata().getParquetMetadata().getSchema(), columns);
        if (file.compacted().isPresent()) {
            throw new IllegalArgumentException("footer of %s is compact already".formatted(file.object().location()));
        }
        FileMetaData footer = file.metadata().getParquetMetadata();
        FileMetaData reduced = new FileMetaData(footer.getVersion(), footer.getSchema(), footer.getNum_rows(), new ArrayList<>());
        if (footer.isSetCreated_by()) {
            // trino-parquet distrusts the statistics of some writers' versions
            reduced.setCreated_by(footer.getCreated_by());
        }
        if (footer.isSetColumn_orders()) {
            reduced.setColumn_orders(footer.getColumn_orders());
        }
        List<RowGroup> rowGroups = FooterChunks.rowGroups(footer);
        long[] rowGroupSizes = new long[rowGroups.size()];
        for (int ordinal = 0; ordinal < rowGroups.size(); ordinal++) {
            reduced.addToRow_groups(reduce(rowGroups.get(ordinal), chunkColumns));
            rowGroupSizes[ordinal] = compressedSize(file, ordinal);
        }
        return new CompactFooter(encode(reduced), columns, file.footerLength(), rowGroupSizes, keptStructureStarts(file, reduced));
    }

    /**
     * How a column that a table format matches by field id is named among the columns asked for: its chunks are kept
     * whatever this file names it (a renamed column's older files name it otherwise), beside its name (files written
     * without ids are read by name).
     */
    public static String fieldIdToken(int fieldId)
    {
        return "#" + fieldId;
    }

    /**
     * What a table column is asked for by: its name (lower case), the names a file without field ids may give it by a
     * name mapping, and its field id's token.
     */
    public static Stream<String> footerNames(String name, OptionalInt fieldId, Optional<List<String>> mappedNames)
    {
        return Stream.of(
                Stream.of(name.toLowerCase(Locale.ROOT)),
                mappedNames.stream().flatMap(List::stream).map(mapped -> mapped.toLowerCase(Locale.ROOT)),
                fieldId.stream().mapToObj(CompactFooter::fieldIdToken)).flatMap(names -> names);
    }

    /**
     * The names (lower case) of the file's top-level columns whose chunks are kept: those asked for by name, and those
     * whose field id is asked for.
     */
    private static Set<String> chunkColumns(List<SchemaElement> schema, Set<String> columns)
    {
        if (columns.stream().noneMatch(column -> column.startsWith("#"))) {
            return columns;
        }
        Set<String> names = new HashSet<>(columns);
        int index = 1;
        while (index < schema.size()) {
            SchemaElement field = schema.get(index);
            if (field.isSetField_id() && columns.contains(fieldIdToken(field.getField_id()))) {
                names.add(field.getName().toLowerCase(Locale.ROOT));
            }
            index = afterSubtree(schema, index);
        }
        return names;
    }

    /**
     * The index of the element after the field at {@code index} and all its descendants (the schema is a tree
     * flattened depth first, each group giving its number of children).
     */
    private static int afterSubtree(List<SchemaElement> schema, int index)
    {
        int unvisited = 1;
        int next = index;
        while (unvisited > 0 && next < schema.size()) {
            SchemaElement element = schema.get(next++);
            unvisited += (element.isSetNum_children() ? element.getNum_children() : 0) - 1;
        }
        return next;
    }

    private static long compressedSize(ParquetFileMetadata file, int rowGroup)
    {
        try {
            // the row groups were parsed when the footer was read, so this does not fail here
            return file.compressedSize(rowGroup);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RowGroup reduce(RowGroup rowGroup, Set<String> columns)
    {
        RowGroup reduced = new RowGroup(new ArrayList<>(), rowGroup.getTotal_byte_size(), rowGroup.getNum_rows());
        if (rowGroup.isSetFile_offset()) {
            reduced.setFile_offset(rowGroup.getFile_offset());
        }
        if (rowGroup.isSetOrdinal()) {
            reduced.setOrdinal(rowGroup.getOrdinal());
        }
        List<ColumnChunk> chunks = rowGroup.isSetColumns() ? rowGroup.getColumns() : List.of();
        for (int i = 0; i < chunks.size(); i++) {
            ColumnChunk chunk = chunks.get(i);
            if (constrained(chunk, columns)) {
                reduced.addToColumns(withoutPageDetails(chunk));
            }
            else if (i == 0) {
                reduced.addToColumns(startOnly(chunk));
            }
        }
        return reduced;
    }

    private static boolean constrained(ColumnChunk chunk, Set<String> columns)
    {
        return chunk.isSetMeta_data() && columns.contains(chunk.getMeta_data().getPath_in_schema().getFirst().toLowerCase(Locale.ROOT));
    }

    /**
     * A chunk as pruning and the reader read it: all of it but the size statistics, the column index offsets (this
     * connector's reader locates pages by offset index only) and the chunk's key-value metadata.
     */
    private static ColumnChunk withoutPageDetails(ColumnChunk chunk)
    {
        ColumnChunk copy = new ColumnChunk(chunk);
        copy.unsetColumn_index_offset();
        copy.unsetColumn_index_length();
        copy.getMeta_data().unsetSize_statistics();
        copy.getMeta_data().unsetKey_value_metadata();
        return copy;
    }

    /**
     * The first chunk of a row group, of an unconstrained column: only what locates the row group, as trino-parquet
     * locates it (and the fields the format requires).
     */
    private static ColumnChunk startOnly(ColumnChunk chunk)
    {
        if (!chunk.isSetMeta_data()) {
            // encrypted: the full footer fails to parse before it gets here
            return new ColumnChunk(chunk);
        }
        ColumnChunk copy = new ColumnChunk(chunk.getFile_offset());
        if (chunk.isSetFile_path()) {
            copy.setFile_path(chunk.getFile_path());
        }
        ColumnMetaData meta = chunk.getMeta_data();
        ColumnMetaData kept = new ColumnMetaData(meta.getType(), meta.getEncodings(), meta.getPath_in_schema(), meta.getCodec(),
                meta.getNum_values(), meta.getTotal_uncompressed_size(), meta.getTotal_compressed_size(), meta.getData_page_offset());
        if (meta.isSetDictionary_page_offset()) {
            kept.setDictionary_page_offset(meta.getDictionary_page_offset());
        }
        copy.setMeta_data(kept);
        return copy;
    }

    /**
     * The full footer's structure starts that a kept filter needs: its own start, and the next start after it (the
     * nearest of all, which no structure of the reduced footer comes before), with the footer's start.
     */
    private static long[] keptStructureStarts(ParquetFileMetadata file, FileMetaData reduced)
    {
        NavigableMap<Long, Boolean> all = file.structureStarts();
        TreeMap<Long, Boolean> kept = new TreeMap<>();
        kept.put(file.footerStart(), true);
        for (FooterChunks.FooterChunk chunk : FooterChunks.chunks(reduced)) {
            if (chunk.metadata().isSetBloom_filter_offset()) {
                long offset = chunk.metadata().getBloom_filter_offset();
                kept.put(offset, all.getOrDefault(offset, true));
                Map.Entry<Long, Boolean> next = all.higherEntry(offset);
                if (next != null) {
                    kept.put(next.getKey(), next.getValue());
                }
            }
        }
        return kept.entrySet().stream().mapToLong(entry -> entry.getKey() * 2 + (entry.getValue() ? 1 : 0)).toArray();
    }

    /**
     * Whether the kept chunks serve a plan constraining these top-level columns (lower case).
     */
    public boolean covers(Set<String> wanted)
    {
        return columns.containsAll(wanted);
    }

    /**
     * This footer parsed as trino-parquet parses a file's, for pruning only.
     */
    public ParquetFileMetadata expand(S3ObjectInfo object)
    {
        FileMetaData reduced;
        ParquetMetadata metadata;
        try {
            reduced = Util.readFileMetaData(new ByteArrayInputStream(thrift));
            metadata = new ParquetMetadata(reduced, new ParquetDataSourceId(object.location().toString()), Optional.empty());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ParquetFileMetadata.compact(object, metadata, this);
    }

    NavigableMap<Long, Boolean> decodeStructureStarts()
    {
        TreeMap<Long, Boolean> starts = new TreeMap<>();
        for (long encoded : structureStarts) {
            starts.put(encoded >>> 1, (encoded & 1) == 1);
        }
        return starts;
    }

    /**
     * What this form holds on the heap, roughly: the bytes and arrays, and the objects around them.
     */
    public long retainedBytes()
    {
        return 16L + thrift.length + 16 + 8L * rowGroupSizes.length + 16 + 8L * structureStarts.length + 64L * columns.size() + 96;
    }

    private static byte[] encode(FileMetaData footer)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try {
            Util.writeFileMetaData(footer, out);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
