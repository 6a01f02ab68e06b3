package io.parquetbloom.connector.parquet;

import io.parquetbloom.pruning.DomainValueMatcher;
import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.parquet.Column;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.block.Block;
import io.trino.spi.connector.SourcePage;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The first of two reads of a row group read by pages: its filter columns, whole, to learn which of its rows match
 * the query's predicate. The chunks of a batch of row groups (as many bytes as the window holds, at least one row
 * group) are fetched together, side by side, then each row group is read from memory by its own reader, so that every
 * row is known by its position in the row group. Matching is the engine's ({@link DomainValueMatcher}) and errs only
 * towards "matches".
 */
final class RowMatchProbe
{
    /**
     * A filter column the probe reads, and the predicate its values are tested against.
     */
    record ProbeColumn(Column column, PrimitiveField field, DomainValueMatcher matcher)
    {
        ProbeColumn
        {
            requireNonNull(column, "column is null");
            requireNonNull(field, "field is null");
            requireNonNull(matcher, "matcher is null");
        }
    }

    /**
     * What the probe found in one row group.
     *
     * @param rowGroup the row group's position among those probed
     * @param matchedRows the rows (positions in the row group, ascending) whose every probed value matches
     * @param columnMatched for each probed column, whether any of its values matched
     */
    record Probed(int rowGroup, long[] matchedRows, boolean[] columnMatched) {}

    interface ProbeConsumer
    {
        /**
         * @param bytes the bytes fetched for the batch the row group was probed in, until the next batch
         */
        void probed(Probed probed, HeldRanges bytes);
    }

    private final S3ObjectStore store;
    private final S3ObjectInfo object;
    private final S3RequestStats stats;
    private final Executor executor;
    private final ParquetReaderOptions options;
    private final Optional<String> createdBy;
    private final long windowBytes;
    private final long mergeGap;

    /**
     * @param options the reader's options; a read is merged with the next where the gap between is at most its merge
     * distance
     */
    RowMatchProbe(S3ObjectStore store, S3ObjectInfo object, S3RequestStats stats, Executor executor, ParquetReaderOptions options, Optional<String> createdBy, long windowBytes)
    {
        this.store = requireNonNull(store, "store is null");
        this.object = requireNonNull(object, "object is null");
        this.stats = requireNonNull(stats, "stats is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.options = requireNonNull(options, "options is null");
        this.createdBy = requireNonNull(createdBy, "createdBy is null");
        this.windowBytes = windowBytes;
        this.mergeGap = options.getMaxMergeDistance().toBytes();
    }

    void probe(List<RowGroupInfo> rowGroups, List<ProbeColumn> columns, ProbeConsumer consumer)
            throws IOException
    {
        List<List<DiskRange>> chunks = new ArrayList<>();
        for (RowGroupInfo rowGroup : rowGroups) {
            chunks.add(chunkRanges(rowGroup, columns));
        }
        int next = 0;
        while (next < rowGroups.size()) {
            int end = next;
            long bytes = 0;
            List<DiskRange> batch = new ArrayList<>();
            while (end < rowGroups.size() && (end == next || bytes + length(chunks.get(end)) <= windowBytes)) {
                bytes += length(chunks.get(end));
                batch.addAll(chunks.get(end));
                end++;
            }
            HeldRanges held = fetch(batch);
            for (int rowGroup = next; rowGroup < end; rowGroup++) {
                consumer.probed(probeRowGroup(rowGroup, rowGroups.get(rowGroup), columns, held), held);
            }
            next = end;
        }
    }

    private static List<DiskRange> chunkRanges(RowGroupInfo rowGroup, List<ProbeColumn> columns)
            throws ParquetCorruptionException
    {
        List<DiskRange> ranges = new ArrayList<>();
        for (ProbeColumn column : columns) {
            ColumnChunkMetadata chunk = rowGroup.prunedBlockMetadata().getColumnChunkMetaData(column.field().getDescriptor());
            ranges.add(new DiskRange(chunk.getStartingPos(), chunk.getTotalSize()));
        }
        return ranges;
    }

    private static long length(List<DiskRange> ranges)
    {
        return ranges.stream().mapToLong(DiskRange::length).sum();
    }

    /**
     * The ranges, merged where the gap between is at most the merge distance, each merged read one GET; all GETs in
     * flight together.
     */
    private HeldRanges fetch(List<DiskRange> ranges)
    {
        List<MergedRanges.Read<DiskRange>> reads = MergedRanges.merge(ranges, DiskRange::offset, DiskRange::end, mergeGap, Long.MAX_VALUE);
        List<CompletableFuture<byte[]>> fetches = new ArrayList<>();
        for (MergedRanges.Read<DiskRange> read : reads) {
            fetches.add(CompletableFuture.supplyAsync(() -> store.read(object, read.start(), toIntExact(read.length()), stats), executor));
        }
        HeldRanges held = new HeldRanges();
        for (int i = 0; i < reads.size(); i++) {
            try {
                held.add(reads.get(i).start(), fetches.get(i).join());
            }
            catch (CompletionException e) {
                fetches.forEach(fetch -> fetch.cancel(true));
                throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
            }
        }
        return held;
    }

    private Probed probeRowGroup(int position, RowGroupInfo rowGroup, List<ProbeColumn> columns, HeldRanges held)
            throws IOException
    {
        // a row group of its own, its rows numbered from 0
        RowGroupInfo alone = new RowGroupInfo(rowGroup.prunedBlockMetadata(), 0, Optional.empty());
        S3ParquetDataSource dataSource = new S3ParquetDataSource(store, object, stats, options, ColumnChunkLayout.unfiltered(), Runnable::run, RowGroupMatches.NONE, held);
        boolean[] columnMatched = new boolean[columns.size()];
        long[] matched = new long[16];
        int matchedCount = 0;
        long row = 0;
        try (ParquetReader reader = new ParquetReader(createdBy, columns.stream().map(ProbeColumn::column).toList(), false, List.of(alone), dataSource, DateTimeZone.UTC,
                newSimpleAggregatedMemoryContext(), options, exception -> readError(object.location().toString(), exception), Optional.empty(), Optional.empty(), Optional.empty())) {
            for (SourcePage page = reader.nextPage(); page != null; page = reader.nextPage()) {
                boolean[] rowMatches = new boolean[page.getPositionCount()];
                Arrays.fill(rowMatches, true);
                for (int channel = 0; channel < columns.size(); channel++) {
                    columnMatched[channel] |= test(columns.get(channel).matcher(), page.getBlock(channel), rowMatches);
                }
                for (int i = 0; i < rowMatches.length; i++) {
                    if (rowMatches[i]) {
                        if (matchedCount == matched.length) {
                            matched = Arrays.copyOf(matched, matchedCount * 2);
                        }
                        matched[matchedCount++] = row + i;
                    }
                }
                row += page.getPositionCount();
            }
        }
        if (row != rowGroup.prunedBlockMetadata().getRowCount()) {
            throw new ParquetCorruptionException(dataSource.getId(), "Row group has %s rows but %s were read", rowGroup.prunedBlockMetadata().getRowCount(), row);
        }
        return new Probed(position, Arrays.copyOf(matched, matchedCount), columnMatched);
    }

    /**
     * Clears the rows whose value does not match; whether any value of the block matched.
     */
    private static boolean test(DomainValueMatcher matcher, Block block, boolean[] rowMatches)
    {
        boolean any = false;
        for (int position = 0; position < rowMatches.length; position++) {
            boolean matches = matcher.matches(block, position);
            any |= matches;
            rowMatches[position] &= matches;
        }
        return any;
    }
}
