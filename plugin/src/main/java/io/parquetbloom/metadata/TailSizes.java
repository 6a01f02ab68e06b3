package io.parquetbloom.metadata;

import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.format.FileMetaData;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Learns, per table, how many bytes footer plus filters take at the end of its files, so that one tail GET fetches
 * both when writers put the filters just before the footer (parquet-java and Trino do).
 */
final class TailSizes
{
    // never learn a tail larger than this: beyond it a second, targeted GET is cheaper than a huge first one
    private static final int MAX_LEARNED_TAIL = 16 << 20;
    // the first file of a table (before anything is learned) is read with a generous tail, so that one GET brings
    // its filters too and teaches the table's tail size; typically the schema read, one file
    private static final int FIRST_TAIL = 1 << 20;

    private final int minimum;
    private final Map<SchemaTableName, Integer> learned = new ConcurrentHashMap<>();

    TailSizes(int minimum)
    {
        this.minimum = minimum;
    }

    int tailSize(SchemaTableName table)
    {
        return Math.max(minimum, learned.getOrDefault(table, FIRST_TAIL));
    }

    void learn(SchemaTableName table, ParquetFileMetadata file)
    {
        FileMetaData footer = file.metadata().getParquetMetadata();
        long firstFilter = Long.MAX_VALUE;
        for (FooterChunks.FooterChunk chunk : FooterChunks.chunks(footer)) {
            if (chunk.metadata().isSetBloom_filter_offset() && chunk.metadata().getBloom_filter_offset() >= 4) {
                firstFilter = Math.min(firstFilter, chunk.metadata().getBloom_filter_offset());
            }
        }
        long needed = firstFilter == Long.MAX_VALUE ? file.object().size() - file.footerStart() : file.object().size() - firstFilter;
        // files of one table differ a little (string lengths, statistics): an eighth more than this file needed
        // spares the next files a second GET for the filters that would otherwise miss the tail by a few bytes
        long withMargin = needed + needed / 8;
        if (needed > 0 && withMargin <= MAX_LEARNED_TAIL) {
            learned.merge(table, (int) withMargin, Math::max);
        }
    }
}
