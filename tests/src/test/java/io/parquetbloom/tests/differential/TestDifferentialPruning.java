package io.parquetbloom.tests.differential;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import com.google.common.collect.Sets;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.plugin.memory.MemoryPlugin;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard of every change: random tables of every type pairing (two writers, damaged footers, mixed-case names,
 * NULL patterns, 1-64 row groups, files larger than a split) and random lookups, each run with every pruning path on
 * (twice for some, so the no-match cache answers the repeat), with every path off, and against an oracle: the
 * generator's rows loaded into Trino's memory connector from SQL literals, never through Parquet. Any difference
 * fails with the seed and the query.
 * <p>
 * {@code -Dparquetbloom.differential.queries=N} and {@code -Dparquetbloom.differential.seed=S} (or
 * {@code ./run differential --queries N --seed S}) run more queries or replay a failure.
 */
final class TestDifferentialPruning
        extends AbstractTestQueryFramework
{
    private static final int TABLES = 24;
    // a name registered at one table's location, then at another's between batches (by the catalog lake, while the
    // others keep what they learned of it): every catalog must read the location it names now
    private static final String MOVED = "moved";
    private static final int QUERIES = Integer.getInteger("parquetbloom.differential.queries", 3_000);
    private static final long SEED = Long.getLong("parquetbloom.differential.seed", 20261203L);
    private static final List<String> LAKE_CATALOGS = List.of("lake", "lake_small_splits", "lake_paged", "lake_disk", "lake_no_etags", "lake_pages");
    // queries per statement: the engine's fixed cost per statement would otherwise dominate
    private static final int BATCH = Integer.getInteger("parquetbloom.differential.batch", 10);
    private static final String CACHED_LISTINGS = "lake_cached";

    private final List<RandomTable> tables = new ArrayList<>();
    private final Map<String, Long> nanosBySide = new TreeMap<>();
    private final Map<String, Integer> refusals = new TreeMap<>();
    private final Map<String, Long> coverage = new TreeMap<>();
    private Path metadataDisk;
    private final Map<String, List<String>> files = new HashMap<>();
    private S3Client client;
    private KeyIndexChaos keyIndexes;
    private List<String> formatTables;
    private String clashTable;
    private CountingProxy proxy;
    private CountingProxy noEtags;
    private RandomTable movedTarget;
    private long partitionListingFallbacks;
    private long encodedProbesUnreadable;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("differential"));
        Path work = s3.work();
        metadataDisk = work.resolve("metadata-disk");
        SplittableRandom random = new SplittableRandom(SEED);
        List<RandomTable.TableFile> liveAndDeadFiles = new ArrayList<>();
        System.out.println("[differential] seed %d: generating %d tables".formatted(SEED, TABLES + 1));
        try (S3Client client = s3.client()) {
            for (int i = 0; i <= TABLES; i++) {
                // whatever the seed: one table has dictionaries that do not decode (every chunk's extent moved), two a
                // schema a later writer evolved (an INT32, a FLOAT widened), and every writer's file names are used
                RandomTable table = RandomTable.generate("t" + i, random, new RandomTable.Shape(
                        i == TABLES,
                        i == TABLES - 1,
                        i == 1,
                        i == 2 ? Optional.of(ColumnKind.INT32) : i == 3 ? Optional.of(ColumnKind.FLOAT) : Optional.empty(),
                        i < RandomTable.Naming.values().length ? Optional.of(RandomTable.Naming.values()[i]) : Optional.empty(),
                        i == 5 ? Optional.of(RandomTable.Placement.BUCKET_ROOT) : i == 6 ? Optional.of(RandomTable.Placement.DEEP_PREFIX) : Optional.empty(),
                        // every kind no writer of ours writes by default, read and indexed (or refused) under every seed
                        i == 4 ? List.of(ColumnKind.DECIMAL_BINARY_PADDED, ColumnKind.INT96, ColumnKind.TIME_MILLIS, ColumnKind.TIME_MICROS, ColumnKind.NESTED) : List.of()));
                tables.add(table);
                List<RandomTable.TableFile> files = table.write(work, random);
                if (liveAndDeadFiles.size() < 2 && !table.big() && !table.unlocatableRowGroup()) {
                    liveAndDeadFiles.addAll(files.subList(0, Math.min(2 - liveAndDeadFiles.size(), files.size())));
                }
                this.files.put(table.name(), new ArrayList<>(files.stream().map(RandomTable.TableFile::path).toList()));
                if (table.big()) {
                    // row groups on both sides of 1 MB split boundaries
                    assertThat(files).singleElement().satisfies(file -> assertThat(file.bytes().length).isGreaterThan(2 << 20));
                }
                if (table.placement() == RandomTable.Placement.BUCKET_ROOT) {
                    client.createBucket(request -> request.bucket(table.bucket()));
                }
                // data files in order, so the newest file is the last written; then what writers leave beside them
                for (RandomTable.TableFile file : files) {
                    client.putObject(request -> request.bucket(table.bucket()).key(table.prefix() + file.path()), RequestBody.fromBytes(file.bytes()));
                }
                for (RandomTable.TableFile file : table.debris(files)) {
                    client.putObject(request -> request.bucket(table.bucket()).key(table.prefix() + file.path()), RequestBody.fromBytes(file.bytes()));
                }
                System.out.println("[differential] %s: %s, %d files named %s at %s (%s)%s%s%s".formatted(table.name(), table.writer(), files.size(), table.naming(), table.location(), table.placement(),
                        table.columns().stream().anyMatch(RandomTable.Column::partition) ? ", partitioned: " + files.stream().map(file -> file.path().substring(0, file.path().lastIndexOf('/'))).distinct().toList() : "",
                        table.evolves() ? ", a column only the newest file has, %s widened there".formatted(table.widenedColumn().map(RandomTable.Column::fileName).orElse("none")) : "",
                        table.unlocatableRowGroup() ? ", a row group that cannot be located" : ""));
            }
        }
        // builds through catalog lake_builder go through a proxy that can lose answers, deny writes and run hooks
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        // and a store that lists objects without ETags: nothing is pinned to a version, the key index covers nothing
        noEtags = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        noEtags.stripListingEtags();
        DistributedQueryRunner runner = ParquetBloomQueryRunner.builder()
                .withLake(s3)
                // one node that plans and reads, as a single-node server does: readers use the compact footers and
                // planning the no-match facts that node's readers keep (the multi-node split of caches is what the
                // file-operation tests pin down)
                .withWorkers(0)
                .withCoordinatorRunningSplits()
                // as installed: a GET slower than most is hedged (answers must not depend on which GET wins)
                .withCatalogProperty("s3.hedged-reads.enabled", "true")
                // key indexes: merged whenever a refresh adds a segment (compaction at every delta); orphans deleted by
                // the next build
                .withCatalogProperty("key-index.max-segments", "1")
                .withCatalogProperty("key-index.orphan-retention", "0s")
                // segments above 5 MB (S3's smallest part) go up in parts
                .withCatalogProperty("key-index.upload-part-size", "5MB")
                // one key a page: a table of more than 8 files spans more pages than are listed side by side, so a query
                // fixing the partition column, once the table's shape is known, lists only the partitions it selects
                .withCatalog("lake_paged", Map.of("s3.list-page-size", "1", "metadata-cache.max-size", "256kB"))
                .withCatalog("lake_small_splits", Map.of("split.max-size", "1MB"))
                // no file read whole with its footer: once a file's offset indexes are cached, its row groups are read
                // key first and by pages (the reference's files are larger than the default threshold)
                .withCatalog("lake_pages", Map.of("dictionary-pruning.small-file-threshold", "0B"))
                // a memory budget below one file's metadata over a small disk tier: footers and filters come from
                // disk, are evicted from it, and are damaged on it between queries
                .withCatalog("lake_disk", Map.of("metadata-cache.max-size", "16kB", "metadata-cache.disk.directory", metadataDisk.toString(), "metadata-cache.disk.max-size", "1MB"))
                // key index refreshes that keep up to 8 segments (lookups over several), sorting in 64 kB (spills)
                .withCatalog(KeyIndexChaos.BUILDER, Map.of("s3.endpoint", proxy.endpoint(), "key-index.max-segments", "8", "key-index.build-memory", "64kB"))
                // listings reused for 10 minutes: stale after files are renamed or rewritten
                .withCatalog(CACHED_LISTINGS, Map.of("metadata.listing-cache-ttl", "10m"))
                .withCatalog("lake_no_etags", Map.of("s3.endpoint", noEtags.endpoint()))
                .build();
        // listings of many pages: a partitioned table is listed by key ranges cut at its folders, the others page by page
        for (RandomTable table : tables) {
            if (table.placement() != RandomTable.Placement.FOLDER) {
                runner.execute("CALL lake.system.register_table('diff', '%s', '%s')".formatted(table.name(), table.location()));
            }
        }
        movedTarget = movable().getFirst();
        runner.execute("CALL lake.system.register_table('diff', '%s', '%s')".formatted(MOVED, movedTarget.location()));
        try (S3Client formatClient = s3.client()) {
            formatTables = TableFormatFolders.write(formatClient, liveAndDeadFiles);
            clashTable = TableFormatFolders.writeClash(formatClient, work);
        }
        runner.installPlugin(new MemoryPlugin());
        runner.createCatalog("oracle", "memory", Map.of("memory.max-data-per-node", "1GB"));
        // Iceberg tables of Trino's own Iceberg connector in the same schema folder, read by this connector through
        // their metadata; their own random, so the folder tables of a seed stay as they were
        List<RandomTable> icebergTables = IcebergDiffTables.write(runner, s3.endpoint(), new SplittableRandom(SEED ^ 0x1CEBE76L));
        tables.addAll(icebergTables);
        // Delta Lake tables whose log the test writes, with dead files, deletion vectors and column mapping; their own
        // random too
        try (S3Client deltaClient = s3.client()) {
            tables.addAll(DeltaDiffTables.write(deltaClient, work, new SplittableRandom(SEED ^ 0xDE17AL)));
        }
        long loading = System.nanoTime();
        loadOracle(runner);
        for (RandomTable table : icebergTables) {
            // the writer itself agrees with the rows kept in step with what it was told
            assertThat(runner.execute("SELECT * FROM %s.diff.%s".formatted(IcebergDiffTables.CATALOG, table.name())).getMaterializedRows()).as(table.name())
                    .containsExactlyInAnyOrderElementsOf(runner.execute("SELECT * FROM oracle.diff." + table.name()).getMaterializedRows());
        }
        System.out.println("[differential] oracle loaded in %d s".formatted((System.nanoTime() - loading) / 1_000_000_000L));
        // a key index on every data column of every table; the test then refreshes, stales, damages and drops them
        client = closeAfterClass(s3.client());
        keyIndexes = new KeyIndexChaos(runner, client, proxy, files);
        long indexing = System.nanoTime();
        tables.forEach(keyIndexes::buildAll);
        System.out.println("[differential] key indexes built in %d s".formatted((System.nanoTime() - indexing) / 1_000_000_000L));
        // every table listed once through the catalog that keeps listings: stale from the first change on
        for (RandomTable table : tables.stream().filter(table -> !table.unlocatableRowGroup()).toList()) {
            runner.execute("SELECT count(*) FROM %s.diff.%s WHERE id < 0".formatted(CACHED_LISTINGS, table.name()));
        }
        RandomTable rewritten = keyIndexes.everyPathOnce(fileTables(), random);
        keyIndexes.multipartSegment(work);
        assertStaleListing(runner, rewritten);
        return runner;
    }

    /**
     * The generated rows as literals into the memory connector, with the column types the lake reports.
     */
    private void loadOracle(DistributedQueryRunner runner)
    {
        runner.execute("CREATE SCHEMA oracle.diff");
        for (RandomTable table : tables) {
            List<MaterializedRow> described = runner.execute("DESCRIBE lake.diff." + table.name()).getMaterializedRows();
            List<String> columns = new ArrayList<>();
            for (MaterializedRow column : described) {
                columns.add("%s %s".formatted(column.getField(0), column.getField(1)));
            }
            assertThat(columns).as("columns of %s (every kind is readable)", table.name()).hasSize(table.columns().size() + 1);
            runner.execute("CREATE TABLE oracle.diff.%s (%s)".formatted(table.name(), String.join(", ", columns)));
            int batch = 400;
            for (int start = 0; start < table.rows().size(); start += batch) {
                StringBuilder values = new StringBuilder();
                for (Object[] row : table.rows().subList(start, Math.min(table.rows().size(), start + batch))) {
                    values.append(values.isEmpty() ? "" : ", ").append("(BIGINT '").append(row[0]).append('\'');
                    for (int i = 0; i < table.columns().size(); i++) {
                        RandomTable.Column column = table.columns().get(i);
                        values.append(", ").append(row[i + 1] == null ? "NULL" : column.kind().literal(row[i + 1]));
                    }
                    values.append(')');
                }
                runner.execute("INSERT INTO oracle.diff.%s VALUES %s".formatted(table.name(), values));
            }
        }
    }

    @Test
    void pruningNeverChangesAnAnswer()
    {
        DistributedQueryRunner runner = getDistributedQueryRunner();
        Session on = getSession();
        // and one file per split, read alone: the reader of grouped splits is checked against it
        Session off = withoutReadAhead(ParquetBloomQueryRunner.allPruningOff(getSession(), LAKE_CATALOGS.toArray(String[]::new)));
        long started = System.nanoTime();

        // every table whole against the oracle first: a reader problem shows here, not as a pruning difference
        List<Query> whole = new ArrayList<>();
        for (RandomTable table : tables) {
            whole.add(new Query(-1, table, table.big() ? "lake_small_splits" : "lake_paged", RandomQueries.all(table)));
        }
        compare(runner, on, off, whole);

        SplittableRandom random = new SplittableRandom(SEED * 31 + 7);
        int repeated = 0;
        int icebergQueries = 0;
        int deltaQueries = 0;
        Map<String, Integer> shapes = new TreeMap<>();
        List<Query> batch = new ArrayList<>();
        int batches = 0;
        for (int query = 0; query < QUERIES; query++) {
            RandomTable table = tables.get(random.nextInt(tables.size()));
            if (table.writer() == RandomTable.Writer.ICEBERG) {
                icebergQueries++;
            }
            if (table.writer() == RandomTable.Writer.DELTA_LAKE) {
                deltaQueries++;
            }
            String catalog = table.big() && random.nextBoolean() ? "lake_small_splits" : List.of("lake_paged", "lake_disk", "lake", "lake_no_etags", "lake_pages", "lake_pages").get(random.nextInt(6));
            boolean moved = random.nextInt(10) == 0;
            if (moved) {
                table = movedTarget;
                catalog = List.of("lake_paged", "lake_disk", "lake_no_etags").get(random.nextInt(3));
            }
            RandomQueries.RandomQuery generated = RandomQueries.next(table, random);
            shapes.merge(generated.shape(), 1, Integer::sum);
            batch.add(new Query(query, table, catalog, generated.sql(), moved ? MOVED : table.name()));
            if (batch.size() == BATCH || query == QUERIES - 1) {
                batches++;
                compare(runner, variant(on, batches, random), off, batch);
                if (batches % 8 == 0) {
                    compareCachedListings(runner, on, batch);
                }
                keyIndexes.awaitBackground();
                if (random.nextInt(4) == 0) {
                    damageDiskEntries(random);
                }
                if (random.nextInt(3) == 0) {
                    keyIndexes.event(fileTables(), random);
                }
                if (random.nextInt(10) == 0) {
                    assertTableFormatRefused(runner, random);
                }
                if (random.nextInt(4) == 0) {
                    // the no-match cache now holds facts from the first run: the answers must not change; and the
                    // files' offset indexes loaded by the first run are cached, so row groups are read by pages
                    // where the first run read their files by whole chunks
                    compare(runner, on, null, batch);
                    repeated += batch.size();
                }
                // after the batch's last run: its queries of the moved name were generated for where it pointed
                if (random.nextInt(3) == 0) {
                    moveName(runner, random);
                }
                batch.clear();
            }
            if ((query + 1) % 500 == 0) {
                System.out.println("[differential] %d/%d queries, none differed (%d s)".formatted(query + 1, QUERIES, (System.nanoTime() - started) / 1_000_000_000L));
            }
        }
        System.out.println("[differential] queries by shape: %s".formatted(shapes));
        System.out.println("[differential] %d queries of Iceberg tables (live rows of several commits, deletes, a renamed, widened and added column)".formatted(icebergQueries));
        System.out.println("[differential] %d queries of Delta Lake tables (a dead file, deletion vectors, a re-added path, column mapping by name)".formatted(deltaQueries));
        if (QUERIES >= 1_000) {
            assertThat(icebergQueries).isGreaterThanOrEqualTo(20);
            assertThat(deltaQueries).isGreaterThanOrEqualTo(20);
            // every shape the generator knows was run, so none can silently drop out
            assertThat(shapes).hasSize(13);
            assertThat(shapes.values()).allMatch(count -> count >= 10);
        }
        System.out.println("[differential] tables: %d partitioned (multi-page listings in lake_paged), %d with a row group that cannot be located (queries refused: %s)".formatted(
                tables.stream().filter(table -> table.columns().stream().anyMatch(RandomTable.Column::partition)).count(),
                tables.stream().filter(RandomTable::unlocatableRowGroup).count(), refusals));
        assertThat(tables).anyMatch(table -> table.columns().stream().anyMatch(RandomTable.Column::partition));
        // the lakes users have: registered tables at bucket roots and deep prefixes, every writer's file names, a schema
        // a later writer evolved (an added column, a widened type)
        System.out.println("[differential] tables by placement: %s, by file naming: %s, evolved: %d".formatted(
                tables.stream().collect(groupingBy(RandomTable::placement, TreeMap::new, counting())),
                tables.stream().collect(groupingBy(RandomTable::naming, TreeMap::new, counting())),
                tables.stream().filter(RandomTable::evolves).count()));
        assertThat(tables).extracting(RandomTable::placement).contains(RandomTable.Placement.values());
        assertThat(tables).extracting(RandomTable::naming).contains(RandomTable.Naming.values());
        assertThat(tables).filteredOn(RandomTable::evolves).extracting(table -> table.widenedColumn().orElseThrow().kind()).contains(ColumnKind.INT32, ColumnKind.FLOAT);
        System.out.println("[differential] key index events: %s".formatted(keyIndexes.events()));
        assertKeyIndexPathsReached();
        System.out.println("[differential] pruning paths taken (row groups): %s; partition listings that listed whole: %d; row groups whose encoded pages the matcher could not read: %d".formatted(coverage, partitionListingFallbacks, encodedProbesUnreadable));
        if (QUERIES >= 1_000) {
            // the branches these counters stand for were reached: dictionaries pruned, and damaged ones failed open
            assertThat(coverage).allSatisfy((name, count) -> assertThat(count).as(name).isPositive());
            // the paths a lookup takes through pages, each reached in many row groups (seeds 20261215 and 20261216
            // took them 61 to 76, 46 to 61 and 442 to 466 times in 1,500 queries; CI's seed 109, 67 and 780 in 3,000)
            assertThat(coverage.get("rowGroupsReadByPages")).as("rowGroupsReadByPages").isGreaterThanOrEqualTo(QUERIES / 40L);
            assertThat(coverage.get("rowGroupsProbedByKeyPages")).as("rowGroupsProbedByKeyPages").isGreaterThanOrEqualTo(QUERIES / 100L);
            assertThat(coverage.get("rowGroupsProbedEncoded")).as("rowGroupsProbedEncoded").isGreaterThanOrEqualTo(QUERIES / 10L);
        }
        System.out.println("[differential] seconds by side: %s".formatted(nanosBySide.entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue() / 1_000_000_000L).toList()));
        System.out.println("[differential] seed %d: %d queries (%d repeated with the no-match cache warm) over %d tables, each with pruning on, off and against the oracle: none differed".formatted(SEED, QUERIES, repeated, tables.size()));
    }

    /**
     * A Delta Lake, Iceberg or Hudi folder holding files of the same rows, live and dead: any query on it, in any
     * catalog, fails with the error naming the format, never an answer counting dead files.
     */
    private void assertTableFormatRefused(DistributedQueryRunner runner, SplittableRandom random)
    {
        String catalog = LAKE_CATALOGS.get(random.nextInt(LAKE_CATALOGS.size()));
        if (random.nextInt(4) == 0) {
            assertClashRefused(runner, catalog, random);
            return;
        }
        if (random.nextInt(3) == 0) {
            assertFolderInsideFormatRefused(runner, random);
            return;
        }
        String table = formatTables.get(random.nextInt(formatTables.size()));
        String sql = random.nextBoolean() ? "SELECT count(*) FROM %s.diff.%s".formatted(catalog, table) : "SELECT * FROM %s.diff.%s WHERE id = %d".formatted(catalog, table, random.nextInt(100));
        try {
            runner.execute(getSession(), sql);
        }
        catch (RuntimeException e) {
            if (table.equals("fmt_iceberg")) {
                // read through its metadata, never its data folder: this one's metadata is not Iceberg's
                assertThat(e.getMessage()).as(sql).contains("cannot read metadata file s3://%s/warehouse/diff/%s/metadata/".formatted(TestingLake.BUCKET, table));
            }
            else if (table.equals("fmt_delta")) {
                // read through its log, never its folder: this one's log has no protocol
                assertThat(e.getMessage()).as(sql).contains("Delta Lake table diff.fmt_delta: its log as of version 1 has no protocol action");
            }
            else {
                assertThat(e.getMessage()).as(sql).contains("connector.name=").contains("s3://%s/warehouse/diff/%s/ is a".formatted(TestingLake.BUCKET, table));
            }
            coverage.merge("tableFormatsRefused", 1L, Long::sum);
            return;
        }
        throw new AssertionError("seed %d: %s answered, but the folder belongs to a table format".formatted(SEED, sql));
    }

    /**
     * Tables a name can be registered at for a while: every one the oracle holds whole.
     */
    private List<RandomTable> movable()
    {
        return fileTables().stream().filter(table -> !table.unlocatableRowGroup() && !table.big()).toList();
    }

    /**
     * The tables of files this test wrote (which key index events rename, rewrite and damage): not the Iceberg ones,
     * whose metadata names their files.
     */
    private List<RandomTable> fileTables()
    {
        return tables.stream().filter(table -> table.writer() != RandomTable.Writer.ICEBERG && table.writer() != RandomTable.Writer.DELTA_LAKE).toList();
    }

    /**
     * Registers {@value #MOVED} at another table's location, through catalog {@code lake} only: the other catalogs
     * learned the old location's columns and partitions, and must not use them for the new one.
     */
    private void moveName(DistributedQueryRunner runner, SplittableRandom random)
    {
        List<RandomTable> candidates = movable();
        movedTarget = candidates.get(random.nextInt(candidates.size()));
        runner.execute("CALL lake.system.unregister_table('diff', '%s')".formatted(MOVED));
        runner.execute("CALL lake.system.register_table('diff', '%s', '%s')".formatted(MOVED, movedTarget.location()));
        coverage.merge("namesRegisteredElsewhere", 1L, Long::sum);
    }

    /**
     * A folder inside a table format's folder, registered on its own: the format's marker is above it (a Delta
     * table's partition folder, an Iceberg table's data/), so the registration is refused rather than reading the
     * format's dead files as live.
     */
    private void assertFolderInsideFormatRefused(DistributedQueryRunner runner, SplittableRandom random)
    {
        boolean delta = random.nextBoolean();
        String location = "s3://%s/warehouse/diff/%s".formatted(TestingLake.BUCKET, delta ? "fmt_delta/p=1/" : "fmt_iceberg/data/");
        String sql = "CALL lake.system.register_table('diff', 'inside_format', '%s')".formatted(location);
        try {
            runner.execute(getSession(), sql);
        }
        catch (RuntimeException e) {
            assertThat(e.getMessage()).as(sql).contains(delta ? "is a Delta Lake table" : "is an Iceberg table");
            coverage.merge("foldersInsideFormatsRefused", 1L, Long::sum);
            return;
        }
        throw new AssertionError("seed %d: %s was registered, but a table format's marker is above it".formatted(SEED, sql));
    }

    /**
     * Files whose column types clash: a query reading the column fails naming the file and the column, one that does
     * not read it answers (200 rows: both files).
     */
    private void assertClashRefused(DistributedQueryRunner runner, String catalog, SplittableRandom random)
    {
        String table = "%s.diff.%s".formatted(catalog, clashTable);
        assertThat(runner.execute(getSession(), "SELECT count(*), sum(id) FROM " + table).getMaterializedRows().getFirst().getFields()).containsExactly(200L, 19_900L);
        String sql = random.nextBoolean() ? "SELECT id FROM %s WHERE c = %d".formatted(table, random.nextInt(200)) : "SELECT sum(c) FROM " + table;
        try {
            runner.execute(getSession(), sql);
        }
        catch (RuntimeException e) {
            assertThat(e.getMessage()).as(sql).contains("Column c of file s3://%s/warehouse/diff/%s/000000_0".formatted(TestingLake.BUCKET, clashTable));
            coverage.merge("typeClashesRefused", 1L, Long::sum);
            return;
        }
        throw new AssertionError("seed %d: %s answered, but its files' column c clash (varchar, bigint)".formatted(SEED, sql));
    }

    /**
     * Damages a few of {@code lake_disk}'s disk tier entries the way a disk or an operator might: a bit flipped, cut
     * short, emptied, or another entry's bytes in its place. Each must read as a miss.
     */
    private void damageDiskEntries(SplittableRandom random)
    {
        List<Path> entries;
        try (Stream<Path> files = Files.walk(metadataDisk)) {
            entries = files.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().endsWith(".tmp")).sorted().toList();
        }
        catch (IOException | UncheckedIOException e) {
            // nothing written yet, or an entry evicted while listed
            return;
        }
        for (int i = 0; i < Math.min(5, entries.size()); i++) {
            Path entry = entries.get(random.nextInt(entries.size()));
            try {
                byte[] bytes = Files.readAllBytes(entry);
                bytes = switch (random.nextInt(4)) {
                    case 0 -> flipOneBit(bytes, random);
                    case 1 -> Arrays.copyOf(bytes, random.nextInt(Math.max(1, bytes.length)));
                    case 2 -> new byte[0];
                    default -> Files.readAllBytes(entries.get(random.nextInt(entries.size())));
                };
                Files.write(entry, bytes);
                coverage.merge("diskEntriesDamaged", 1L, Long::sum);
            }
            catch (IOException e) {
                // evicted meanwhile
            }
        }
    }

    private static byte[] flipOneBit(byte[] bytes, SplittableRandom random)
    {
        if (bytes.length > 0) {
            bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return bytes;
    }

    /**
     * Pruning on as configured, or with one path alone: dictionaries without bloom filters, bloom filters without
     * dictionaries, dictionaries bounded so tightly that most are too large to use, or the per-file paths without the
     * key index.
     */
    /**
     * Each path of the key index the differential guards was taken in this run, whatever the seed: the events that
     * take them, and the builders' own counts of what happened (JMX).
     */
    private void assertKeyIndexPathsReached()
    {
        Map<String, Long> stats = new TreeMap<>();
        for (String catalog : List.of("lake", KeyIndexChaos.BUILDER)) {
            for (String stat : List.of("Builds", "Committed", "Failed", "Cancelled", "PointerConflicts", "OwnPointerFound", "DroppedWhileBuilding", "Compactions", "DamagedSegmentsDropped", "SpilledBuilds", "MultipartUploads", "FilesUnindexable")) {
                stats.put(catalog + "." + stat, keyIndexes.buildStat(catalog, stat));
            }
        }
        System.out.println("[differential] key index builds: %s; listings without ETags: %d objects".formatted(stats, noEtags.strippedEtags()));
        assertThat(keyIndexes.events()).as("key index events").containsKeys(
                "built", "builtOverEvolvedSchema", "fileRewrittenInPlace", "racedBuilds", "pointerAnswerLost", "droppedWhileBuilding", "buildDenied", "buildCancelled",
                "lookedUpOverSegments", "nestedKeyRefused", "builtThrough" + KeyIndexChaos.BUILDER, "multipartSegmentLookedUp", "downgradedToVersion1", "builtByTableProcedure");
        assertThat(stats.get("lake.PointerConflicts") + stats.get(KeyIndexChaos.BUILDER + ".PointerConflicts")).as("builds that lost a race for the pointer").isPositive();
        for (String stat : List.of("OwnPointerFound", "DroppedWhileBuilding", "Failed", "Cancelled", "SpilledBuilds")) {
            assertThat(stats.get(KeyIndexChaos.BUILDER + "." + stat)).as(stat).isPositive();
        }
        for (String stat : List.of("Compactions", "FilesUnindexable", "MultipartUploads")) {
            assertThat(stats.get("lake." + stat)).as(stat).isPositive();
        }
        assertThat(noEtags.strippedEtags()).as("objects listed without ETags").isPositive();
    }

    /**
     * Every other batch without the key index in any catalog, so the per-file paths (filters, dictionaries, damaged
     * dictionaries) are reached whatever the seed; every fifth with at most 2 values probed per column, so IN lists
     * longer than that take the paths that do not probe them; every third reading whole column chunks, so the
     * read paths before pages (key first, whole after matches) are reached beside reading by pages.
     */
    private static Session withoutReadAhead(Session session)
    {
        Session.SessionBuilder builder = Session.builder(session);
        LAKE_CATALOGS.forEach(catalog -> builder.setCatalogSessionProperty(catalog, "split_read_ahead_files", "0"));
        return builder.build();
    }

    private Session variant(Session on, int batch, SplittableRandom random)
    {
        Session.SessionBuilder variant = Session.builder(pruningVariant(on, random));
        for (String catalog : LAKE_CATALOGS) {
            if (batch % 2 == 0) {
                variant.setCatalogSessionProperty(catalog, "key_index_enabled", "false");
            }
            if (batch % 5 == 0) {
                variant.setCatalogSessionProperty(catalog, "bloom_filter_max_values", "2");
            }
            if (batch % 3 == 0) {
                variant.setCatalogSessionProperty(catalog, "page_reads_enabled", "false");
            }
            if (batch % 7 == 0) {
                variant.setCatalogSessionProperty(catalog, "split_read_ahead_files", "0");
            }
            else if (batch % 7 == 1) {
                // a group's reader opening every split of its group at once
                variant.setCatalogSessionProperty(catalog, "split_read_ahead_files", "32");
            }
        }
        coverage.merge("batchesWithoutReadAhead", batch % 7 == 0 ? 1L : 0L, Long::sum);
        coverage.merge("batchesWithoutKeyIndex", batch % 2 == 0 ? 1L : 0L, Long::sum);
        coverage.merge("batchesReadingWholeChunks", batch % 3 == 0 ? 1L : 0L, Long::sum);
        coverage.merge("batchesProbingAtMost2Values", batch % 5 == 0 ? 1L : 0L, Long::sum);
        return variant.build();
    }

    /**
     * The batch's queries one by one through the catalog that keeps listings for 10 minutes: a listing made before a
     * file was renamed or rewritten answers as the oracle does, or fails naming the changed object; never other rows.
     */
    private void compareCachedListings(DistributedQueryRunner runner, Session on, List<Query> batch)
    {
        for (Query query : batch) {
            if (query.table().unlocatableRowGroup()) {
                continue;
            }
            Query cached = new Query(query.number(), query.table(), CACHED_LISTINGS, query.sql());
            Multiset<List<Object>> actual;
            try {
                actual = run(runner, on, List.of(cached), null, true, "cached listing").get(0);
            }
            catch (AssertionError e) {
                assertStaleRefusal(e, cached);
                continue;
            }
            Multiset<List<Object>> expected = run(runner, getSession(), List.of(cached), "oracle.diff", false, "oracle").get(0);
            check(runner, Map.of(0, expected), Map.of(0, actual), List.of(cached), "cached listing");
            coverage.merge("cachedListingsAnswered", 1L, Long::sum);
        }
    }

    private void assertStaleRefusal(AssertionError e, Query query)
    {
        assertThat(e.getMessage())
                .as("seed %d, query %d through a cached listing", SEED, query.number())
                .containsAnyOf("changed while the query ran", "was deleted while the query ran");
        coverage.merge("cachedListingsStale", 1L, Long::sum);
    }

    /**
     * A table a file of which was rewritten since catalog lake_cached listed it: a read of every row group meets the
     * changed object and fails naming it.
     */
    private void assertStaleListing(DistributedQueryRunner runner, RandomTable table)
    {
        Query whole = new Query(-1, table, CACHED_LISTINGS, "SELECT id, CAST(id AS varchar) AS v FROM %s".formatted(RandomQueries.TABLE));
        try {
            run(runner, runner.getDefaultSession(), List.of(whole), null, true, "cached listing");
        }
        catch (AssertionError e) {
            assertStaleRefusal(e, whole);
            return;
        }
        throw new AssertionError("seed %d: %s read through a listing older than a rewrite of one of its files, yet no read failed".formatted(SEED, table.name()));
    }

    private static Session pruningVariant(Session on, SplittableRandom random)
    {
        Session.SessionBuilder variant = Session.builder(on);
        for (String catalog : LAKE_CATALOGS) {
            switch (random.nextInt(6)) {
                case 0 -> variant.setCatalogSessionProperty(catalog, "bloom_filter_enabled", "false");
                case 1 -> variant.setCatalogSessionProperty(catalog, "dictionary_pruning_enabled", "false");
                case 2 -> variant.setCatalogSessionProperty(catalog, "dictionary_pruning_max_entries", "3");
                // the per-file paths alone, where the key index would otherwise answer
                case 3 -> variant.setCatalogSessionProperty(catalog, "key_index_enabled", "false");
                default -> {}
            }
        }
        return variant.build();
    }

    /**
     * One random query: its number (-1: a whole table), its table, the lake catalog it reads.
     */
    /**
     * @param lakeName the name the lake side reads the table by: its own, or {@value #MOVED}, registered at its location
     */
    private record Query(int number, RandomTable table, String catalog, String sql, String lakeName)
    {
        Query(int number, RandomTable table, String catalog, String sql)
        {
            this(number, table, catalog, sql, table.name());
        }

        /**
         * The query on the oracle's copy of the table.
         */
        String on(String catalogAndSchema)
        {
            return sql.replace(RandomQueries.TABLE, "%s.%s".formatted(catalogAndSchema, table.name()));
        }

        String onLake()
        {
            return sql.replace(RandomQueries.TABLE, "%s.diff.%s".formatted(catalog, lakeName));
        }
    }

    /**
     * Runs a batch of queries as one UNION ALL statement (each branch its own table scan, pruned on its own) against
     * the oracle, with pruning on and, unless {@code off} is null, with pruning off, and compares each query's rows.
     */
    private void compare(DistributedQueryRunner runner, Session on, Session off, List<Query> queries)
    {
        List<Query> batch = queries.stream().filter(query -> !query.table().unlocatableRowGroup()).toList();
        for (Query refused : queries.stream().filter(query -> query.table().unlocatableRowGroup()).toList()) {
            assertRefused(runner, on, refused, "pruning on");
            if (off != null) {
                assertRefused(runner, off, refused, "pruning off");
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        Map<Integer, Multiset<List<Object>>> expected = run(runner, getSession(), batch, "oracle.diff", false, "oracle");
        check(runner, expected, run(runner, on, batch, null, true, "pruning on"), batch, "pruning on");
        if (off != null) {
            check(runner, expected, run(runner, off, batch, null, true, "pruning off"), batch, "pruning off");
        }
    }

    /**
     * A table with a row group trino-parquet cannot locate: every query that reads the damaged file fails naming the
     * file and the row group, whatever is pruned, rather than answering without that row group's rows. A query the
     * engine answers without reading it (a contradictory range, {@code BETWEEN 5 AND 1}, or a {@code LIMIT} the
     * other file fills first) must answer as the oracle does.
     */
    private void assertRefused(DistributedQueryRunner runner, Session session, Query query, String side)
    {
        Multiset<List<Object>> actual;
        try {
            actual = run(runner, session, List.of(query), null, true, side).get(0);
        }
        catch (AssertionError e) {
            assertThat(e.getMessage())
                    .as("seed %d, query %d (%s) on %s", SEED, query.number(), side, query.table().name())
                    .contains(query.table().location())
                    .containsPattern("row group [0-9]+ of [0-9]+ cannot be located");
            refusals.merge(side, 1, Integer::sum);
            return;
        }
        Multiset<List<Object>> expected = run(runner, getSession(), List.of(query), "oracle.diff", false, "oracle").get(0);
        if (!expected.equals(actual)) {
            throw new AssertionError("seed %d, query %d (%s): table %s has a row group that cannot be located, yet the query answered, and not as the oracle (%d rows expected, %d returned)%n%s".formatted(
                    SEED, query.number(), side, query.table().name(), expected.size(), actual.size(), query.onLake()));
        }
        refusals.merge(side + " (answered without reading the damaged file)", 1, Integer::sum);
    }

    private Map<Integer, Multiset<List<Object>>> run(DistributedQueryRunner runner, Session session, List<Query> batch, String oracle, boolean lake, String side)
    {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < batch.size(); i++) {
            Query query = batch.get(i);
            sql.append(i == 0 ? "" : "\nUNION ALL\n")
                    .append("SELECT ").append(i).append(" AS q, id, v FROM (")
                    .append(lake ? query.onLake() : query.on(oracle))
                    .append(')');
        }
        List<MaterializedRow> rows;
        long start = System.nanoTime();
        try {
            var result = runner.executeWithPlan(session, sql.toString());
            rows = result.result().getMaterializedRows();
            nanosBySide.merge(side, System.nanoTime() - start, Long::sum);
            if (lake) {
                QueryMetrics metrics = QueryMetrics.of(runner, result.queryId());
                for (String name : List.of("RowGroupsPrunedByDictionary", "DictionariesUnusable", "RowGroupsPrunedByBloomFilter", "MetadataDiskHits", "MetadataCacheCompactFooterHits")) {
                    String worker = Character.toLowerCase(name.charAt(0)) + name.substring(1);
                    coverage.merge(worker, metrics.get("planning" + name) + metrics.get(worker), Long::sum);
                }
                // the key index: files it answered for, row groups it pruned, and lookups it could not serve
                for (String name : List.of("filesCoveredByKeyIndex", "rowGroupsPrunedByKeyIndex", "filesUncovered", "keyIndexUnusable")) {
                    coverage.merge(name, metrics.get(name), Long::sum);
                }
                // tables listed partition by partition (once their shape is known); or whole, where that walk would
                // cost more (not every seed's tables have one: counted, not required)
                coverage.merge("partitionListings", metrics.get("partitionListings"), Long::sum);
                partitionListingFallbacks += metrics.get("partitionListingFallbacks");
                // GETs that ran long enough for a second one to be sent (answers must not depend on which won)
                coverage.merge("s3HedgedGets", metrics.get("s3HedgedGets") + metrics.get("s3PlanningHedgedGets"), Long::sum);
                // splits of small files read in groups, the next ones opened while one is read
                coverage.merge("splitsReadInGroups", metrics.get("splitsReadInGroups"), Long::sum);
                // a reader served by the compact footer planning kept on its node
                coverage.merge("readerCompactFooterHits", metrics.get("metadataCacheCompactFooterHits"), Long::sum);
                // how row groups were read: key first, whole, and whole because this query's row groups mostly matched
                for (String name : List.of("rowGroupsReadKeyFirst", "rowGroupsReadWhole", "rowGroupsReadWholeAfterMatches")) {
                    coverage.merge(name, metrics.get(name), Long::sum);
                }
                // reading by pages: row groups read so, pages left unread, chunks read whole because an offset index
                // was missing or damaged, or because the node was still loading the file's offset indexes
                // and rows of the pages read that the probe did not match, dropped before the engine filters
                for (String name : List.of("rowGroupsReadByPages", "pagesSkipped", "rowGroupsReadWithoutOffsetIndex", "offsetIndexesUnusable", "rowGroupsProbedByKeyPages", "rowGroupsReadWholeOffsetIndexUncached", "rowsNotMatchedDropped")) {
                    coverage.merge(name, metrics.get(name), Long::sum);
                }
                // probes that matched keys on the encoded pages; and those whose pages held an encoding the matcher
                // leaves to the reader (DELTA encodings: not every seed writes them, counted, not required)
                coverage.merge("rowGroupsProbedEncoded", metrics.get("rowGroupsProbedEncoded"), Long::sum);
                encodedProbesUnreadable += metrics.get("encodedProbesUnreadable");
            }
        }
        catch (RuntimeException e) {
            throw new AssertionError("seed %d, queries %s (%s) failed: %s%n%s".formatted(
                    SEED, batch.stream().map(Query::number).toList(), side, e.getMessage(), abbreviate(sql.toString())), e);
        }
        Map<Integer, Multiset<List<Object>>> byQuery = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            byQuery.put(i, HashMultiset.create());
        }
        for (MaterializedRow row : rows) {
            // without the branch number, so a query's rows compare equal whichever batch it ran in
            byQuery.get(((Number) row.getField(0)).intValue()).add(Arrays.asList(row.getField(1), row.getField(2)));
        }
        return byQuery;
    }

    private void check(DistributedQueryRunner runner, Map<Integer, Multiset<List<Object>>> expected, Map<Integer, Multiset<List<Object>>> actual, List<Query> batch, String side)
    {
        for (int i = 0; i < batch.size(); i++) {
            if (expected.get(i).equals(actual.get(i))) {
                continue;
            }
            Query query = batch.get(i);
            List<Object> ids = Sets.symmetricDifference(expected.get(i).elementSet(), actual.get(i).elementSet()).stream().map(row -> row.get(0)).distinct().limit(5).toList();
            String lakeRows = ids.isEmpty() ? "" : runner.execute(ParquetBloomQueryRunner.allPruningOff(getSession(), LAKE_CATALOGS.toArray(String[]::new)),
                    "SELECT * FROM %s.diff.%s WHERE id IN (%s)".formatted(query.catalog(), query.table().name(), ids.stream().map(String::valueOf).collect(joining(", ")))).getMaterializedRows().toString();
            String oracleRows = ids.isEmpty() ? "" : runner.execute("SELECT * FROM oracle.diff.%s WHERE id IN (%s)".formatted(query.table().name(), ids.stream().map(String::valueOf).collect(joining(", ")))).getMaterializedRows().toString();
            throw new AssertionError("seed %d, query %d: %s differs from the oracle (%d rows expected, %d returned; table %s written by %s, %d row groups, read through %s; %s)%n%s%nmissing: %s%nextra: %s%nthose rows in the lake: %s%nin the oracle: %s".formatted(
                    SEED, query.number(), side, expected.get(i).size(), actual.get(i).size(), query.table().name(), query.table().writer(), query.table().rowGroups(), query.catalog(),
                    culprit(runner, query, expected.get(i)),
                    abbreviate(query.onLake()),
                    Sets.difference(expected.get(i).elementSet(), actual.get(i).elementSet()).stream().limit(5).toList(),
                    Sets.difference(actual.get(i).elementSet(), expected.get(i).elementSet()).stream().limit(5).toList(),
                    lakeRows, oracleRows));
        }
    }

    /**
     * Which single pruning path, turned off alone, gives the oracle's answer again: where to look first.
     */
    private String culprit(DistributedQueryRunner runner, Query query, Multiset<List<Object>> expected)
    {
        List<String> fixes = new ArrayList<>();
        for (String property : List.of("bloom_filter_enabled", "statistics_pruning_enabled", "no_match_cache_enabled", "dictionary_pruning_enabled", "key_index_enabled", "page_reads_enabled")) {
            Session session = Session.builder(getSession()).setCatalogSessionProperty(query.catalog(), property, "false").build();
            try {
                if (run(runner, session, List.of(query), null, true, property + "=false").get(0).equals(expected)) {
                    fixes.add(property + "=false");
                }
            }
            catch (AssertionError e) {
                fixes.add(property + "=false fails: " + e.getMessage());
            }
        }
        // with every path off, and through the other catalogs: is it pruning at all, or one catalog's caches?
        Session allOff = ParquetBloomQueryRunner.allPruningOff(getSession(), LAKE_CATALOGS.toArray(String[]::new));
        List<String> elsewhere = new ArrayList<>();
        elsewhere.add("every path off: " + rowsOrFailure(runner, allOff, query, expected));
        for (String catalog : LAKE_CATALOGS) {
            if (!catalog.equals(query.catalog())) {
                elsewhere.add(catalog + ": " + rowsOrFailure(runner, getSession(), new Query(query.number(), query.table(), catalog, query.sql()), expected));
            }
        }
        return (fixes.isEmpty() ? "no single path off restores the answer" : "the answer is right with " + String.join(", ", fixes)) + "; " + String.join(", ", elsewhere);
    }

    private String rowsOrFailure(DistributedQueryRunner runner, Session session, Query query, Multiset<List<Object>> expected)
    {
        try {
            Multiset<List<Object>> rows = run(runner, session, List.of(query), null, true, "diagnosis").get(0);
            return rows.equals(expected) ? "right" : "%d rows".formatted(rows.size());
        }
        catch (AssertionError e) {
            return "fails";
        }
    }

    private static String abbreviate(String sql)
    {
        return sql.length() <= 3_000 ? sql : sql.substring(0, 3_000) + "... (%d characters)".formatted(sql.length());
    }
}
