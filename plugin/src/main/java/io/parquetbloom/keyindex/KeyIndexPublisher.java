package io.parquetbloom.keyindex;

import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_KEY_INDEX_CONFLICT;
import static java.util.Objects.requireNonNull;

/**
 * Makes what a build wrote visible, and removes what nobody names: replaces a column's pointer by compare-and-swap
 * (never losing another build's segment), deletes orphan segments, and drops an index. A segment becomes part of the
 * index only through {@link #publish}; until then readers never see it.
 */
public class KeyIndexPublisher
{
    private static final Logger log = Logger.get(KeyIndexPublisher.class);
    private static final int MAX_POINTER_ATTEMPTS = 10;

    private final KeyIndexBuildPlans runningBuilds;
    private final S3ObjectStore store;
    private final KeyIndexReader indexReader;
    private final LakeTables lakeTables;
    private final KeyIndexBuildStats buildStats;
    private final long orphanRetentionMillis;

    @Inject
    public KeyIndexPublisher(S3ObjectStore store, KeyIndexReader indexReader, LakeTables lakeTables, KeyIndexConfig config, KeyIndexBuildStats buildStats, KeyIndexBuildPlans runningBuilds)
    {
        this.runningBuilds = requireNonNull(runningBuilds, "runningBuilds is null");
        this.store = requireNonNull(store, "store is null");
        this.indexReader = requireNonNull(indexReader, "indexReader is null");
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.buildStats = requireNonNull(buildStats, "buildStats is null");
        this.orphanRetentionMillis = config.getOrphanRetention().toMillis();
    }

    /**
     * Replaces the pointer by compare-and-swap. When another builder replaced it first, this build's segments are added
     * to what that builder committed, so neither loses its work.
     */
    public KeyIndexPointer publish(SchemaTableName table, S3Location indexes, String column, Optional<String> expectedEtag, KeyIndexPointer next, List<KeyIndexPointer.Segment> added, S3RequestStats stats)
    {
        S3Location location = KeyIndexLocations.pointer(indexes, column);
        Optional<String> etag = expectedEtag;
        KeyIndexPointer pointer = next;
        for (int attempt = 1; attempt <= MAX_POINTER_ATTEMPTS; attempt++) {
            S3ObjectStore.PutCondition condition = etag.<S3ObjectStore.PutCondition>map(S3ObjectStore.PutCondition.Matches::new).orElseGet(S3ObjectStore.PutCondition.Absent::new);
            if (store.write(location, pointer.serialize(), condition, stats).isPresent()) {
                lakeTables.flushListings(table::equals);
                return pointer;
            }
            log.info("Key index of %s.%s: pointer replaced by another build (attempt %d); adding this build's segment to it", table, column, attempt);
            KeyIndexState current = KeyIndexState.read(indexReader, store, indexes, column, stats);
            buildStats.pointerConflict();
            if (etag.isPresent() && current.pointerEtag().isEmpty()) {
                buildStats.droppedWhileBuilding();
                // drop_key_index deleted the pointer after this build read it: the later request wins, and none of
                // this build's PUTs landed (the pointer would be there), so its segment goes too
                added.forEach(segment -> deleteSegment(indexes, column, segment, stats));
                throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_CONFLICT, "Key index of %s.%s was dropped while this build ran; nothing was recorded. Run create_key_index again to build it".formatted(table, column));
            }
            etag = current.pointerEtag();
            KeyIndexPointer theirs = current.pointer().orElse(new KeyIndexPointer(column, List.of()));
            if (!added.isEmpty() && theirs.segments().containsAll(added)) {
                // our own PUT landed and its answer was lost (the SDK's retry then met our pointer)
                buildStats.ownPointerFound();
                return theirs;
            }
            pointer = theirs;
            for (KeyIndexPointer.Segment segment : added) {
                pointer = pointer.withSegment(segment);
            }
        }
        throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_CONFLICT, "Key index of %s.%s: the pointer %s kept changing under %d attempts to replace it; run create_key_index again".formatted(table, column, location, MAX_POINTER_ATTEMPTS));
    }

    /**
     * Deletes segments that neither the pointer this build committed nor the pointer as it is now names, once older
     * than the retention (a younger one may be a running build's, not yet named).
     *
     * @param committed whether this build replaced the pointer, which another build may have replaced since
     */
    public long deleteOrphans(S3Location indexes, String column, KeyIndexPointer pointer, boolean committed, S3RequestStats stats)
    {
        Set<String> named = new HashSet<>();
        pointer.segments().forEach(segment -> named.add(segment.name()));
        // segments of builds by the cluster still running on this coordinator are not orphans, however old
        named.addAll(runningBuilds.allSegments());
        if (committed) {
            store.readWhole(KeyIndexLocations.pointer(indexes, column), stats).ifPresent(current -> named.addAll(segmentNames(current.bytes())));
        }
        Instant cutoff = Instant.now().minusMillis(orphanRetentionMillis);
        long deleted = 0;
        for (S3ObjectStore.ListedObject object : store.listWithAges(KeyIndexLocations.folder(indexes, column), stats)) {
            String key = object.object().location().key();
            String name = key.substring(key.lastIndexOf('/') + 1);
            if (name.endsWith(KeyIndexFormat.SEGMENT_SUFFIX) && !named.contains(name) && !object.lastModified().isAfter(cutoff)) {
                store.delete(object.object().location(), stats);
                deleted++;
            }
        }
        return deleted;
    }

    private static Set<String> segmentNames(byte[] pointer)
    {
        try {
            return KeyIndexPointer.parse(pointer, "pointer").segments().stream().map(KeyIndexPointer.Segment::name).collect(Collectors.toSet());
        }
        catch (KeyIndexUnusableException e) {
            // an unreadable pointer names nothing a reader could use
            return Set.of();
        }
    }

    /**
     * Deletes a segment no pointer names; one that cannot be deleted is an orphan the next build deletes once older
     * than {@code key-index.orphan-retention}.
     */
    public void deleteSegment(S3Location indexes, String column, KeyIndexPointer.Segment segment, S3RequestStats stats)
    {
        deleteSegment(indexes, column, segment.name(), stats);
    }

    /**
     * @see #deleteSegment(S3Location, String, KeyIndexPointer.Segment, S3RequestStats)
     */
    public void deleteSegment(S3Location indexes, String column, String name, S3RequestStats stats)
    {
        S3Location location = KeyIndexLocations.segment(indexes, column, name);
        try {
            store.delete(location, stats);
        }
        catch (RuntimeException e) {
            log.warn("Cannot delete %s: %s", location, e.getMessage());
        }
    }

    /**
     * Drops the column's index: the pointer first, from then on no reader uses the segments deleted after it.
     */
    public void drop(SchemaTableName table, S3Location indexes, String column, S3RequestStats stats)
    {
        store.delete(KeyIndexLocations.pointer(indexes, column), stats);
        lakeTables.flushListings(table::equals);
        for (S3ObjectStore.ListedObject object : store.listWithAges(KeyIndexLocations.folder(indexes, column), stats)) {
            store.delete(object.object().location(), stats);
        }
        log.info("Key index of %s.%s dropped", table, column);
    }
}
