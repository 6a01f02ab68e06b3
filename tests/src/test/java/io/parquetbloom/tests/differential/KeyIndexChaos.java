package io.parquetbloom.tests.differential;

import io.parquetbloom.keyindex.KeyIndexPointer;
import io.parquetbloom.keyindex.KeyIndexUnusableException;
import io.parquetbloom.keyindex.LegacySegments;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TestingLake;
import io.trino.dispatcher.DispatchManager;
import io.trino.testing.DistributedQueryRunner;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What happens to key indexes between the differential test's batches, none of which may change an answer: indexes
 * built and refreshed, files renamed under a built index (one path deleted, one added: stale) or rewritten at the
 * same path, segments damaged under a pointer that names the damaged version, segments deleted, pointers garbled,
 * indexes dropped, builds running while queries run (leaving an orphan segment beside them), and, through catalog
 * {@value #BUILDER} (behind a proxy, with several segments allowed and 64 kB to sort in): builds racing each other,
 * a pointer PUT whose answer is lost, a drop landing before a build's PUT, builds denied their writes and builds
 * cancelled.
 */
final class KeyIndexChaos
{
    static final String BUILDER = "lake_builder";

    private final DistributedQueryRunner runner;
    private final S3Client client;
    private final CountingProxy proxy;
    private final Map<String, List<String>> files;
    private final Map<String, Long> events = new TreeMap<>();
    private CompletableFuture<?> background = CompletableFuture.completedFuture(null);
    private int moves;
    // builds and drops alternate between the table procedures and the CALL procedures
    private int statements;

    /**
     * @param files the object keys (relative to the table) of each table, kept current as files are renamed
     */
    KeyIndexChaos(DistributedQueryRunner runner, S3Client client, CountingProxy proxy, Map<String, List<String>> files)
    {
        this.runner = requireNonNull(runner, "runner is null");
        this.client = requireNonNull(client, "client is null");
        this.proxy = requireNonNull(proxy, "proxy is null");
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
            build(table, column.sqlName());
            if (table.evolves()) {
                // older files lack the added column and hold the widened one narrower
                events.merge("builtOverEvolvedSchema", 1L, Long::sum);
            }
        }
    }

    /**
     * One random event on one of the tables' indexes.
     */
    void event(List<RandomTable> tables, SplittableRandom random)
    {
        // a build still running from the last event would meet this one's drops and denials
        awaitBackground();
        RandomTable table = tables.get(random.nextInt(tables.size()));
        List<RandomTable.Column> columns = indexable(table);
        if (columns.isEmpty()) {
            return;
        }
        String column = columns.get(random.nextInt(columns.size())).sqlName();
        switch (random.nextInt(15)) {
            case 0, 1 -> build(table, column);
            case 2 -> {
                // stale for every index of the table but one, which a refresh brings up to date with a delta that
                // the differential catalogs' key-index.max-segments=1 merges with the base at once (compaction)
                renameFile(table, random);
                build(table, column);
            }
            case 3 -> damageSegment(table, column, random);
            case 4 -> garblePointer(table, column);
            case 5 -> drop(table, column);
            case 6 -> rebuildWhileQueriesRun(table, column);
            case 7 -> rewriteSamePath(table, random);
            case 8 -> racingBuilds(table, column);
            case 9 -> build(BUILDER, table, column);
            case 10 -> lostPointerAnswer(table, column);
            case 11 -> dropBeforePointerPut(table, column);
            case 12 -> deniedBuild(table, column);
            case 13 -> downgradeToRowGroupVersion(table, column, random);
            default -> cancelledBuild(table, column);
        }
    }

    /**
     * Each path of a build once, whatever the seed draws later: a file rewritten at its path and a delta segment
     * beside the base (a lookup over two segments), builds racing, a lost pointer answer, a drop before a build's PUT,
     * a denied and a cancelled build, a build that spills its sorted runs (the big table in 64 kB), and an index asked
     * of a nested column (refused).
     *
     * @return the table whose file was rewritten in place
     */
    RandomTable everyPathOnce(List<RandomTable> tables, SplittableRandom random)
    {
        // the unique id column of a table of several files: a lookup meets the base segment and the delta
        RandomTable table = tables.stream()
                .filter(candidate -> !candidate.unlocatableRowGroup() && !candidate.big() && files.get(candidate.name()).size() >= 2)
                .findFirst().orElseThrow();
        String column = "id";
        build(table, column);
        // the base of version 1 (row groups), as an earlier build wrote it; the delta beside it of version 2 (pages)
        downgradeToRowGroupVersion(table, column, random);
        rewriteSamePath(table, random);
        build(BUILDER, table, column);
        assertMultiSegmentLookup(table, column);
        racingBuilds(table, column);
        lostPointerAnswer(table, column);
        dropBeforePointerPut(table, column);
        deniedBuild(table, column);
        cancelledBuild(table, column);
        build(table, column);
        // one value per row: more entries than 64 kB sorts in memory
        RandomTable big = tables.stream().filter(RandomTable::big).findFirst().orElseThrow();
        runner.execute("CALL lake.system.drop_key_index('diff', '%s', 'payload')".formatted(big.name()));
        build(BUILDER, big, "payload");
        RandomTable nested = tables.stream().filter(candidate -> candidate.columns().stream().anyMatch(c -> c.kind() == ColumnKind.NESTED)).findFirst().orElseThrow();
        String nestedColumn = nested.columns().stream().filter(c -> c.kind() == ColumnKind.NESTED).findFirst().orElseThrow().sqlName();
        assertThatThrownBy(() -> runner.execute("CALL lake.system.create_key_index('diff', '%s', '%s')".formatted(nested.name(), nestedColumn)))
                .hasMessageContaining("is not a primitive column of any file to index");
        events.merge("nestedKeyRefused", 1L, Long::sum);
        return table;
    }

    /**
     * A table of 3,000,000 distinct keys, outside the oracle's tables: its segment is larger than the 5 MB parts
     * catalog lake uploads in, so it goes up as a multipart upload; lookups of a present and an absent key answer from
     * it.
     */
    void multipartSegment(Path work)
    {
        int rows = 3_000_000;
        List<Object[]> keys = new AbstractList<>()
        {
            @Override
            public Object[] get(int index)
            {
                return new Object[] {key(index)};
            }

            @Override
            public int size()
            {
                return rows;
            }
        };
        byte[] file = LakeFiles.parquet(work, "multipart.parquet", "message m { required int64 k; }", keys, 500_000, Set.of());
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key("warehouse/diff/multipart/part-0.parquet"), RequestBody.fromBytes(file));
        long multipartBefore = buildStat("lake", "MultipartUploads");
        runner.execute("CALL lake.system.create_key_index('diff', 'multipart', 'k')");
        assertThat(buildStat("lake", "MultipartUploads")).as("a segment above 5 MB goes up in parts").isGreaterThan(multipartBefore);
        for (long key : new long[] {key(1_234_567), key(rows) }) {
            var result = runner.executeWithPlan(runner.getDefaultSession(), "SELECT count(*) FROM lake.diff.multipart WHERE k = %d".formatted(key));
            assertThat(result.result().getOnlyValue()).isEqualTo(key == key(rows) ? 0L : 1L);
            QueryMetrics metrics = QueryMetrics.of(runner, result.queryId());
            assertThat(metrics.get("filesCoveredByKeyIndex")).isEqualTo(1);
            assertThat(metrics.get("keyIndexUnusable")).isZero();
        }
        events.merge("multipartSegmentLookedUp", 1L, Long::sum);
    }

    private static long key(long index)
    {
        // a bijection of the longs: distinct keys in no order
        return index * 0x9E3779B97F4A7C15L;
    }

    /**
     * A lookup on a column whose pointer names a base and a delta segment answers as the oracle does, from both.
     */
    private void assertMultiSegmentLookup(RandomTable table, String column)
    {
        long id = (Long) table.rows().get(table.rows().size() / 2)[0];
        String predicate = "%s = %d".formatted(column, id);
        var result = runner.executeWithPlan(runner.getDefaultSession(), "SELECT count(*) FROM lake.diff.%s WHERE %s".formatted(table.name(), predicate));
        assertThat(result.result().getOnlyValue()).as("lookup over two segments of %s.%s", table.name(), column).isEqualTo(1L);
        assertThat(QueryMetrics.of(runner, result.queryId()).get("keyIndexMultiSegmentLookups")).as("lookups over two segments").isPositive();
        events.merge("lookedUpOverSegments", 1L, Long::sum);
    }

    /**
     * The file written again at its path with the same rows: a few bytes between its last page and its footer (no
     * offset changes), so a new size and ETag; every index entry of the file is stale, as after any rewrite.
     */
    private void rewriteSamePath(RandomTable table, SplittableRandom random)
    {
        List<String> paths = files.get(table.name());
        // the rewritten file becomes the newest: of a table whose schema evolved, only the newest file can be
        String key = key(table, paths.get(table.evolves() ? paths.size() - 1 : random.nextInt(paths.size())));
        byte[] bytes = client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(key)).asByteArray();
        int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int footerStart = bytes.length - 8 - footerLength;
        byte[] gap = new byte[random.nextInt(1, 4_096)];
        random.nextBytes(gap);
        byte[] rewritten = new byte[bytes.length + gap.length];
        System.arraycopy(bytes, 0, rewritten, 0, footerStart);
        System.arraycopy(gap, 0, rewritten, footerStart, gap.length);
        System.arraycopy(bytes, footerStart, rewritten, footerStart + gap.length, bytes.length - footerStart);
        client.putObject(request -> request.bucket(table.bucket()).key(key), RequestBody.fromBytes(rewritten));
        events.merge("fileRewrittenInPlace", 1L, Long::sum);
    }

    /**
     * Two builds of one column at once, through two catalogs: the PUT that loses answers 412 (or 409) and its build
     * adds its segment to the winner's.
     */
    private void racingBuilds(RandomTable table, String column)
    {
        awaitBackground();
        CompletableFuture<?> first = CompletableFuture.runAsync(() -> build("lake", table, column));
        CompletableFuture<?> second = CompletableFuture.runAsync(() -> build(BUILDER, table, column));
        CompletableFuture.allOf(first, second).join();
        events.merge("racedBuilds", 1L, Long::sum);
    }

    /**
     * The pointer PUT lands but its answer is lost: the SDK sends it again, which meets the build's own pointer.
     */
    private void lostPointerAnswer(RandomTable table, String column)
    {
        // something to commit: a file rewritten since
        rewriteSamePath(table, new SplittableRandom(events.size()));
        String pointer = key(table, "_key_index/%s/_pointer".formatted(column));
        proxy.loseResponseOnce(request -> request.method().equals("PUT") && request.target().equals(pointer));
        build(BUILDER, table, column);
        proxy.loseResponseOnce(_ -> false);
        events.merge("pointerAnswerLost", 1L, Long::sum);
    }

    /**
     * drop_key_index lands between a build's reading of the pointer and its PUT: the build fails, naming the drop,
     * and leaves nothing; an index that did not exist yet is simply built.
     */
    private void dropBeforePointerPut(RandomTable table, String column)
    {
        rewriteSamePath(table, new SplittableRandom(events.size()));
        String pointer = key(table, "_key_index/%s/_pointer".formatted(column));
        proxy.onceBefore(request -> request.method().equals("PUT") && request.target().equals(pointer),
                () -> runner.execute("CALL lake.system.drop_key_index('diff', '%s', '%s')".formatted(table.name(), column)));
        try {
            build(BUILDER, table, column);
            events.merge("dropBeforePutOfNewIndex", 1L, Long::sum);
        }
        catch (RuntimeException e) {
            assertThat(e).hasMessageContaining("was dropped while this build ran");
            assertThat(client.listObjectsV2(request -> request.bucket(table.bucket()).prefix(key(table, "_key_index/%s/".formatted(column)))).contents()).isEmpty();
            events.merge("droppedWhileBuilding", 1L, Long::sum);
        }
        finally {
            proxy.onceBefore(_ -> false, () -> {});
        }
    }

    /**
     * A build whose writes S3 denies fails naming the action; the index stays as it was.
     */
    private void deniedBuild(RandomTable table, String column)
    {
        rewriteSamePath(table, new SplittableRandom(events.size()));
        proxy.denyMethods(Set.of("PUT", "POST"));
        try {
            assertThatThrownBy(() -> build(BUILDER, table, column)).hasMessageContaining("was denied");
        }
        finally {
            proxy.denyMethods(Set.of());
        }
        events.merge("buildDenied", 1L, Long::sum);
    }

    /**
     * A build cancelled at its first read of the table's data: it stops and writes nothing. The index is dropped first,
     * so the build has every file to read.
     */
    private void cancelledBuild(RandomTable table, String column)
    {
        runner.execute("CALL lake.system.drop_key_index('diff', '%s', '%s')".formatted(table.name(), column));
        String tablePrefix = key(table, "");
        String call = "CALL %s.system.create_key_index('diff', '%s', '%s')".formatted(BUILDER, table.name(), column);
        long cancelledBefore = buildStat(BUILDER, "Cancelled");
        AtomicInteger cancelled = new AtomicInteger();
        proxy.onceBefore(request -> request.method().equals("GET") && request.bucket().equals(table.bucket()) && request.target().startsWith(tablePrefix) && !request.target().contains("/_") && !request.target().startsWith("_"), () -> {
            DispatchManager dispatch = runner.getCoordinator().getDispatchManager();
            dispatch.getQueries().stream()
                    .filter(query -> query.getQuery().equals(call) && !query.getState().isDone())
                    .forEach(query -> {
                        dispatch.cancelQuery(query.getQueryId());
                        cancelled.incrementAndGet();
                    });
        });
        try {
            runner.execute(call);
            // answered: only right where the hook found no running build of it to cancel (its first GET was not the
            // build's own), which leaves nothing to check but that the index is whole
            assertThat(cancelled.get()).as("a build cancelled at its first read answered %s", call).isZero();
            events.merge("buildNotReachedByCancel", 1L, Long::sum);
            return;
        }
        catch (RuntimeException e) {
            assertThat(e).hasMessageContaining("canceled");
        }
        finally {
            proxy.onceBefore(_ -> false, () -> {});
        }
        awaitNoIndex(table, column, cancelledBefore);
        events.merge("buildCancelled", 1L, Long::sum);
    }

    /**
     * The cancelled build's thread stops on its own time: until then it may still be reading, never writing.
     */
    private void awaitNoIndex(RandomTable table, String column, long cancelledBefore)
    {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (buildStat(BUILDER, "Cancelled") == cancelledBefore && System.nanoTime() < deadline) {
            sleepUninterruptibly(100, MILLISECONDS);
        }
        assertThat(client.listObjectsV2(request -> request.bucket(table.bucket()).prefix(key(table, "_key_index/%s/".formatted(column)))).contents())
                .as("a cancelled build writes nothing").isEmpty();
    }

    /**
     * A counter of the catalog's {@code KeyIndexBuildStats} (JMX).
     */
    long buildStat(String catalog, String attribute)
    {
        try {
            // the connector exports to the platform server (as Trino connectors do)
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("*:type=KeyIndexBuildStats,*"), null);
            ObjectName name = names.stream()
                    .filter(candidate -> catalog.equals(candidate.getKeyProperty("name")) || catalog.equals(candidate.getKeyProperty("catalog")))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no KeyIndexBuildStats of catalog %s among %s".formatted(catalog, names)));
            return (Long) server.getAttribute(name, attribute);
        }
        catch (JMException e) {
            throw new RuntimeException(e);
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
        return table.columns().stream().filter(column -> !column.partition() && column.kind().indexable()).toList();
    }

    private void build(RandomTable table, String column)
    {
        build("lake", table, column);
    }

    private void build(String catalog, RandomTable table, String column)
    {
        if (statements++ % 2 == 0) {
            runner.execute("ALTER TABLE %s.diff.\"%s\" EXECUTE create_key_index(column => '%s')".formatted(catalog, table.name(), column));
            events.merge("builtByTableProcedure", 1L, Long::sum);
        }
        else {
            runner.execute("CALL %s.system.create_key_index('diff', '%s', '%s')".formatted(catalog, table.name(), column));
        }
        events.merge(catalog.equals("lake") ? "built" : "builtThrough" + catalog, 1L, Long::sum);
    }

    private void drop(RandomTable table, String column)
    {
        if (statements++ % 2 == 0) {
            runner.execute("ALTER TABLE lake.diff.\"%s\" EXECUTE drop_key_index(column => '%s')".formatted(table.name(), column));
            events.merge("droppedByTableProcedure", 1L, Long::sum);
        }
        else {
            runner.execute("CALL lake.system.drop_key_index('diff', '%s', '%s')".formatted(table.name(), column));
        }
        events.merge("dropped", 1L, Long::sum);
    }

    private void rebuildWhileQueriesRun(RandomTable table, String column)
    {
        awaitBackground();
        // a build that uploaded its segment and died before the pointer: an orphan the next build deletes
        String orphan = key(table, "_key_index/%s/%s.kidx".formatted(column, new UUID(moves, events.size())));
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
    private void damageSegment(RandomTable table, String column, SplittableRandom random)
    {
        String pointerKey = key(table, "_key_index/%s/_pointer".formatted(column));
        List<S3Object> objects = client.listObjectsV2(request -> request.bucket(table.bucket()).prefix(key(table, "_key_index/%s/".formatted(column)))).contents();
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
        String etagBefore = segment.eTag().replace("\"", "");
        String etag = client.putObject(request -> request.bucket(table.bucket()).key(segment.key()), RequestBody.fromBytes(damaged)).eTag().replace("\"", "");
        KeyIndexPointer pointer = parsePointer(client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(pointerKey)).asByteArray(), pointerKey);
        // the pointer names the damaged object, as a faulty writer's would: only the segment's own checksums can tell
        KeyIndexPointer naming = new KeyIndexPointer(pointer.column(), pointer.segments().stream()
                .map(named -> named.etag().equals(etagBefore) && named.size() == bytes.length
                        ? new KeyIndexPointer.Segment(named.name(), damaged.length, etag, named.trailerBytes(), named.files(), named.entries(), named.builtAtMillis(), named.buildMillis())
                        : named)
                .toList());
        // a damaged orphan (a segment the pointer does not name) needs no new pointer
        if (!naming.equals(pointer)) {
            client.putObject(request -> request.bucket(table.bucket()).key(pointerKey), RequestBody.fromBytes(naming.serialize()));
        }
        events.merge(kind == 0 ? "segmentBitFlipped" : "segmentTruncated", 1L, Long::sum);
    }

    /**
     * A segment the pointer names rewritten as format version 1 writes it (entries name row groups, not pages), and the
     * pointer naming the new object: an index built before version 2, which lookups use as it is until it is rebuilt.
     */
    private void downgradeToRowGroupVersion(RandomTable table, String column, SplittableRandom random)
    {
        String pointerKey = key(table, "_key_index/%s/_pointer".formatted(column));
        List<S3Object> objects = client.listObjectsV2(request -> request.bucket(table.bucket()).prefix(key(table, "_key_index/%s/".formatted(column)))).contents();
        if (objects.stream().noneMatch(object -> object.key().equals(pointerKey))) {
            return;
        }
        KeyIndexPointer pointer = parsePointer(client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(pointerKey)).asByteArray(), pointerKey);
        if (pointer.segments().isEmpty()) {
            return;
        }
        KeyIndexPointer.Segment named = pointer.segments().get(random.nextInt(pointer.segments().size()));
        String segmentKey = key(table, "_key_index/%s/%s".formatted(column, named.name()));
        LegacySegments.Segment legacy;
        try {
            byte[] bytes = client.getObjectAsBytes(request -> request.bucket(table.bucket()).key(segmentKey)).asByteArray();
            legacy = LegacySegments.asRowGroupVersion(bytes, Path.of(System.getProperty("java.io.tmpdir")));
        }
        catch (IOException | KeyIndexUnusableException | RuntimeException e) {
            // damaged (an earlier event flipped its bits, so any length in it may be wrong) or deleted: nothing to downgrade
            return;
        }
        String etag = client.putObject(request -> request.bucket(table.bucket()).key(segmentKey), RequestBody.fromBytes(legacy.bytes())).eTag().replace("\"", "");
        KeyIndexPointer renamed = new KeyIndexPointer(pointer.column(), pointer.segments().stream()
                .map(segment -> segment.equals(named)
                        ? new KeyIndexPointer.Segment(named.name(), legacy.bytes().length, etag, legacy.trailerBytes(), named.files(), named.entries(), named.builtAtMillis(), named.buildMillis())
                        : segment)
                .toList());
        client.putObject(request -> request.bucket(table.bucket()).key(pointerKey), RequestBody.fromBytes(renamed.serialize()));
        events.merge("downgradedToVersion1", 1L, Long::sum);
    }

    private static KeyIndexPointer parsePointer(byte[] bytes, String key)
    {
        try {
            return KeyIndexPointer.parse(bytes, key);
        }
        catch (KeyIndexUnusableException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A pointer naming a segment that does not exist, in the line format of earlier versions (which is still read).
     */
    private void garblePointer(RandomTable table, String column)
    {
        String pointerKey = key(table, "_key_index/%s/_pointer".formatted(column));
        List<String> lines = new ArrayList<>(List.of("parquet-bloom-key-index 1", "column " + column));
        lines.add("segment missing.kidx 100 etag 50 1 10 0 0");
        client.putObject(request -> request.bucket(table.bucket()).key(pointerKey), RequestBody.fromString(String.join("\n", lines)));
        events.merge("pointerNamesMissingSegment", 1L, Long::sum);
    }

    private static String key(RandomTable table, String path)
    {
        return table.prefix() + path;
    }
}
