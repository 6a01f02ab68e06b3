package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.DeltaLogWriter;
import io.trino.testing.DistributedQueryRunner;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import static io.parquetbloom.testing.DeltaLogWriter.field;
import static io.parquetbloom.testing.DeltaLogWriter.metadata;
import static io.parquetbloom.testing.DeltaLogWriter.protocol;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The bench's tables as Delta Lake tables over the very data files the folder tables hold, for {@code --table-format
 * delta}: a log whose {@code add}s name the files by absolute path (as a table converted in place, or one whose files
 * another writer placed), in commits of {@value #FILES_PER_COMMIT} files, at {@code s3://lake/delta/telemetry/<table>/};
 * {@code events} partitioned by {@code year} and {@code month} (their values from the log), no statistics (as Hive
 * has none to exclude a file by). {@code events} ends in a checkpoint (a v2 checkpoint in JSON, with
 * {@code _last_checkpoint}); {@code events_commits} is the same table with its commits alone, to measure what reading
 * the log costs either way. No file is dead, so Hive's reading of the folder is a fair peer.
 */
final class DeltaLake
{
    static final String ROOT = "delta/";
    static final int FILES_PER_COMMIT = 100;

    private DeltaLake() {}

    static void adopt(S3Client s3, String bucket, String lakeRoot)
    {
        List<ObjectNode> events = List.of(field("device_id", "string"), field("trace_id", "string"), field("voltage", "double"),
                field("event_timestamp", "timestamp_ntz"), field("year", "long"), field("month", "long"));
        List<ObjectNode> eventFiles = adds(s3, bucket, lakeRoot + "telemetry/events/", true);
        write(s3, bucket, "events", events, List.of("year", "month"), eventFiles, true);
        write(s3, bucket, "events_commits", events, List.of("year", "month"), eventFiles, false);
        write(s3, bucket, "keys", List.of(field("device_id", "string")), List.of(), adds(s3, bucket, lakeRoot + "telemetry/keys/", false), true);
    }

    private static void write(S3Client s3, String bucket, String table, List<ObjectNode> fields, List<String> partitionColumns, List<ObjectNode> adds, boolean checkpoint)
    {
        DeltaLogWriter log = new DeltaLogWriter(s3, bucket, ROOT + "telemetry/" + table + "/");
        ObjectNode protocol = protocol(3, 7, List.of("timestampNtz", "v2Checkpoint"));
        ObjectNode metadata = metadata(table, fields, partitionColumns, Map.of());
        long version = 0;
        List<ObjectNode> first = new ArrayList<>(List.of(protocol, metadata));
        for (int start = 0; start < adds.size() || version == 0; start += FILES_PER_COMMIT) {
            List<ObjectNode> actions = version == 0 ? first : new ArrayList<>();
            actions.addAll(adds.subList(Math.min(start, adds.size()), Math.min(adds.size(), start + FILES_PER_COMMIT)));
            log.commit(version, 1_760_000_000_000L + version * 1000, actions);
            version++;
        }
        if (checkpoint) {
            long at = version - 1;
            StringBuilder json = new StringBuilder();
            json.append("{\"checkpointMetadata\":{\"version\":%d}}\n".formatted(at));
            json.append(protocol).append('\n').append(metadata).append('\n');
            adds.forEach(add -> json.append(add).append('\n'));
            String name = "%020d.checkpoint.%s.json".formatted(at, UUID.nameUUIDFromBytes(table.getBytes(UTF_8)));
            log.put("_delta_log/" + name, json.toString().getBytes(UTF_8));
            log.put("_delta_log/_last_checkpoint", "{\"version\":%d,\"size\":%d}".formatted(at, adds.size() + 2).getBytes(UTF_8));
        }
    }

    /**
     * An {@code add} of every Parquet file below {@code prefix}, by its absolute path; partition values from its
     * {@code key=value} folders.
     */
    private static List<ObjectNode> adds(S3Client s3, String bucket, String prefix, boolean partitioned)
    {
        List<ObjectNode> adds = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents()) {
            String relative = object.key().substring(prefix.length());
            if (!relative.endsWith(".parquet")) {
                continue;
            }
            Map<String, String> values = new HashMap<>();
            if (partitioned) {
                for (String folder : relative.split("/")) {
                    int equals = folder.indexOf('=');
                    if (equals > 0) {
                        values.put(folder.substring(0, equals), folder.substring(equals + 1));
                    }
                }
            }
            adds.add(DeltaLogWriter.add("s3://%s/%s".formatted(bucket, object.key()), values, object.size(), object.lastModified().toEpochMilli(), Optional.empty(), Optional.empty()));
        }
        return adds;
    }

    /**
     * What reading the log costs: a fresh catalog's first query of a table (its log read cold) and its second (warm),
     * each selecting no partition (so no data file is read), for the table with a checkpoint and the one without.
     */
    static List<String> measureLog(DistributedQueryRunner runner, CountingProxy proxy, Function<String, Map<String, String>> catalogProperties)
    {
        List<String> lines = new ArrayList<>();
        int catalog = 0;
        for (String table : List.of("events", "events_commits")) {
            for (int repeat = 0; repeat < 3; repeat++) {
                String name = "delta_log_" + catalog++;
                runner.createCatalog(name, "parquet_bloom", catalogProperties.apply(name));
                for (String phase : List.of("cold", "warm")) {
                    proxy.reset();
                    long started = System.nanoTime();
                    runner.execute("SELECT count(*) FROM %s.telemetry.%s WHERE year = 1900".formatted(name, table));
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    CountingProxy.Counts counts = proxy.counts();
                    lines.add("%s %s (run %d): %d ms, %d GETs (%,d bytes), %d LISTs".formatted(table, phase, repeat + 1, millis, counts.gets(), counts.getBytes(), counts.lists()));
                }
            }
        }
        return lines;
    }
}
