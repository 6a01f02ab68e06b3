package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableList;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.TrinoException;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * A column's index as S3 holds it now, read without caches: the pointer (with its ETag, the condition of the next
 * replacement, even when its content is unreadable) and each segment it names that could be read. What a builder
 * extends and what {@code "t$key_index"} reports.
 *
 * @param pointerEtag the pointer object's ETag; empty when there is none
 * @param pointer the parsed pointer; empty when there is none or it is unreadable
 * @param problems what could not be read, in words
 */
public record KeyIndexState(Optional<String> pointerEtag, Optional<KeyIndexPointer> pointer, List<LoadedSegment> segments, List<String> problems)
{
    public record LoadedSegment(KeyIndexPointer.Segment reference, KeyIndexSegment segment) {}

    /**
     * How the listing relates to the index: a listed file is covered when a segment records it at the same size and
     * ETag, stale when segments record it only at another version (or could not index it), uncovered otherwise;
     * deleted files are recorded but no longer listed.
     *
     * @param unindexablePaths listed files a build read at this version and could not index (reading them again
     * would not help)
     */
    public record Coverage(int covered, int stale, int uncovered, int deleted, Set<String> coveredPaths, Set<String> unindexablePaths) {}

    public KeyIndexState
    {
        requireNonNull(pointerEtag, "pointerEtag is null");
        requireNonNull(pointer, "pointer is null");
        segments = ImmutableList.copyOf(requireNonNull(segments, "segments is null"));
        problems = ImmutableList.copyOf(requireNonNull(problems, "problems is null"));
    }

    public static KeyIndexState read(KeyIndexReader reader, S3ObjectStore store, S3Location table, String column, S3RequestStats stats)
    {
        S3Location location = KeyIndexLocations.pointer(table, column);
        Optional<S3ObjectStore.StoredObject> object = store.readWhole(location, stats);
        if (object.isEmpty()) {
            return new KeyIndexState(Optional.empty(), Optional.empty(), List.of(), List.of());
        }
        ImmutableList.Builder<String> problems = ImmutableList.builder();
        KeyIndexPointer pointer;
        try {
            pointer = KeyIndexPointer.parse(object.get().bytes(), location.toString());
        }
        catch (KeyIndexUnusableException e) {
            problems.add(e.getMessage());
            return new KeyIndexState(Optional.of(object.get().etag()), Optional.empty(), List.of(), problems.build());
        }
        ImmutableList.Builder<LoadedSegment> segments = ImmutableList.builder();
        for (KeyIndexPointer.Segment reference : pointer.segments()) {
            try {
                segments.add(new LoadedSegment(reference, reader.segment(table, column, reference, stats)));
            }
            catch (KeyIndexUnusableException e) {
                if (transientFailure(e)) {
                    // a segment that could not be read now is not a damaged one: whoever asked must not drop it
                    throw (TrinoException) e.getCause();
                }
                problems.add(e.getMessage());
            }
        }
        return new KeyIndexState(Optional.of(object.get().etag()), Optional.of(pointer), segments.build(), problems.build());
    }

    /**
     * Whether the segment could not be read for a reason other than its being missing, changed or damaged (S3 errors,
     * throttling, timeouts, denied access).
     */
    private static boolean transientFailure(KeyIndexUnusableException e)
    {
        if (!(e.getCause() instanceof TrinoException trino)) {
            return false;
        }
        return !trino.getErrorCode().equals(PARQUET_BLOOM_OBJECT_CHANGED.toErrorCode())
                && !trino.getErrorCode().equals(PARQUET_BLOOM_OBJECT_NOT_FOUND.toErrorCode())
                && !trino.getErrorCode().equals(PARQUET_BLOOM_BAD_DATA.toErrorCode());
    }

    public Coverage coverage(Map<String, LakeFile> listed)
    {
        Map<String, Boolean> recorded = new HashMap<>();
        Set<String> unindexable = new HashSet<>();
        for (LoadedSegment loaded : segments) {
            for (IndexedFile file : loaded.segment().files()) {
                LakeFile listedFile = listed.get(file.path());
                boolean sameVersion = listedFile != null && file.isVersionOf(listedFile);
                recorded.merge(file.path(), sameVersion && file.indexed(), Boolean::logicalOr);
                if (sameVersion && !file.indexed()) {
                    unindexable.add(file.path());
                }
            }
        }
        Set<String> covered = new HashSet<>();
        int stale = 0;
        int deleted = 0;
        for (Map.Entry<String, Boolean> entry : recorded.entrySet()) {
            if (!listed.containsKey(entry.getKey())) {
                deleted++;
            }
            else if (entry.getValue()) {
                covered.add(entry.getKey());
            }
            else {
                stale++;
            }
        }
        int uncovered = (int) listed.keySet().stream().filter(path -> !recorded.containsKey(path)).count();
        unindexable.removeAll(covered);
        return new Coverage(covered.size(), stale, uncovered, deleted, covered, unindexable);
    }
}
