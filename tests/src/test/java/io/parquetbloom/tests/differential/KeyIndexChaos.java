package io.parquetbloom.tests.differential;

import io.trino.testing.DistributedQueryRunner;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static java.util.Objects.requireNonNull;

/**
 * What happens to key indexes between the differential test's batches, none of which may change an answer: indexes
 * built and refreshed, files renamed under a built index (one path deleted, one added: stale), segments damaged
 * under a pointer that names the damaged version, segments deleted, pointers garbled, indexes dropped, and builds
 * running while queries run (leaving an orphan segment beside them).
 */
final class KeyIndexChaos
{
    private final DistributedQueryRunner runner;
    private final S3Client client;
    private final Map<String, List<String>> files;
    private final Map<String, Long> events = new TreeMap<>();
    private CompletableFuture<?> background = CompletableFuture.completedFuture(null);
    private int moves;

    /**
     * @param files the object keys (relative to the table) of each table, kept current as files are renamed
     */
    KeyIndexChaos(DistributedQueryRunner runner, S3Client client, Map<String, List<String>> files)
    {
        this.runner = requireNonNull(runner, "runner is null");
        this.client = requireNonNull(client, "client is null");
        this.files = requireNonNull(files, "files is null");
    }

    Map<String, Long> events()
    {
        return events;
    }

    /**
     * An index on every data column of the table (a column no file can index is built and covers nothing).
     */
    void buildAll(RandomTable table)
    {
        for (RandomTable.Column column : indexable(table)) {
            build(table, column);
        }
    }

    /**
     * One random event on one of the tables' indexes.
     */
    void event(List<RandomTable> tables, SplittableRandom random)
    {
        RandomTable table = tables.get(random.nextInt(tables.size()));
        List<RandomTable.Column> columns = indexable(table);
        if (columns.isEmpty()) {
            return;
        }
        RandomTable.Column column = columns.get(random.nextInt(columns.size()));
        switch (random.nextInt(7)) {
            case 0, 1 -> build(table, column);
            case 2 -> {
                // stale for every index of the table but one, which a refresh brings up to date with a delta that
                // the differential catalogs' key-index.max-segments=1 merges with the base at once (compaction)
                renameFile(table, random);
                build(table, column);
            }
            case 3 -> damageSegment(table, column, random);
            case 4 -> garblePointer(table, column);
            case 5 -> {
                runner.execute("CALL lake.system.drop_key_index('diff', '%s', '%s')".formatted(table.name(), column.sqlName()));
                events.merge("dropped", 1L, Long::sum);
            }
            default -> rebuildWhileQueriesRun(table, column);
        }
    }

    /**
     * Waits for a build started by {@link #rebuildWhileQueriesRun}.
     */
    void awaitBackground()
    {
        try {
            background.get();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
        catch (ExecutionException e) {
            throw new AssertionError("a background key index build failed", e.getCause());
        }
    }

    private static List<RandomTable.Column> indexable(RandomTable table)
    {
        if (table.unlocatableRowGroup()) {
            // a build reads every row group; this table's damaged one fails it, as any read of it fails
            return List.of();
        }
        return table.columns().stream().filter(column -> !column.partition()).toList();
    }

    private void build(RandomTable table, RandomTable.Column column)
    {
        runner.execute("CALL lake.system.create_key_index('diff', '%s', '%s')".formatted(table.name(), column.sqlName()));
        events.merge("built", 1L, Long::sum);
    }

    private void rebuildWhileQueriesRun(RandomTable table, RandomTable.Column column)
    {
        awaitBackground();
        // a build that uploaded its segment and died before the pointer: an orphan the next build deletes
        String orphan = key(table, "_key_index/%s/%s.kidx".formatted(column.sqlName(), new UUID(moves, events.size())));
        client.putObject(request -> request.bucket(table.bucket()).key(orphan), RequestBody.fromBytes(new byte[] {1, 2, 3}));
        background = CompletableFuture.runAsync(() -> build(table, column));
        events.merge("builtWhileQueriesRan", 1L, Long::sum);
    }

    private void renameFile(RandomTable table, SplittableRandom random)
    {
        List<String> paths = files.get(table.name());
        // a renamed file is written anew, so it becomes the newest: of a table whose schema evolved, only the newest
        // file can be, or the table would lose the column the newest file added
        int index = table.evolves() ? paths.size() - 1 : random.nextInt(paths.size());
        String path = paths.get(index);
        int slash = path.lastIndexOf('/');
        String renamed = path.substring(0, slash + 1) + "moved-" + (moves++) + "-" + path.substring(slash + 1);
        client.copyObject(request -> request.sourceBucket(table.bucket()).sourceKey(key(table, path)).destinationBucket(table.bucket()).destinationKey(key(table, renamed)));
        client.deleteObject(request -> request.bucket(table.bucket()).key(key(table, path)));
        paths.set(index, renamed);
        events.merge("fileRenamed", 1L, Long::sum);
    }

    /**
     * A bit flipped in a segment, or the segment cut short, or deleted; for the first two the pointer is rewritten
     * to name the damaged object's size and ETag, so only the segment's own checksums and lengths can tell.
     */
    private void damageSegment(RandomTable table, RandomTable.Column column, SplittableRandom random)
    {
        String pointerKey = key(table, "_key_index/%s/_pointer".formatted(column.sqlName()));
        List<S3Object> objects = client.listObjectsV2(request -> request.bucket(table.bucket()).prefix(key(table, "_key_index/%s/".formatted(column.sqlName())))).contents();
        List<S3Object> segments = objects.stream().filter(object -> object.key().endsWith(".kidx") && object.size() > 3).toList();
        if (segments.isEmpty() || objects.stream().noneMatch(object -> object.key().equals(pointerKey))) {
            return;
        }
        S3Object segment = segments.get(random.nextInt(segments.size()));
        int kind = random.nextInt(3);
        if (kind == 2) {
            client.deleteObject(request -> request.bucket(table.bucket()).key(segment.key()));
            events.merge("segmentDeleted", 1L, Long::sum);
            return;
        }
        byte[] bytes = client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(segment.key())).asByteArray();
        byte[] damaged;
        if (kind == 0) {
            damaged = bytes.clone();
            damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
        }
        else {
            damaged = Arrays.copyOf(bytes, random.nextInt(bytes.length));
        }
        String before = " %d %s ".formatted(bytes.length, segment.eTag().replace("\"", ""));
        String etag = client.putObject(request -> request.bucket(table.bucket()).key(segment.key()), RequestBody.fromBytes(damaged)).eTag().replace("\"", "");
        String pointer = client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(pointerKey)).asUtf8String();
        client.putObject(request -> request.bucket(table.bucket()).key(pointerKey), RequestBody.fromString(pointer.replace(before, " %d %s ".formatted(damaged.length, etag))));
        events.merge(kind == 0 ? "segmentBitFlipped" : "segmentTruncated", 1L, Long::sum);
    }

    private void garblePointer(RandomTable table, RandomTable.Column column)
    {
        String pointerKey = key(table, "_key_index/%s/_pointer".formatted(column.sqlName()));
        List<String> lines = new ArrayList<>(List.of("parquet-bloom-key-index 1", "column " + column.sqlName()));
        lines.add("segment missing.kidx 100 etag 50 1 10 0 0");
        client.putObject(request -> request.bucket(table.bucket()).key(pointerKey), RequestBody.fromString(String.join("\n", lines)));
        events.merge("pointerNamesMissingSegment", 1L, Long::sum);
    }

    private static String key(RandomTable table, String path)
    {
        return table.prefix() + path;
    }
}
