package io.parquetbloom.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parquetbloom.testing.CountingProxy;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The key index part of {@code ./run bench lookups --key-index}: building the index of a table's key column, against
 * reading that column once through the connector (the yardstick for a build), its size, and a refresh after
 * files were added; each as a markdown row.
 */
final class KeyIndexBench
{
    private final List<String> rows = new ArrayList<>();

    /**
     * Reads the key column once (a fresh catalog, every pruning path and the index off; unless {@code yardstick} is
     * false), then builds the index in {@code lake}, cold too, through the same proxy: with {@code CALL
     * create_key_index} on the coordinator and, where {@code byCluster}, again with {@code ALTER TABLE ... EXECUTE
     * create_key_index} on the workers.
     */
    void build(DistributedQueryRunner runner, CountingProxy proxy, Function<String, Map<String, String>> catalogProperties, String table, String column, boolean yardstick, boolean byCluster)
    {
        double readMillis = Double.NaN;
        CountingProxy.Counts read = new CountingProxy.Counts(0, 0, 0, 0);
        if (yardstick) {
            readMillis = readOnce(runner, proxy, catalogProperties, table, column);
            read = proxy.counts();
        }
        progress("building the key index of %s.%s".formatted(table, column));
        timedBuild(runner, proxy, table, column, "build", "CALL lake.system.create_key_index('telemetry', '%s', '%s')".formatted(table, column), readMillis, read);
        if (byCluster) {
            runner.execute("CALL lake.system.drop_key_index('telemetry', '%s', '%s')".formatted(table, column));
            progress("building the key index of %s.%s again, by the cluster".formatted(table, column));
            timedBuild(runner, proxy, table, column, "build by the cluster", "ALTER TABLE lake.telemetry.%s EXECUTE create_key_index(column => '%s')".formatted(table, column), readMillis, read);
        }
    }

    private void timedBuild(DistributedQueryRunner runner, CountingProxy proxy, String table, String column, String what, String sql, double readMillis, CountingProxy.Counts read)
    {
        proxy.reset();
        long heapBefore = LoadLevels.usedHeapAfterGc();
        AtomicLong heapMax = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> heapMax.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max), 0, 200, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        runner.execute(sql);
        double buildMillis = (System.nanoTime() - start) / 1e6;
        sampler.shutdownNow();
        progress("heap while building (%s): at most %,d MB (%,d MB in use after a GC before it; the catalog's key-index.build-memory bounds the build's own share)".formatted(what, heapMax.get() >> 20, heapBefore >> 20));
        CountingProxy.Counts built = proxy.counts();
        long puts = proxy.requests().stream().filter(request -> request.method().equals("PUT")).count();
        MaterializedRow index = runner.execute("SELECT entries, index_bytes, bytes_per_entry, files_covered FROM lake.telemetry.\"%s$key_index\" WHERE column_name = '%s'".formatted(table, column)).getMaterializedRows().getFirst();
        rows.add(String.format(Locale.ROOT, "| %s %s.%s | %,.0f ms | %,d GETs, %.1f MiB, %d LISTs, %d PUTs | read once: %,.0f ms, %,d GETs, %.1f MiB | %.2fx | %,d entries, %,d bytes, %.2f B/entry, %,d files covered |",
                what, table, column, buildMillis, built.gets(), built.getBytes() / 1048576.0, built.lists(), puts, readMillis, read.gets(), read.getBytes() / 1048576.0, buildMillis / readMillis,
                (long) index.getField(0), (long) index.getField(1), (double) index.getField(2), (long) index.getField(3)));
        progress(rows.getLast());
    }

    private static double readOnce(DistributedQueryRunner runner, CountingProxy proxy, Function<String, Map<String, String>> catalogProperties, String table, String column)
    {
        String catalog = "key_index_read_once";
        runner.createCatalog(catalog, "parquet_bloom", catalogProperties.apply("parquet_bloom_no_index"));
        Session allOff = Session.builder(runner.getDefaultSession())
                .setCatalogSessionProperty(catalog, "bloom_filter_enabled", "false")
                .setCatalogSessionProperty(catalog, "statistics_pruning_enabled", "false")
                .setCatalogSessionProperty(catalog, "dictionary_pruning_enabled", "false")
                .build();
        proxy.reset();
        long start = System.nanoTime();
        runner.execute(allOff, "SELECT count(%s) FROM %s.telemetry.%s".formatted(column, catalog, table));
        double millis = (System.nanoTime() - start) / 1e6;
        runner.execute("DROP CATALOG " + catalog);
        return millis;
    }

    /**
     * Copies {@code files} of the table's data files under new names (new files to the index) and refreshes the index:
     * the requests beyond reading those files' key column are the cost of the refresh itself.
     */
    void refresh(DistributedQueryRunner runner, CountingProxy proxy, S3Client client, String bucket, String tablePrefix, String table, String column, int files)
    {
        List<S3Object> data = client.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(tablePrefix)).contents().stream()
                .filter(object -> object.key().endsWith(".parquet") && !object.key().contains("/_"))
                .limit(files)
                .toList();
        for (S3Object object : data) {
            String copy = object.key().replace(".parquet", "-added.parquet");
            client.copyObject(request -> request.sourceBucket(bucket).sourceKey(object.key()).destinationBucket(bucket).destinationKey(copy));
        }
        progress("refreshing the key index of %s.%s after adding %d files".formatted(table, column, data.size()));
        proxy.reset();
        long start = System.nanoTime();
        runner.execute("CALL lake.system.create_key_index('telemetry', '%s', '%s')".formatted(table, column));
        double millis = (System.nanoTime() - start) / 1e6;
        CountingProxy.Counts counts = proxy.counts();
        long puts = proxy.requests().stream().filter(request -> request.method().equals("PUT")).count();
        long tails = proxy.requests().stream().filter(request -> request.method().equals("GET") && request.target().endsWith("-added.parquet")).count();
        long index = proxy.requests().stream().filter(request -> request.target().contains("/_key_index/")).count();
        rows.add(String.format(Locale.ROOT, "| refresh %s.%s after %d files added | %,.0f ms | %,d GETs (%,d of the added files, %,d of the index), %d LISTs, %d PUTs, %.1f MiB | | | |",
                table, column, data.size(), millis, counts.gets(), tails, index, counts.lists(), puts, counts.getBytes() / 1048576.0));
        progress(rows.getLast());
        for (S3Object object : data) {
            client.deleteObject(request -> request.bucket(bucket).key(object.key().replace(".parquet", "-added.parquet")));
        }
    }

    /**
     * The segments the table's pointer names: bytes, trailer bytes (the page and file directories a cold lookup reads
     * whole), entries, files.
     */
    void describeSegments(S3Client client, String bucket, String tablePrefix, String column)
    {
        try {
            String key = tablePrefix + "_key_index/" + URLEncoder.encode(column, UTF_8) + "/_pointer";
            byte[] pointer = client.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray();
            JsonNode stored = new ObjectMapper().readTree(pointer);
            for (JsonNode segment : stored.get("segments")) {
                rows.add(String.format(Locale.ROOT, "| segment %s | | %,d bytes, trailer %,d bytes | | | %,d entries, %,d files |",
                        segment.get("name").asText(), segment.get("size").asLong(), segment.get("trailerBytes").asLong(), segment.get("entries").asLong(), segment.get("files").asLong()));
                progress(rows.getLast());
            }
        }
        catch (IOException | RuntimeException e) {
            progress("could not read the key index pointer: " + e);
        }
    }

    /**
     * The rows of {@link #markdown()}, for the JSON report.
     */
    List<String> rows()
    {
        return List.copyOf(rows);
    }

    String markdown()
    {
        if (rows.isEmpty()) {
            return "";
        }
        return "| key index | time | requests | yardstick | build / read once | index |\n|---|---|---|---|---|---|\n" + String.join("\n", rows) + "\n";
    }

    private static void progress(String message)
    {
        System.out.println("[bench] " + message);
    }
}
