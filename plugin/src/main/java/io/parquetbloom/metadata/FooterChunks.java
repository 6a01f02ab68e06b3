package io.parquetbloom.metadata;

import com.google.common.collect.ImmutableList;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;

import java.util.List;
import java.util.Optional;

/**
 * The one way through a Thrift footer's column chunks: a footer may lack row groups, chunks may lack their metadata
 * (encrypted columns), and columns are looked up as trino-parquet does, without regard to case, the first match
 * winning.
 */
public final class FooterChunks
{
    private FooterChunks() {}

    /**
     * A chunk that has its metadata, with its row group's ordinal.
     */
    public record FooterChunk(int rowGroup, RowGroup rowGroupMetadata, ColumnChunk chunk)
    {
        public ColumnMetaData metadata()
        {
            return chunk.getMeta_data();
        }

        public BloomFilterKey key()
        {
            return new BloomFilterKey(rowGroup, chunk.getMeta_data().getPath_in_schema());
        }
    }

    /**
     * The footer's row groups; none when it has no list.
     */
    public static List<RowGroup> rowGroups(FileMetaData footer)
    {
        return footer.isSetRow_groups() ? footer.getRow_groups() : List.of();
    }

    /**
     * Every chunk with metadata, in row group and column order.
     */
    public static List<FooterChunk> chunks(FileMetaData footer)
    {
        ImmutableList.Builder<FooterChunk> chunks = ImmutableList.builder();
        List<RowGroup> rowGroups = rowGroups(footer);
        for (int ordinal = 0; ordinal < rowGroups.size(); ordinal++) {
            chunks.addAll(chunks(ordinal, rowGroups.get(ordinal)));
        }
        return chunks.build();
    }

    /**
     * The chunks with metadata of one row group, in column order.
     */
    public static List<FooterChunk> chunks(int ordinal, RowGroup rowGroup)
    {
        if (!rowGroup.isSetColumns()) {
            return List.of();
        }
        return rowGroup.getColumns().stream()
                .filter(ColumnChunk::isSetMeta_data)
                .map(chunk -> new FooterChunk(ordinal, rowGroup, chunk))
                .collect(ImmutableList.toImmutableList());
    }

    /**
     * The first chunk with metadata whose row group and path (without regard to case) are the key's.
     */
    public static Optional<FooterChunk> find(FileMetaData footer, BloomFilterKey key)
    {
        List<RowGroup> rowGroups = rowGroups(footer);
        if (key.rowGroup() < 0 || key.rowGroup() >= rowGroups.size()) {
            return Optional.empty();
        }
        return chunks(key.rowGroup(), rowGroups.get(key.rowGroup())).stream()
                .filter(chunk -> chunk.key().equals(key))
                .findFirst();
    }
}
