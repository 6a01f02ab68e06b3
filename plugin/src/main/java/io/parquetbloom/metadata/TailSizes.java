package io.parquetbloom.metadata;

import com.google.common.collect.ImmutableMap;
import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.format.FileMetaData;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Learns, per table, how many bytes the footer and the filters take at the end of its files, so that one tail GET
 * fetches both when writers put the filters just before the footer (parquet-java and Trino do), and how those
 * filter bytes split among columns: when a lookup's columns own at most half of them, the tail is cut to the footer
 * and the lookup's filters are fetched on their own, so that a table with filters on many columns costs a lookup
 * the bytes of its own columns' filters, not of all of them.
 */
final class TailSizes
{
    // never learn a tail larger than this: beyond it a second, targeted GET is cheaper than a huge first one
    private static final int MAX_LEARNED_TAIL = 16 << 20;
    // the first file of a table (before anything is learned) is read with a generous tail, so that one GET brings
    // its filters too and teaches the table's tail size; typically the schema read, one file
    private static final int FIRST_TAIL = 1 << 20;

    /**
     * @param withFilters bytes from the first filter to the end, with a margin
     * @param footerOnly bytes of footer, length and magic, with a margin
     * @param filterBytes filter bytes by top-level column (lower case) and in all
     */
    private record Learned(int withFilters, int footerOnly, Map<String, Long> filterBytes, long allFilterBytes)
    {
        Learned merge(Learned other)
        {
            // the larger tails keep files that differ a little (string lengths, statistics) from a second GET; the
            // split among columns is taken from a file that has filters
            boolean otherSplit = allFilterBytes == 0 && other.allFilterBytes > 0;
            return new Learned(Math.max(withFilters, other.withFilters), Math.max(footerOnly, other.footerOnly),
                    otherSplit ? other.filterBytes : filterBytes, otherSplit ? other.allFilterBytes : allFilterBytes);
        }
    }

    private final int minimum;
    private final Map<SchemaTableName, Learned> learned = new ConcurrentHashMap<>();

    TailSizes(int minimum)
    {
        this.minimum = minimum;
    }

    /**
     * @param columns top-level columns whose filters the read is for; empty: every column's
     */
    int tailSize(SchemaTableName table, Optional<Set<String>> columns)
    {
        Learned tail = learned.get(table);
        if (tail == null) {
            return Math.max(minimum, FIRST_TAIL);
        }
        if (columns.isPresent() && tail.allFilterBytes() > 0) {
            long wanted = columns.get().stream().mapToLong(column -> tail.filterBytes().getOrDefault(column.toLowerCase(Locale.ROOT), 0L)).sum();
            if (wanted * 2 <= tail.allFilterBytes()) {
                // just the footer, as learned: the floor would bring other columns' filters back in
                return tail.footerOnly();
            }
        }
        return Math.max(minimum, tail.withFilters());
    }

    void learn(SchemaTableName table, ParquetFileMetadata file)
    {
        FileMetaData footer = file.metadata().getParquetMetadata();
        long firstFilter = Long.MAX_VALUE;
        long footerNeeded = file.object().size() - file.footerStart();
        Map<String, Long> filterBytes = new HashMap<>();
        long allFilterBytes = 0;
        for (FooterChunks.FooterChunk chunk : FooterChunks.chunks(footer)) {
            if (chunk.metadata().isSetBloom_filter_offset() && chunk.metadata().getBloom_filter_offset() >= 4) {
                firstFilter = Math.min(firstFilter, chunk.metadata().getBloom_filter_offset());
                // without a declared length a filter counts as one block: its column then looks cheap, which only
                // makes the tail hold all filters less often
                long length = chunk.metadata().isSetBloom_filter_length() ? Math.max(0, chunk.metadata().getBloom_filter_length()) : 32;
                filterBytes.merge(chunk.key().path().getFirst(), length, Long::sum);
                allFilterBytes += length;
            }
        }
        long withFilters = firstFilter == Long.MAX_VALUE ? footerNeeded : file.object().size() - firstFilter;
        if (footerNeeded <= 0 || margin(footerNeeded) > MAX_LEARNED_TAIL) {
            return;
        }
        if (withFilters <= 0 || margin(withFilters) > MAX_LEARNED_TAIL) {
            // filters too large to bring with the footer: the footer alone, and the filters on their own
            withFilters = footerNeeded;
        }
        learned.merge(table, new Learned((int) margin(withFilters), (int) margin(footerNeeded), ImmutableMap.copyOf(filterBytes), allFilterBytes), Learned::merge);
    }

    // files of one table differ a little (string lengths, statistics): an eighth more than this file needed spares
    // the next files a second GET for the bytes that would otherwise miss the tail by a few
    private static long margin(long needed)
    {
        return needed + needed / 8;
    }
}
