package io.parquetbloom.metadata;

import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.ParallelReads;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Fetches the bloom filters of chosen column chunks with as few ranged GETs as possible: none for filters already in
 * the footer's tail read, one per cluster of nearby filters otherwise. Uses {@code bloom_filter_length} when the
 * file has it; otherwise the filter's extent is bounded by the next structure the footer knows of (another filter,
 * a page index, a column chunk, the footer), and the header is parsed.
 */
public final class BloomFilterLoader
{
    // filters closer than this are fetched in one GET: page indexes or a header between two filters cost less than a
    // round trip, while another column's filter in between (writers interleave them by row group) is not read for
    // nothing: a lookup then reads the bytes of its own columns' filters, as Trino's Hive connector does
    private static final long MAX_MERGE_GAP = 16 << 10;
    private static final long MAX_EXTENT = SplitBlockBloomFilter.MAX_BYTES + 64L;

    private BloomFilterLoader() {}

    /**
     * @return one result per requested key that has a filter in the file (keys without {@code bloom_filter_offset}
     * are absent), and the filter bytes fetched with new GETs
     */
    public static LoadedFilters load(S3ObjectStore store, ParquetFileMetadata file, Collection<BloomFilterKey> keys, S3RequestStats stats)
    {
        requireNonNull(file, "file is null");
        FileMetaData footer = file.metadata().getParquetMetadata();
        NavigableMap<Long, Boolean> boundaries = file.structureStarts();

        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = new HashMap<>();
        List<Range> toFetch = new ArrayList<>();
        for (BloomFilterKey key : keys) {
            Optional<ColumnMetaData> column = columnMetadata(footer, key);
            if (column.isEmpty() || !column.get().isSetBloom_filter_offset()) {
                continue;
            }
            switch (locate(key, column.get(), file, boundaries)) {
                case Located.Unusable(String reason) -> results.put(key, new SplitBlockBloomFilterReader.Result.Unusable(reason));
                case Located.At(Range range) when file.tailContains(range.offset(), range.extent()) -> results.put(key, range.parse(file.tail(), (int) (range.offset() - file.tailStart())));
                case Located.At(Range range) -> toFetch.add(range);
            }
        }

        long bytesRead = 0;
        List<MergedRanges.Read<Range>> reads = MergedRanges.merge(toFetch, Range::offset, Range::end, MAX_MERGE_GAP, Integer.MAX_VALUE - 16);
        // side by side: a file's filters lie a row group apart (one GET each), and chained they would put every
        // round trip, and every retry a fault costs, on the lookup's critical path
        List<byte[]> fetched = ParallelReads.read(store, file.object(), reads.stream().map(read -> new ParallelReads.Range(read.start(), (int) read.length())).toList(), stats);
        for (int i = 0; i < reads.size(); i++) {
            byte[] bytes = fetched.get(i);
            bytesRead += bytes.length;
            for (Range range : reads.get(i).members()) {
                results.put(range.key(), range.parse(bytes, (int) (range.offset() - reads.get(i).start())));
            }
        }
        return new LoadedFilters(results, bytesRead);
    }

    /**
     * The bytes of a chunk's filter that would take a GET of its own (not in the footer's tail read), where the footer
     * tells them: its declared length, or the exact gap up to the next filter or the footer (filters written back to
     * back, as Trino's writer does); empty otherwise.
     */
    public static OptionalLong lengthToFetch(ParquetFileMetadata file, BloomFilterKey key)
    {
        Optional<ColumnMetaData> column = columnMetadata(file.metadata().getParquetMetadata(), key);
        if (column.isEmpty() || !column.get().isSetBloom_filter_offset()) {
            return OptionalLong.empty();
        }
        return switch (locate(key, column.get(), file, file.structureStarts())) {
            case Located.At(Range range) when file.tailContains(range.offset(), range.extent()) -> OptionalLong.empty();
            case Located.At(Range range) when range.declared().isPresent() || range.mustFill() -> OptionalLong.of(range.extent());
            case Located.At _, Located.Unusable _ -> OptionalLong.empty();
        };
    }

    private sealed interface Located
    {
        record At(Range range)
                implements Located {}

        record Unusable(String reason)
                implements Located {}
    }

    /**
     * Where a chunk's filter lies: at its declared length, or up to the next structure the footer describes.
     *
     * @param boundaries see {@link ParquetFileMetadata#structureStarts}
     */
    private static Located locate(BloomFilterKey key, ColumnMetaData column, ParquetFileMetadata file, NavigableMap<Long, Boolean> boundaries)
    {
        long footerStart = file.footerStart();
        long offset = column.getBloom_filter_offset();
        if (offset < 4 || offset >= footerStart) {
            return new Located.Unusable("bloom_filter_offset %d is outside the data of a %d-byte file".formatted(offset, file.object().size()));
        }
        if (column.isSetBloom_filter_length()) {
            int declared = column.getBloom_filter_length();
            if (declared <= 0 || offset + declared > footerStart) {
                return new Located.Unusable("bloom_filter_length %d at offset %d runs past the data".formatted(declared, offset));
            }
            return new Located.At(new Range(key, offset, declared, OptionalInt.of(declared), false));
        }
        // footerStart is always a boundary, and offset < footerStart
        Map.Entry<Long, Boolean> next = boundaries.higherEntry(offset);
        long extent = next.getKey() - offset;
        // filters are written back to back and the last one right before the footer: then the filter must fill the
        // gap exactly; before other structures (page indexes, data) we only know an upper bound
        boolean mustFill = next.getValue();
        if (extent > MAX_EXTENT) {
            if (mustFill) {
                return new Located.Unusable("%d bytes up to the next filter or the footer exceed the largest filter".formatted(extent));
            }
            extent = MAX_EXTENT;
        }
        return new Located.At(new Range(key, offset, extent, OptionalInt.empty(), mustFill));
    }

    private record Range(BloomFilterKey key, long offset, long extent, OptionalInt declared, boolean mustFill)
    {
        long end()
        {
            return offset + extent;
        }

        SplitBlockBloomFilterReader.Result parse(byte[] buffer, int position)
        {
            if (mustFill) {
                return SplitBlockBloomFilterReader.readFilling(buffer, position, (int) extent);
            }
            return SplitBlockBloomFilterReader.read(buffer, position, (int) extent, declared);
        }
    }

    /**
     * trino-parquet lower-cases the schema it parses, while the footer's column paths keep the writer's case; like
     * trino-parquet, the first column that matches without regard to case wins.
     */
    private static Optional<ColumnMetaData> columnMetadata(FileMetaData footer, BloomFilterKey key)
    {
        return FooterChunks.find(footer, key).map(FooterChunks.FooterChunk::metadata);
    }
}
