package io.parquetbloom.delta;

import com.google.common.cache.Cache;
import io.parquetbloom.s3.S3Location;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.spi.TrinoException;

import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;

import static io.trino.cache.CacheUtils.uncheckedCacheGet;

/**
 * Delta Lake tables as of versions of their logs, kept by table and version (a version never changes): the current
 * one is the newest known, brought up to date with the commits listed after it, so that a warm query costs one LIST
 * of {@code _delta_log/} and reads only new commits. A cold read lists from the checkpoint {@code _last_checkpoint}
 * names, or the whole log where that fails.
 *
 * @param <T> what is kept of a version besides its replay (the table view built from it)
 */
final class DeltaSnapshots<T>
{
    record Loaded<T>(DeltaSnapshot snapshot, Instant committedAt, T view) {}

    private record VersionKey(String table, S3Location location, long version) {}

    private record TableKey(String table, S3Location location) {}

    private final Cache<VersionKey, Loaded<T>> versions;
    private final Cache<TableKey, Long> newest;

    DeltaSnapshots(int maxEntries)
    {
        this.versions = EvictableCacheBuilder.newBuilder().maximumSize(maxEntries).shareNothingWhenDisabled().build();
        this.newest = EvictableCacheBuilder.newBuilder().maximumSize(maxEntries).shareNothingWhenDisabled().build();
    }

    /**
     * The table as of its newest version.
     *
     * @param view builds what is kept of a version with it
     */
    Loaded<T> current(String table, DeltaLogFiles log, Function<DeltaSnapshot, T> view)
    {
        TableKey key = new TableKey(table, log.location());
        Long known = newest.getIfPresent(key);
        Loaded<T> cached = known == null ? null : versions.getIfPresent(new VersionKey(table, log.location(), known));
        Loaded<T> loaded = cached == null ? load(table, log, OptionalLong.empty(), view) : updated(table, log, cached, view);
        if (known == null || known != loaded.snapshot().version()) {
            newest.invalidate(key);
            // get stores where the cache keeps anything (put is refused by one sized 0)
            uncheckedCacheGet(newest, key, () -> loaded.snapshot().version());
        }
        return loaded;
    }

    /**
     * The table as of {@code version}.
     */
    Loaded<T> at(String table, DeltaLogFiles log, long version, Function<DeltaSnapshot, T> view)
    {
        Loaded<T> cached = versions.getIfPresent(new VersionKey(table, log.location(), version));
        return cached != null ? cached : load(table, log, OptionalLong.of(version), view);
    }

    void flush()
    {
        versions.invalidateAll();
        newest.invalidateAll();
    }

    private Loaded<T> updated(String table, DeltaLogFiles log, Loaded<T> cached, Function<DeltaSnapshot, T> view)
    {
        TreeMap<String, Instant> names = log.namesAfterCommit(cached.snapshot().version());
        Map<Long, String> commits = new TreeMap<>();
        names.keySet().forEach(name -> DeltaLogSegment.commitVersion(name).ifPresent(version -> commits.put(version, name)));
        if (commits.isEmpty()) {
            return cached;
        }
        DeltaLogReplay replay = DeltaLogReplay.after(table, cached.snapshot());
        try {
            commits.forEach((version, name) -> replay.commit(version, DeltaLogParser.parse(name, log.read(name))));
        }
        catch (TrinoException e) {
            // a commit missing after the cached version (the log rewritten, not appended): read as a cold table
            return load(table, log, OptionalLong.empty(), view);
        }
        DeltaSnapshot snapshot = replay.snapshot();
        return remember(table, log, snapshot, names, view);
    }

    private Loaded<T> load(String table, DeltaLogFiles log, OptionalLong version, Function<DeltaSnapshot, T> view)
    {
        OptionalLong hint = log.lastCheckpoint();
        if (hint.isPresent() && (version.isEmpty() || hint.getAsLong() <= version.getAsLong())) {
            TreeMap<String, Instant> names = log.namesFrom(hint.getAsLong());
            try {
                return remember(table, log, DeltaLogReader.read(table, names.keySet(), version, log), names, view);
            }
            catch (TrinoException e) {
                // the hint's checkpoint incomplete or gone: the whole log decides
            }
        }
        TreeMap<String, Instant> names = log.namesFrom(0);
        return remember(table, log, DeltaLogReader.read(table, names.keySet(), version, log), names, view);
    }

    private Loaded<T> remember(String table, DeltaLogFiles log, DeltaSnapshot snapshot, TreeMap<String, Instant> names, Function<DeltaSnapshot, T> view)
    {
        // when the version was committed: its commit's own record, else when its commit (or checkpoint) was written
        Instant written = names.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(DeltaLogSegment.versionName(snapshot.version()) + "."))
                .map(Map.Entry::getValue)
                .min(Instant::compareTo)
                .orElse(Instant.EPOCH);
        Instant committedAt = snapshot.committedAt().isPresent() ? Instant.ofEpochMilli(snapshot.committedAt().getAsLong()) : written;
        Loaded<T> loaded = new Loaded<>(snapshot, committedAt, view.apply(snapshot));
        return uncheckedCacheGet(versions, new VersionKey(table, log.location(), snapshot.version()), () -> loaded);
    }
}
