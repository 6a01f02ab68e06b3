package io.parquetbloom.s3;

import io.airlift.log.Logger;
import io.parquetbloom.s3.S3ObjectStore.PutCondition;
import io.trino.spi.TrinoException;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_CONDITIONAL_WRITES_IGNORED;
import static java.util.Objects.requireNonNull;

/**
 * Whether a bucket's store honours conditional PUTs, found out once per bucket before the first conditional write to
 * it. Registrations ({@code If-None-Match: *}) and key index pointers ({@code If-Match}) are only safe where a second
 * writer's condition fails; a store that ignores the headers (older Ceph RGW, some gateways) lets racing writers
 * overwrite each other silently. The check writes a probe object next to the write, writes it again on the same
 * conditions (both must be refused), deletes it on a wrong ETag (must be refused too; only warned of, as only
 * {@code unregister_table} relies on it) and deletes it: five requests, once per bucket and catalog.
 */
final class ConditionalWrites
{
    private static final Logger log = Logger.get(ConditionalWrites.class);

    /**
     * The writes a check sends, as the store sends them.
     */
    interface Writer
    {
        /**
         * @return the new object's ETag, or empty when the condition did not hold
         */
        Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats);

        void delete(S3Location location, S3RequestStats stats);

        /**
         * @return false when the store refused the delete: the object's ETag is not {@code etag}
         */
        boolean deleteIfMatches(S3Location location, String etag, S3RequestStats stats);
    }

    private static final String WRONG_ETAG = "00000000000000000000000000000000";

    private final Writer writer;
    // by bucket: empty where the store honours both conditions, else what it ignored
    private final Map<String, Optional<String>> checked = new ConcurrentHashMap<>();

    ConditionalWrites(Writer writer)
    {
        this.writer = requireNonNull(writer, "writer is null");
    }

    /**
     * Fails, naming what the store ignored, unless the store of {@code target}'s bucket honours conditional PUTs.
     */
    void requireHonoured(S3Location target, S3RequestStats stats)
    {
        Optional<String> ignored = checked.get(target.bucket());
        if (ignored == null) {
            // not under the map's lock: two first writes racing may both check, and agree
            ignored = check(target, stats);
            checked.putIfAbsent(target.bucket(), ignored);
        }
        if (ignored.isPresent()) {
            throw new TrinoException(PARQUET_BLOOM_CONDITIONAL_WRITES_IGNORED, ("Cannot write %s: the S3 store of bucket %s ignores %s on PUT, so two writers racing for it would overwrite " +
                    "each other silently; registrations and key index builds need a store that honours conditional writes (AWS S3, MinIO, recent Ceph RGW)").formatted(target, target.bucket(), ignored.get()));
        }
    }

    private Optional<String> check(S3Location target, S3RequestStats stats)
    {
        String key = target.key();
        String folder = key.substring(0, key.lastIndexOf('/') + 1);
        S3Location probe = new S3Location(target.bucket(), folder + ".parquet-bloom-conditional-write-probe-" + UUID.randomUUID());
        byte[] bytes = {1};
        Optional<String> written = writer.write(probe, bytes, new PutCondition.Absent(), stats);
        if (written.isEmpty()) {
            // a fresh key refused: the store answers conditions, if oddly; the real write will tell
            return Optional.empty();
        }
        Optional<String> ignored = Optional.empty();
        try {
            if (writer.write(probe, bytes, new PutCondition.Absent(), stats).isPresent()) {
                ignored = ignored(target, "If-None-Match");
            }
            else if (writer.write(probe, bytes, new PutCondition.Matches(WRONG_ETAG), stats).isPresent()) {
                ignored = ignored(target, "If-Match");
            }
            else if (deletedAnyway(probe, stats)) {
                // only unregister_table deletes conditionally: warned of, not refused (it deleted so before)
                log.warn("The S3 store of bucket %s ignores If-Match on DELETE: unregister_table there may remove a registration made again meanwhile", target.bucket());
            }
        }
        finally {
            try {
                writer.delete(probe, stats);
            }
            catch (RuntimeException e) {
                // the probe's name is no table, schema or index object: left behind, it is only an object
                log.warn(e, "Could not delete the conditional write probe %s", probe);
            }
        }
        return ignored;
    }

    private boolean deletedAnyway(S3Location probe, S3RequestStats stats)
    {
        try {
            return writer.deleteIfMatches(probe, WRONG_ETAG, stats);
        }
        catch (RuntimeException e) {
            // a store that refuses the header outright: unregister_table will fail there, naming it
            log.warn(e, "The S3 store of bucket %s refused a conditional DELETE", probe.bucket());
            return false;
        }
    }

    private static Optional<String> ignored(S3Location target, String header)
    {
        log.warn("The S3 store of bucket %s ignores %s: registrations and key index builds in it are refused, and reads pinned to an object's ETag (If-Match) may not be pinned there", target.bucket(), header);
        return Optional.of(header);
    }
}
