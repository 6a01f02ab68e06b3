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
        long start = System.nanoTime();
        S3RequestStats stats = new S3RequestStats();
        LakeTable table = listNow(name, stats);
        TableSchemaReader.DataColumn column = dataColumn(table, columnName, stats);
        String indexed = KeyIndexLocations.indexedColumn(column);
        BuildCancellation cancellation = new BuildCancellation(name, column.name(), cancelled);
        KeyIndexState state = KeyIndexState.read(indexReader, store, table.companionFolder(), indexed, stats);
        state.problems().forEach(problem -> log.warn("Key index of %s.%s: ignoring what cannot be read: %s", name, column.name(), problem));
        List<KeyIndexState.LoadedSegment> kept = state.segments().stream()
                .filter(loaded -> loaded.segment().header().trinoType().equals(column.type().getDisplayName()))
                .filter(loaded -> !damaged(table, indexed, loaded.reference()))
                .toList();
        Map<String, LakeFile> listed = table.filesByRelativePath();
        KeyIndexState.Coverage coverage = new KeyIndexState(state.pointerEtag(), state.pointer(), kept, List.of()).coverage(listed);
        Set<String> covered = coverage.coveredPaths();
        // files read before at this version that could not be indexed are not read again
        List<LakeFile> toRead = table.files().stream()
                .filter(file -> !covered.contains(file.relativePath()) && !coverage.unindexablePaths().contains(file.relativePath()))
                .toList();
        KeyIndexPointer base = new KeyIndexPointer(indexed, kept.stream().map(KeyIndexState.LoadedSegment::reference).toList());
        log.info("Key index of %s.%s: %d files listed, %d covered, %d to read", name, column.name(), table.files().size(), covered.size(), toRead.size());
        Optional<KeyIndexPointer.Segment> added = Optional.empty();
        int notIndexed = 0;
        if (!toRead.isEmpty()) {
            // deltas hash in the newest segment's type, so compaction can merge them; their hash keeps as many bits as
            // the whole index needs, so merging never cuts it shorter than a lookup of the whole table wants
            Optional<String> knownType = kept.reversed().stream().map(loaded -> loaded.segment().header().columnType()).findFirst();
            long indexedEntries = kept.stream().mapToLong(loaded -> loaded.segment().entries()).sum();
            SegmentBuilder.NewSegment segment = segmentBuilder.write(table, column, toRead, knownType, indexedEntries, start, cancellation, stats);
            added = Optional.of(segment.reference());
            notIndexed = segment.notIndexed();
        }
        KeyIndexPointer next = added.map(base::withSegment).orElse(base);
        if (next.segments().size() > config.getMaxSegments()) {
            next = compacted(table, next, listed, stats);
        }
        boolean committed = added.isPresent() || !next.equals(state.pointer().orElse(null));
        if (committed) {
            next = commitOrRemove(table, indexed, state.pointerEtag(), next, added, cancellation, stats);
            buildStats.committed();
        }
        long orphans = publisher.deleteOrphans(table.companionFolder(), indexed, next, committed, stats);
        if (!repairing && next.segments().stream().anyMatch(segment -> indexReader.isDamaged(table.companionFolder(), indexed, segment))) {
            // the compaction found a damaged page: once more, now leaving that segment out and reading its files
            return build(name, columnName, cancelled, true);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        BuildResult result = new BuildResult(toRead.size() - notIndexed, notIndexed, added.map(KeyIndexPointer.Segment::entries).orElse(0L), added.map(KeyIndexPointer.Segment::size).orElse(0L), next.segments().size(), orphans, millis);
        log.info("Key index of %s.%s: %s; %d S3 GETs, %d LISTs", name, column.name(), result, stats.getRequests(), stats.listRequests());
        return result;
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
    private KeyIndexPointer commitOrRemove(LakeTable table, String column, Optional<String> expectedEtag, KeyIndexPointer next, Optional<KeyIndexPointer.Segment> added, BuildCancellation cancellation, S3RequestStats stats)
    {
        try {
            cancellation.check();
        }
        catch (TrinoException e) {
            added.ifPresent(segment -> publisher.deleteSegment(table.companionFolder(), column, segment, stats));
            throw e;
        }
        return publisher.publish(table.name(), table.companionFolder(), column, expectedEtag, next, added, stats);
    }
}
