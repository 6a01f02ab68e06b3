package io.parquetbloom.testing;

import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Test helper: finds each column chunk's bloom filter through the Thrift footer of a whole Parquet file in memory
 * and reads it with our reader.
 */
public final class FooterBloomFilters
{
    private FooterBloomFilters() {}

    public record ChunkFilter(int rowGroup, String path, long offset, OptionalInt declaredLength, SplitBlockBloomFilterReader.Result result) {}

    public static FileMetaData readFooter(byte[] file)
            throws IOException
    {
        int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return Util.readFileMetaData(new ByteArrayInputStream(file, file.length - 8 - footerLength, footerLength));
    }

    /**
     * Every column chunk that declares a bloom filter. Without {@code bloom_filter_length} the filter's extent is
     * taken as "until the end of the file", which a reader may parse a header from.
     */
    public static List<ChunkFilter> readFilters(byte[] file)
            throws IOException
    {
        FileMetaData footer = readFooter(file);
        List<ChunkFilter> filters = new ArrayList<>();
        for (int rowGroupIndex = 0; rowGroupIndex < footer.getRow_groups().size(); rowGroupIndex++) {
            RowGroup rowGroup = footer.getRow_groups().get(rowGroupIndex);
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                ColumnMetaData metadata = chunk.getMeta_data();
                if (!metadata.isSetBloom_filter_offset()) {
                    continue;
                }
                long offset = metadata.getBloom_filter_offset();
                OptionalInt declared = metadata.isSetBloom_filter_length() ? OptionalInt.of(metadata.getBloom_filter_length()) : OptionalInt.empty();
                SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(file, (int) offset, file.length - (int) offset, declared);
                filters.add(new ChunkFilter(rowGroupIndex, String.join(".", metadata.getPath_in_schema()), offset, declared, result));
            }
        }
        return filters;
    }
}
