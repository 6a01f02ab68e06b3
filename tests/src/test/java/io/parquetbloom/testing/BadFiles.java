package io.parquetbloom.testing;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Damages valid Parquet files in the ways the connector must survive.
 */
public final class BadFiles
{
    private BadFiles() {}

    static FileMetaData footer(byte[] file)
    {
        try {
            int length = footerLength(file);
            return Util.readFileMetaData(new ByteArrayInputStream(file, file.length - 8 - length, length));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int footerLength(byte[] file)
    {
        return ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /**
     * The file with its footer rewritten after {@code change} edits it.
     */
    public static byte[] rewriteFooter(byte[] file, Consumer<FileMetaData> change)
    {
        FileMetaData footer = footer(file);
        change.accept(footer);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(file, 0, file.length - 8 - footerLength(file));
            ByteArrayOutputStream encoded = new ByteArrayOutputStream();
            Util.writeFileMetaData(footer, encoded);
            out.write(encoded.toByteArray());
            out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(encoded.size()).array());
            out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
            return out.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] bloomOffsetPastEnd(byte[] file, String column)
    {
        return rewriteFooter(file, footer -> forColumn(footer, column, chunk -> {
            chunk.getMeta_data().setBloom_filter_offset(file.length + 1_000_000L);
            chunk.getMeta_data().unsetBloom_filter_length();
        }));
    }

    /**
     * Changes the algorithm union of every filter of {@code column} to an undefined member.
     */
    public static byte[] unknownAlgorithm(byte[] file, String column)
    {
        byte[] result = file.clone();
        forColumn(footer(file), column, chunk -> {
            int offset = (int) chunk.getMeta_data().getBloom_filter_offset();
            int position = offset + 1;
            while ((result[position] & 0x80) != 0) {
                position++;
            }
            // after the numBytes varint: 0x1C opens field 2 (algorithm), then 0x1C its member 1 (BLOCK)
            position++;
            if (result[position] != 0x1C || result[position + 1] != 0x1C) {
                throw new IllegalStateException("unexpected header layout at " + offset);
            }
            result[position + 1] = 0x2C;
        });
        return result;
    }

    /**
     * The column's statistics in every row group say min > max (as a writer bug or a signed/unsigned mix-up does).
     */
    public static byte[] statisticsMinAboveMax(byte[] file, String column)
    {
        return rewriteFooter(file, footer -> forColumn(footer, column, chunk -> {
            org.apache.parquet.format.Statistics statistics = chunk.getMeta_data().getStatistics();
            ByteBuffer min = statistics.bufferForMin_value();
            statistics.setMin_value(statistics.bufferForMax_value());
            statistics.setMax_value(min);
            statistics.unsetMin();
            statistics.unsetMax();
        }));
    }

    public static byte[] corruptFooter(byte[] file)
    {
        byte[] result = file.clone();
        int length = footerLength(file);
        int start = file.length - 8 - length;
        Arrays.fill(result, start + length / 3, start + length / 3 + 40, (byte) 0xEE);
        return result;
    }

    public static byte[] truncated(byte[] file)
    {
        return Arrays.copyOf(file, file.length / 2);
    }

    private static void forColumn(FileMetaData footer, String column, Consumer<ColumnChunk> action)
    {
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                if (chunk.getMeta_data().getPath_in_schema().equals(List.of(column))) {
                    action.accept(chunk);
                }
            }
        }
    }
}
