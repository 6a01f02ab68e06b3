package io.parquetbloom.connector.parquet;

import io.airlift.log.Logger;
import io.airlift.slice.Slice;
import io.parquetbloom.pruning.DomainValueMatcher;
import io.parquetbloom.s3.MergedRanges;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.parquet.ChunkReader;
import io.trino.parquet.Column;
import io.trino.parquet.DiskRange;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.parquet.reader.PageReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.block.Block;
import io.trino.spi.connector.SourcePage;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import static com.google.common.base.Preconditions.checkState;
import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * The first of two reads of a row group read by pages: its filter columns, whole, to learn which of its rows match
 * the query's predicate. The chunks of a batch of row groups (as many bytes as the window holds, at least one row
 * group) are fetched together, side by side, in pieces of at most the reader's buffer size, then each row group is read
 * from memory by its own reader, so that every row is known by its position in the row group. A row group larger than
 * the window is read by its reader as it decodes, never held whole: the probe holds at most a window of bytes. Matching is the engine's ({@link DomainValueMatcher}) and errs only
 * towards "matches".
 */
final class RowMatchProbe
{
    private static final Logger log = Logger.get(RowMatchProbe.class);

    /**
     * A filter column the probe reads, and the predicate its values are tested against.
     */
    record ProbeColumn(Column column, PrimitiveField field, DomainValueMatcher matcher, Optional<EncodedKeyMatch> encoded)
    {
        ProbeColumn
        {
            requireNonNull(column, "column is null");
            requireNonNull(field, "field is null");
            requireNonNull(matcher, "matcher is null");
            requireNonNull(encoded, "encoded is null");
        }

        ProbeColumn(Column column, PrimitiveField field, DomainValueMatcher matcher)
        {
            this(column, field, matcher, EncodedKeyMatch.of(field, matcher));
        }
    }

    /**
     * Pages of one column to probe instead of its whole chunk: those the key index named.
     *
     * @param store the pages, as the reader is given them
     * @param ranges what the reader reads of the chunk: its dictionary page and the pages
     */
    record ProbedPages(SelectedPages store, ColumnPath column, List<DiskRange> ranges) {}

    /**
     * A row group to probe: its filter columns whole, or one column's pages.
     *
     * @param rowGroup the row group's position among the split's
     * @param alongside ranges of other columns fetched with the probe's (not read by it): the pages the second read
     * will want, where they are known before the probe
     */
    record Target(int rowGroup, RowGroupInfo info, List<ProbeColumn> columns, Optional<ProbedPages> pages, List<DiskRange> alongside)
    {
        Target
        {
            alongside = List.copyOf(alongside);
        }
    }

    /**
     * What the probe found in one row group.
     *
     * @param rowGroup the row group's position among the split's
     * @param matchedRows the rows (positions in the row group, ascending) whose every probed value matches
     * @param columnMatched for each probed column, whether any of its values matched
     * @param complete whether every row of the row group was probed (not only some pages)
     * @param how whether the values were decoded or matched on their encoded pages
     */
    record Probed(int rowGroup, long[] matchedRows, boolean[] columnMatched, boolean complete, ProbeKind how) {}

    enum ProbeKind
    {
        DECODED,
        ENCODED,
        // the encoded pages held something the matcher does not read: decoded by the reader instead
        DECODED_AFTER_ENCODED_FAILED,
    }

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

    void probe(List<Target> targets, ProbeConsumer consumer)
            throws IOException
    {
        List<List<DiskRange>> ranges = new ArrayList<>();
        for (Target target : targets) {
            List<DiskRange> targetRanges = new ArrayList<>(target.pages().isPresent() ? target.pages().get().ranges() : chunkRanges(target.info(), target.columns()));
            targetRanges.addAll(target.alongside());
            ranges.add(targetRanges);
        }
        int next = 0;
        while (next < targets.size()) {
            int end = next;
            long bytes = 0;
            List<DiskRange> batch = new ArrayList<>();
            while (end < targets.size() && (end == next || bytes + length(ranges.get(end)) <= windowBytes)) {
                bytes += length(ranges.get(end));
                batch.addAll(ranges.get(end));
                end++;
            }
            // a row group larger than the window is not held: its reader reads it piece by piece as it decodes,
            // within the reader's buffers, as whole-chunk reading does (a 2 GiB chunk included)
            HeldRanges held = bytes > windowBytes ? new HeldRanges() : fetch(batch);
            for (int target = next; target < end; target++) {
                consumer.probed(probeRowGroup(targets.get(target), held), held);
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
        // a read holds at most the reader's buffer size; a larger range is read in pieces of that size from its start,
        // as the reader itself splits it, so that each piece serves the reader's read of it
        long maxBufferSize = options.getMaxBufferSize().toBytes();
        List<DiskRange> reads = new ArrayList<>();
        for (MergedRanges.Read<DiskRange> read : MergedRanges.merge(ranges, DiskRange::offset, DiskRange::end, mergeGap, maxBufferSize)) {
            for (long offset = read.start(); offset < read.start() + read.length(); offset += maxBufferSize) {
                reads.add(new DiskRange(offset, Math.min(maxBufferSize, read.start() + read.length() - offset)));
            }
        }
        List<CompletableFuture<byte[]>> fetches = new ArrayList<>();
        for (DiskRange read : reads) {
            fetches.add(CompletableFuture.supplyAsync(() -> store.read(object, read.offset(), toIntExact(read.length()), stats), executor));
        }
        HeldRanges held = new HeldRanges();
        for (int i = 0; i < reads.size(); i++) {
            try {
                held.add(reads.get(i).offset(), fetches.get(i).join());
            }
            catch (CompletionException e) {
                fetches.forEach(fetch -> fetch.cancel(true));
                throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
            }
        }
        return held;
    }

    private Probed probeRowGroup(Target target, HeldRanges held)
            throws IOException
    {
        if (target.columns().stream().allMatch(column -> column.encoded().isPresent())) {
            try {
                Optional<Probed> encoded = probeEncoded(target, held);
                if (encoded.isPresent()) {
                    return encoded.get();
                }
            }
            catch (RuntimeException e) {
                // a page the matcher does not read, or bytes it cannot make sense of: the reader reads the row group,
                // and fails with its own error where the file is damaged
                log.debug(e, "Row group %s of %s probed by the reader: its key pages are not matched encoded", target.rowGroup(), object.location());
                return probeDecoded(target, held, ProbeKind.DECODED_AFTER_ENCODED_FAILED);
            }
        }
        return probeDecoded(target, held, ProbeKind.DECODED);
    }

    /**
     * The row group's matching rows found on the encoded pages of its filter columns' chunks held whole, or of the
     * key column's pages the key index named; empty where a chunk or page is not held in one piece (larger than the
     * window or a read).
     */
    private Optional<Probed> probeEncoded(Target target, HeldRanges held)
    {
        List<ProbeColumn> columns = target.columns();
        // the key index names the pages of one key column
        checkState(target.pages().isEmpty() || columns.size() == 1, "pages named for %s columns", columns.size());
        ParquetDataSourceId dataSourceId = new ParquetDataSourceId(object.location().toString());
        long rowCount = target.info().prunedBlockMetadata().getRowCount();
        boolean[] columnMatched = new boolean[columns.size()];
        long[] matched = null;
        for (int channel = 0; channel < columns.size(); channel++) {
            ProbeColumn column = columns.get(channel);
            ColumnChunkMetadata chunk;
            try {
                chunk = target.info().prunedBlockMetadata().getColumnChunkMetaData(column.field().getDescriptor());
            }
            catch (ParquetCorruptionException e) {
                throw new UncheckedIOException(e);
            }
            Optional<EncodedPages> pages = target.pages().isPresent()
                    ? selectedPages(target.pages().get(), held, rowCount)
                    : held.view(chunk.getStartingPos(), toIntExact(chunk.getTotalSize())).map(bytes -> new EncodedPages(List.of(new HeldChunk(chunk.getStartingPos(), bytes)), null, rowCount));
            if (pages.isEmpty()) {
                return Optional.empty();
            }
            PageReader reader = PageReader.createPageReader(dataSourceId, new ChunkedInputStream(pages.get().chunks()),
                    chunk, column.field().getDescriptor(), pages.get().offsetIndex(), createdBy, Optional.empty(), options.getMaxPageReadSize().toBytes());
            long[] rows = column.encoded().orElseThrow().matchingRows(reader, pages.get().rows());
            columnMatched[channel] = rows.length > 0;
            matched = matched == null ? rows : intersection(matched, rows);
        }
        return Optional.of(new Probed(target.rowGroup(), matched, columnMatched, target.pages().isEmpty(), ProbeKind.ENCODED));
    }

    /**
     * What a page reader reads of a chunk: its bytes in order, the offset index of the pages among them (null for a
     * whole chunk), and the rows those pages hold.
     */
    private record EncodedPages(List<HeldChunk> chunks, OffsetIndex offsetIndex, long rows) {}

    /**
     * The key column's dictionary page and the pages the key index named, as the reader would read them.
     */
    private static Optional<EncodedPages> selectedPages(ProbedPages pages, HeldRanges held, long rowCount)
    {
        List<HeldChunk> chunks = new ArrayList<>();
        for (DiskRange range : pages.ranges()) {
            Optional<Slice> bytes = held.view(range.offset(), toIntExact(range.length()));
            if (bytes.isEmpty()) {
                return Optional.empty();
            }
            chunks.add(new HeldChunk(range.offset(), bytes.get()));
        }
        RowRanges rows = PageSelector.rowRanges(pages.store(), List.of(pages.column()), rowCount);
        OffsetIndex all = pages.store().getOffsetIndex(pages.column());
        List<Integer> selected = new ArrayList<>();
        long selectedRows = 0;
        for (int page = 0; page < all.getPageCount(); page++) {
            if (rows.isOverlapping(all.getFirstRowIndex(page), all.getLastRowIndex(page, rowCount))) {
                selected.add(page);
                selectedRows += all.getLastRowIndex(page, rowCount) - all.getFirstRowIndex(page) + 1;
            }
        }
        return Optional.of(new EncodedPages(chunks, new SelectedOffsetIndex(all, selected), selectedRows));
    }

    /**
     * The entries of some pages of an offset index, in order: what the page reader is told it reads.
     */
    private record SelectedOffsetIndex(OffsetIndex all, List<Integer> pages)
            implements OffsetIndex
    {
        @Override
        public int getPageCount()
        {
            return pages.size();
        }

        @Override
        public long getOffset(int pageIndex)
        {
            return all.getOffset(pages.get(pageIndex));
        }

        @Override
        public int getCompressedPageSize(int pageIndex)
        {
            return all.getCompressedPageSize(pages.get(pageIndex));
        }

        @Override
        public long getFirstRowIndex(int pageIndex)
        {
            return all.getFirstRowIndex(pages.get(pageIndex));
        }

        @Override
        public long getLastRowIndex(int pageIndex, long rowGroupRowCount)
        {
            return all.getLastRowIndex(pages.get(pageIndex), rowGroupRowCount);
        }
    }

    private static long[] intersection(long[] left, long[] right)
    {
        long[] result = new long[Math.min(left.length, right.length)];
        int count = 0;
        for (int i = 0, j = 0; i < left.length && j < right.length; ) {
            if (left[i] == right[j]) {
                result[count++] = left[i];
                i++;
                j++;
            }
            else if (left[i] < right[j]) {
                i++;
            }
            else {
                j++;
            }
        }
        return Arrays.copyOf(result, count);
    }

    /**
     * A held piece of a file as the reader's chunk reader.
     */
    private record HeldChunk(long diskOffset, Slice bytes)
            implements ChunkReader
    {
        @Override
        public long getDiskOffset()
        {
            return diskOffset;
        }

        @Override
        public Slice read()
        {
            return bytes;
        }

        @Override
        public void free() {}
    }

    private Probed probeDecoded(Target target, HeldRanges held, ProbeKind how)
            throws IOException
    {
        List<ProbeColumn> columns = target.columns();
        long rowCount = target.info().prunedBlockMetadata().getRowCount();
        // a row group of its own, its rows numbered from 0; the rows read are those of the pages probed, if any
        RowGroupInfo alone = new RowGroupInfo(target.info().prunedBlockMetadata(), 0, target.pages().map(ProbedPages::store));
        RowPositions positions = target.pages()
                .map(pages -> RowPositions.of(PageSelector.rowRanges(pages.store(), List.of(pages.column()), rowCount)))
                .orElse(RowPositions.ALL);
        Optional<TupleDomainParquetPredicate> predicate = target.pages().map(pages -> new PageSelectionPredicate(List.of(pages.column())));
        S3ParquetDataSource dataSource = new S3ParquetDataSource(store, object, stats, options, ColumnChunkLayout.unfiltered(), Runnable::run, RowGroupMatches.NONE, held);
        boolean[] columnMatched = new boolean[columns.size()];
        long[] matched = new long[16];
        int matchedCount = 0;
        long read = 0;
        try (ParquetReader reader = new ParquetReader(createdBy, columns.stream().map(ProbeColumn::column).toList(), false, List.of(alone), dataSource, DateTimeZone.UTC,
                newSimpleAggregatedMemoryContext(), options, exception -> readError(object.location().toString(), exception), predicate, Optional.empty(), Optional.empty())) {
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
                        matched[matchedCount++] = positions.row(read + i);
                    }
                }
                read += page.getPositionCount();
            }
        }
        if (read != positions.count(rowCount)) {
            throw new ParquetCorruptionException(dataSource.getId(), "Row group has %s rows to read but %s were read", positions.count(rowCount), read);
        }
        return new Probed(target.rowGroup(), Arrays.copyOf(matched, matchedCount), columnMatched, target.pages().isEmpty(), how);
    }

    /**
     * The row of the row group each row the reader returns is: all rows, or those of the pages probed, in order.
     */
    private record RowPositions(long[] starts, long[] ends)
    {
        static final RowPositions ALL = new RowPositions(null, null);

        static RowPositions of(RowRanges ranges)
        {
            List<RowRanges.Range> list = ranges.getRanges();
            long[] starts = new long[list.size()];
            long[] ends = new long[list.size()];
            for (int i = 0; i < list.size(); i++) {
                starts[i] = list.get(i).from;
                ends[i] = list.get(i).to;
            }
            return new RowPositions(starts, ends);
        }

        long row(long index)
        {
            if (starts == null) {
                return index;
            }
            long skipped = index;
            for (int i = 0; i < starts.length; i++) {
                long length = ends[i] - starts[i] + 1;
                if (skipped < length) {
                    return starts[i] + skipped;
                }
                skipped -= length;
            }
            throw new IllegalStateException("row %s is past the rows read".formatted(index));
        }

        long count(long rowCount)
        {
            if (starts == null) {
                return rowCount;
            }
            long count = 0;
            for (int i = 0; i < starts.length; i++) {
                count += ends[i] - starts[i] + 1;
            }
            return count;
        }
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
