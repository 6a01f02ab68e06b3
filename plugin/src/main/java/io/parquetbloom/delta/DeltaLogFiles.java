package io.parquetbloom.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.s3.UnorderedListingException;
import io.trino.spi.TrinoException;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static java.util.Objects.requireNonNull;

/**
 * A Delta Lake table's {@code _delta_log/} on S3, for one read of it: the names of its commits and checkpoints, listed
 * from a version on (S3 lists keys in order, and the log's names are its versions zero-padded to 20 digits), and its
 * files read whole. Its {@code _sidecars/} and other folders sort after every version and are never listed.
 */
final class DeltaLogFiles
        implements DeltaLogReader.LogFiles
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    // after the name of every version's file: '_' and every letter sort after the digits
    private static final String AFTER_EVERY_VERSION = "99999999999999999999.~";

    private final S3ObjectStore store;
    private final S3Location log;
    private final S3RequestStats stats;

    DeltaLogFiles(S3ObjectStore store, S3Location table, S3RequestStats stats)
    {
        this.store = requireNonNull(store, "store is null");
        this.log = table.asPrefix().child("_delta_log/");
        this.stats = requireNonNull(stats, "stats is null");
    }

    S3Location location()
    {
        return log;
    }

    /**
     * The version {@code _last_checkpoint} names: a hint where to start listing (it may lag behind a newer checkpoint,
     * or be missing); empty where there is none or it cannot be read.
     */
    OptionalLong lastCheckpoint()
    {
        Optional<S3ObjectStore.StoredObject> stored = store.readWhole(log.child("_last_checkpoint"), stats);
        if (stored.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            JsonNode version = MAPPER.readTree(stored.get().bytes()).path("version");
            return version.canConvertToExactIntegral() && version.asLong() >= 0 ? OptionalLong.of(version.asLong()) : OptionalLong.empty();
        }
        catch (IOException e) {
            // only a hint: the whole log is listed instead
            return OptionalLong.empty();
        }
    }

    /**
     * The names of the log's files of versions {@code from} (inclusive) on, with when each was written, in name order.
     */
    TreeMap<String, Instant> namesFrom(long from)
    {
        // every name of a version starts with its 20 digits: those of {@code from} sort right after the digits alone
        Optional<String> startAfter = from == 0 ? Optional.empty() : Optional.of(log.key() + DeltaLogSegment.versionName(from));
        return names(startAfter);
    }

    /**
     * The names of the log's files of versions after {@code version}'s commit.
     */
    TreeMap<String, Instant> namesAfterCommit(long version)
    {
        return names(Optional.of(log.key() + DeltaLogSegment.versionName(version) + ".json"));
    }

    private TreeMap<String, Instant> names(Optional<String> startAfter)
    {
        String lastKey = log.key() + AFTER_EVERY_VERSION;
        TreeMap<String, Instant> names = new TreeMap<>();
        try {
            for (ListedObject object : store.listObjectsBetween(log, startAfter, Optional.of(lastKey), stats)) {
                add(names, object);
            }
        }
        catch (UnorderedListingException e) {
            // a store that lists out of key order: every name, then those in range
            for (ListedObject object : store.listWithAges(log, stats)) {
                if (startAfter.map(after -> S3ObjectStore.compareKeys(object.key(), after) > 0).orElse(true) && S3ObjectStore.compareKeys(object.key(), lastKey) <= 0) {
                    add(names, object);
                }
            }
        }
        return names;
    }

    private void add(Map<String, Instant> names, ListedObject object)
    {
        String name = object.key().substring(log.key().length());
        if (name.indexOf('/') < 0) {
            names.put(name, object.lastModified());
        }
    }

    @Override
    public byte[] read(String name)
    {
        return store.readWhole(log.child(name), stats)
                .orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake log file %s is gone: the log was cleaned up while it was read, or is damaged".formatted(log.child(name))))
                .bytes();
    }
}
