package io.parquetbloom.keyindex;

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.USER_CANCELED;
import static java.util.Objects.requireNonNull;

/**
 * Builds or refreshes a column's key index: lists the table now, finds the files no segment covers (new or
 * rewritten), has {@link SegmentBuilder} read only their key column chunks into one new immutable segment, and then
 * replaces the pointer by a conditional PUT (merging segments beyond {@code key-index.max-segments}). A build
 * that fails or is cancelled before that PUT changes nothing readers see; its uploaded segment is an orphan the next
 * build deletes once older than {@code key-index.orphan-retention}.
 */
public class KeyIndexBuilder
{
    private static final Logger log = Logger.get(KeyIndexBuilder.class);

    /**
     * What a build did.
     *
     * @param filesRead files whose key column was read into the new segment
     * @param filesNotIndexed files read but left out (a value without an exact hash, a column stored as another type)
     */
    public record BuildResult(int filesRead, int filesNotIndexed, long entries, long segmentBytes, int segments, long orphansDeleted, long millis) {}

    private final LakeTables lakeTables;
    private final TableSchemaReader schemaReader;
    private final SegmentBuilder segmentBuilder;
    private final KeyIndexReader indexReader;
    private final KeyIndexCompactor compactor;
    private final KeyIndexPublisher publisher;
    private final S3ObjectStore store;
    private final KeyIndexConfig config;
    private final KeyIndexBuildStats buildStats;

    @Inject
    public KeyIndexBuilder(
            LakeTables lakeTables,
            TableSchemaReader schemaReader,
            SegmentBuilder segmentBuilder,
            KeyIndexReader indexReader,
            KeyIndexCompactor compactor,
            KeyIndexPublisher publisher,
            S3ObjectStore store,
            KeyIndexConfig config,
            KeyIndexBuildStats buildStats)
    {
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
        this.segmentBuilder = requireNonNull(segmentBuilder, "segmentBuilder is null");
        this.indexReader = requireNonNull(indexReader, "indexReader is null");
        this.compactor = requireNonNull(compactor, "compactor is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.store = requireNonNull(store, "store is null");
        this.config = requireNonNull(config, "config is null");
        this.buildStats = requireNonNull(buildStats, "buildStats is null");
    }

    /**
     * @param cancelled whether the procedure's query was cancelled or timed out: checked before each row group is read
     * and before each write, so a cancelled build stops within about one row group's read and, until it replaces the
     * pointer, changes nothing
     */
    public BuildResult build(SchemaTableName name, String columnName, BooleanSupplier cancelled)
    {
        buildStats.built();
        try {
            return build(name, columnName, cancelled, false);
        }
        catch (RuntimeException e) {
            if (e instanceof TrinoException trino && trino.getErrorCode().equals(USER_CANCELED.toErrorCode())) {
                buildStats.cancelled();
            }
            else {
                buildStats.failed();
            }
            throw e;
        }
    }

    private BuildResult build(SchemaTableName name, String columnName, BooleanSupplier cancelled, boolean repairing)
    {
        S3RequestStats stats = new S3RequestStats();
        BuildPlan plan = plan(name, columnName, stats);
        BuildCancellation cancellation = new BuildCancellation(name, plan.column().name(), cancelled);
        List<SegmentBuilder.NewSegment> added = new ArrayList<>();
        if (!plan.toRead().isEmpty()) {
            SegmentBuilder.SegmentSpec spec = new SegmentBuilder.SegmentSpec(SegmentBuilder.SegmentSpec.newName(), plan.knownType(), plan.indexedEntries(), 1);
            added.add(segmentBuilder.write(name, plan.table().companionFolder(), plan.column(), plan.toRead(), spec, cancellation, stats));
        }
        PublishResult published = publish(plan, added, cancellation, stats);
        if (!repairing && published.damaged()) {
            // the compaction found a damaged page: once more, now leaving that segment out and reading its files
            return build(name, columnName, cancelled, true);
        }
        return published.result();
    }

    /**
     * What a build found and decided on the coordinator, before any key column is read.
     *
     * @param indexed what the column's index is kept by ({@link KeyIndexLocations#indexedColumn})
     * @param kept the segments the build keeps: of the column's type, undamaged
     * @param toRead the files no kept segment covers, nor records as unindexable at their version
     * @param knownType the Parquet type the index hashes in, where segments are kept
     */
    public record BuildPlan(
            LakeTable table,
            TableSchemaReader.DataColumn column,
            String indexed,
            KeyIndexState state,
            List<KeyIndexState.LoadedSegment> kept,
            List<LakeFile> toRead,
            Optional<String> knownType,
            long startNanos)
    {
        public BuildPlan
        {
            requireNonNull(table, "table is null");
            requireNonNull(column, "column is null");
            requireNonNull(indexed, "indexed is null");
            requireNonNull(state, "state is null");
            kept = List.copyOf(kept);
            toRead = List.copyOf(toRead);
            requireNonNull(knownType, "knownType is null");
        }

        public long indexedEntries()
        {
            return kept.stream().mapToLong(loaded -> loaded.segment().entries()).sum();
        }

        public BuildPlan withKnownType(String type)
        {
            return new BuildPlan(table, column, indexed, state, kept, toRead, Optional.of(type), startNanos);
        }
    }

    /**
     * Lists the table now and finds the files the build reads: those no undamaged segment of the column's type covers
     * at their listed version.
     */
    public BuildPlan plan(SchemaTableName name, String columnName, S3RequestStats stats)
    {
        long start = System.nanoTime();
        LakeTable table = listNow(name, stats);
        TableSchemaReader.DataColumn column = dataColumn(table, columnName, stats);
        String indexed = KeyIndexLocations.indexedColumn(column);
        KeyIndexState state = KeyIndexState.read(indexReader, store, table.companionFolder(), indexed, stats);
        state.problems().forEach(problem -> log.warn("Key index of %s.%s: ignoring what cannot be read: %s", name, column.name(), problem));
        List<KeyIndexState.LoadedSegment> kept = state.segments().stream()
                .filter(loaded -> loaded.segment().header().trinoType().equals(column.type().getDisplayName()))
                .filter(loaded -> !damaged(table, indexed, loaded.reference()))
                .toList();
        KeyIndexState.Coverage coverage = new KeyIndexState(state.pointerEtag(), state.pointer(), kept, List.of()).coverage(table.filesByRelativePath());
        Set<String> covered = coverage.coveredPaths();
        // files read before at this version that could not be indexed are not read again
        List<LakeFile> toRead = table.files().stream()
                .filter(file -> !covered.contains(file.relativePath()) && !coverage.unindexablePaths().contains(file.relativePath()))
                .toList();
        log.info("Key index of %s.%s: %d files listed, %d covered, %d to read", name, column.name(), table.files().size(), covered.size(), toRead.size());
        // deltas hash in the newest segment's type, so compaction can merge them
        Optional<String> knownType = kept.reversed().stream().map(loaded -> loaded.segment().header().columnType()).findFirst();
        return new BuildPlan(table, column, indexed, state, kept, toRead, knownType, start);
    }

    /**
     * What publishing did.
     *
     * @param damaged whether a segment the pointer now names turned out damaged (found by compaction): a build on one
     * node reads its files again at once; otherwise the next build does
     */
    public record PublishResult(BuildResult result, boolean damaged) {}

    /**
     * Names the new segments in the pointer by compare-and-swap (merging them with the kept ones beyond
     * {@code key-index.max-segments}), unless the build was cancelled first: then they are deleted. Deletes orphans
     * older than {@code key-index.orphan-retention}.
     */
    public PublishResult publish(BuildPlan plan, List<SegmentBuilder.NewSegment> newSegments, BuildCancellation cancellation, S3RequestStats stats)
    {
        LakeTable table = plan.table();
        List<KeyIndexPointer.Segment> added = newSegments.stream().map(SegmentBuilder.NewSegment::reference).toList();
        KeyIndexPointer next = new KeyIndexPointer(plan.indexed(), plan.kept().stream().map(KeyIndexState.LoadedSegment::reference).toList());
        for (KeyIndexPointer.Segment segment : added) {
            next = next.withSegment(segment);
        }
        if (next.segments().size() > config.getMaxSegments()) {
            next = compacted(table, next, table.filesByRelativePath(), stats);
        }
        boolean committed = !added.isEmpty() || !next.equals(plan.state().pointer().orElse(null));
        if (committed) {
            next = commitOrRemove(table, plan.indexed(), plan.state().pointerEtag(), next, added, cancellation, stats);
            buildStats.committed();
        }
        long orphans = 0;
        try {
            orphans = publisher.deleteOrphans(table.companionFolder(), plan.indexed(), next, committed, stats);
        }
        catch (RuntimeException e) {
            // the index is published: orphans left now are deleted by a later build
            log.warn(e, "Key index of %s.%s: orphan segments not deleted", table.name(), plan.column().name());
        }
        boolean damaged = next.segments().stream().anyMatch(segment -> indexReader.isDamaged(table.companionFolder(), plan.indexed(), segment));
        int notIndexed = newSegments.stream().mapToInt(SegmentBuilder.NewSegment::notIndexed).sum();
        long millis = (System.nanoTime() - plan.startNanos()) / 1_000_000;
        BuildResult result = new BuildResult(
                plan.toRead().size() - notIndexed,
                notIndexed,
                added.stream().mapToLong(KeyIndexPointer.Segment::entries).sum(),
                added.stream().mapToLong(KeyIndexPointer.Segment::size).sum(),
                next.segments().size(),
                orphans,
                millis);
        log.info("Key index of %s.%s: %s; %d S3 GETs, %d LISTs", table.name(), plan.column().name(), result, stats.getRequests(), stats.listRequests());
        return new PublishResult(result, damaged);
    }

    /**
     * The segments merged into one; where a segment turns out damaged, the segments as they are, which stay correct.
     */
    private KeyIndexPointer compacted(LakeTable table, KeyIndexPointer pointer, Map<String, LakeFile> listed, S3RequestStats stats)
    {
        try {
            KeyIndexPointer compacted = compactor.compact(table.companionFolder(), pointer, listed, stats);
            buildStats.compacted();
            return compacted;
        }
        catch (TrinoException e) {
            log.warn("Key index of %s.%s: not compacted: %s", table.name(), pointer.column(), e.getMessage());
            return pointer;
        }
    }

    /**
     * Drops the column's index: the pointer first, from then on no reader uses the segments deleted after it.
     */
    public void drop(SchemaTableName name, String columnName)
    {
        S3RequestStats stats = new S3RequestStats();
        S3Location indexes = lakeTables.companionFolder(name, lakeTables.findTable(name, stats).orElseThrow(() -> new TableNotFoundException(name)));
        String wanted = columnName.toLowerCase(Locale.ROOT);
        LakeTable table = listNow(name, stats);
        // a table format's column is indexed by its field id too: the index of the column of that name now
        String indexed = table.snapshot().isEmpty() ? wanted : schemaReader.readColumns(table, stats).stream()
                .filter(column -> column.name().equals(wanted))
                .findFirst()
                .map(column -> KeyIndexLocations.indexedColumn(column.name(), column.fieldId(), column.mappedNames()))
                .orElse(wanted);
        publisher.drop(name, indexes, indexed, stats);
    }

    private LakeTable listNow(SchemaTableName name, S3RequestStats stats)
    {
        S3Location folder = lakeTables.findTable(name, stats).orElseThrow(() -> new TableNotFoundException(name));
        return lakeTables.listTableNow(name, folder, stats);
    }

    private TableSchemaReader.DataColumn dataColumn(LakeTable table, String columnName, S3RequestStats stats)
    {
        String wanted = columnName.toLowerCase(Locale.ROOT);
        if (table.partitionColumns().stream().anyMatch(partition -> partition.name().equals(wanted))) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Column %s of %s is a partition column: partition folders already prune it; index a data column".formatted(wanted, table.name()));
        }
        return schemaReader.readColumns(table, stats).stream()
                .filter(column -> column.name().equals(wanted))
                .findFirst()
                .orElseThrow(() -> new ColumnNotFoundException(table.name(), wanted));
    }

    private boolean damaged(LakeTable table, String column, KeyIndexPointer.Segment segment)
    {
        boolean damaged = indexReader.isDamaged(table.companionFolder(), column, segment);
        if (damaged) {
            buildStats.damagedSegmentDropped();
            log.warn("Key index of %s.%s: segment %s has a page that fails its checksum; it is dropped and the files it covered are read again", table.name(), column, segment.name());
        }
        return damaged;
    }

    /**
     * Replaces the pointer, unless the build was cancelled first: then the segment it uploaded is deleted, so a
     * cancelled build leaves nothing behind. (After a PUT was sent, a failure may follow a PUT that landed with its
     * answer lost: the segment is then left for the orphan cleanup, which keeps what a pointer names.)
     */
    private KeyIndexPointer commitOrRemove(LakeTable table, String column, Optional<String> expectedEtag, KeyIndexPointer next, List<KeyIndexPointer.Segment> added, BuildCancellation cancellation, S3RequestStats stats)
    {
        try {
            cancellation.check();
        }
        catch (TrinoException e) {
            added.forEach(segment -> publisher.deleteSegment(table.companionFolder(), column, segment, stats));
            throw e;
        }
        return publisher.publish(table.name(), table.companionFolder(), column, expectedEtag, next, added, stats);
    }
}
