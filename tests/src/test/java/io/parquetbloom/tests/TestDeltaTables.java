package io.parquetbloom.tests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.DeltaGoldenTables;
import io.parquetbloom.testing.DeltaLogWriter;
import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.LongStream;

import static com.google.common.collect.ImmutableMultiset.toImmutableMultiset;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.parquetbloom.testing.DeltaLogWriter.add;
import static io.parquetbloom.testing.DeltaLogWriter.field;
import static io.parquetbloom.testing.DeltaLogWriter.metadata;
import static io.parquetbloom.testing.DeltaLogWriter.protocol;
import static io.parquetbloom.testing.DeltaLogWriter.remove;
import static io.parquetbloom.testing.DeltaLogWriter.stats;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Delta Lake tables read through their log: the Delta project's golden tables (written by Spark) as their writer wrote
 * them, and logs written here for the protocol's edge cases (a file removed and its rows rewritten, a path removed and
 * added again, deletion vectors inline and in files, column mapping with a rename and a column dropped and added
 * again, partition values from the log). Only live rows are ever returned, by every path: whole files, lookups, the
 * key index, a time travel.
 */
final class TestDeltaTables
        extends AbstractTestQueryFramework
{
    private static final String SCHEMA = "dl";
    private static final String FILE_SCHEMA = "message m { required int64 id; optional binary device_id (STRING); optional double reading; }";

    private TestingS3 s3;
    private S3Client client;
    private CountingProxy proxy;
    private int catalogs;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        s3 = closeAfterClass(TestingS3.start("delta"));
        client = s3.client();
        for (String golden : List.of("dv-with-columnmapping", "log-replay-dv-key-cases", "multi-part-checkpoint", "v2-checkpoint-json", "v2-checkpoint-parquet",
                "basic-with-inserts-updates", "data-reader-escaped-chars", "data-reader-partition-values", "data-skipping-basic-stats-all-types-columnmapping-id",
                "type-widening", "time-travel-start-start20-start40", "table-with-columnmapping-mode-name")) {
            DeltaGoldenTables.upload(client, TestingLake.BUCKET, golden, "warehouse/golden/%s/".formatted(golden.replace('-', '_')));
        }
        // a Delta table outside the layout's folders, for a registration
        DeltaGoldenTables.upload(client, TestingLake.BUCKET, "multi-part-checkpoint", "elsewhere/deep/mpc/");
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        return ParquetBloomQueryRunner.builder().withLake(s3).build();
    }

    @Test
    void goldenTablesAnswerAsSparkWroteThem()
    {
        // deletion vectors on disk, column mapping by name, partitioned, a checkpoint: rows 0 to 49, the even ones up to
        // 28 deleted
        assertThat(computeActual("SELECT count(*), sum(col1) FROM lake.golden.dv_with_columnmapping").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(35L, 1015L)));
        assertThat(computeActual("SELECT col1 FROM lake.golden.dv_with_columnmapping WHERE part = 4").getOnlyColumnAsSet()).containsExactlyInAnyOrder(34, 44);
        assertThat(computeActual("SELECT part, col1, col2 FROM lake.golden.dv_with_columnmapping WHERE col1 = 33").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(3, 33, "foo3")));
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.dv_with_columnmapping WHERE col1 = 12")).isEqualTo(0L);
        // three deletes, each a new vector of the same file
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.log_replay_dv_key_cases")).isEqualTo(47L);
        assertThat(computeActual("SELECT id FROM lake.golden.log_replay_dv_key_cases WHERE id IN (0, 6, 7, 8, 14)").getOnlyColumnAsSet()).containsExactlyInAnyOrder(6L, 8L);
        // checkpoints in two parts, and v2 checkpoints whose files are in sidecars
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.multi_part_checkpoint")).isEqualTo(31L);
        for (String table : List.of("v2_checkpoint_json", "v2_checkpoint_parquet")) {
            assertThat(computeActual("SELECT id FROM lake.golden.%s".formatted(table)).getOnlyColumnAsSet()).as(table)
                    .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 10).boxed().toList());
        }
        // an UPDATE rewrote files: the old ones are still in the folder, dead
        assertThat(computeActual("SELECT count(*), count_if(str = 'N/A') FROM lake.golden.basic_with_inserts_updates").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(100L, 50L)));
        // partition folders whose names the log percent-encodes
        assertThat(computeActual("SELECT _1, _2 FROM lake.golden.data_reader_escaped_chars").getMaterializedRows()).containsExactlyInAnyOrder(
                new MaterializedRow(List.of("foo1", "bar+%21")), new MaterializedRow(List.of("foo2", "bar+%22")), new MaterializedRow(List.of("foo3", "bar+%23")));
        assertThat(computeScalar("SELECT _1 FROM lake.golden.data_reader_escaped_chars WHERE _2 = 'bar+%22'")).isEqualTo("foo2");
        // column mapping by id
        assertThat(computeActual("SELECT as_int, as_long, as_string, as_date FROM lake.golden.data_skipping_basic_stats_all_types_columnmapping_id").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(0, 0L, "0", LocalDate.of(2000, 1, 1))));
        // three versions of ten rows each
        for (int version = 0; version < 3; version++) {
            assertThat(computeScalar("SELECT count(*) FROM lake.golden.time_travel_start_start20_start40 FOR VERSION AS OF " + version)).isEqualTo(10L * (version + 1));
        }
        assertThat(computeScalar("SELECT max(id) FROM lake.golden.time_travel_start_start20_start40")).isEqualTo(29L);
    }

    /**
     * A Delta table registered by name is read through its log as one found by the layout; a metadata file name (an
     * Iceberg table's pin) is refused for it.
     */
    @Test
    void aRegisteredDeltaTableIsReadThroughItsLog()
    {
        getQueryRunner().execute("CALL lake.system.register_table('golden', 'registered_mpc', 's3://lake/elsewhere/deep/mpc/')");
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.registered_mpc")).isEqualTo(31L);
        assertThat(computeScalar("SELECT value FROM lake.golden.\"registered_mpc$properties\" WHERE key = 'delta.version'")).isEqualTo("1");
        assertThatThrownBy(() -> computeActual("CALL lake.system.register_table('golden', 'pinned_mpc', 's3://lake/elsewhere/deep/mpc/', '00001-6d1f1b2c.metadata.json')"))
                .hasMessageContaining("is a Delta Lake table, read from its _delta_log/: metadata_file_name names an Iceberg table's metadata file");
    }

    @Test
    void whatIsNotReadFailsNamingIt()
    {
        assertThatThrownBy(() -> computeActual("SELECT * FROM lake.golden.data_reader_partition_values"))
                .hasMessageContaining("partition column as_timestamp is of type timestamp(6) with time zone, which this connector does not read as a partition yet");
    }

    /**
     * Column mapping by name reaches into structs (in arrays and maps too): their fields have physical names in files.
     */
    @Test
    void nestedFieldsByTheirPhysicalNames()
    {
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.table_with_columnmapping_mode_name")).isEqualTo(6L);
        assertThat(computeActual("SELECT integertype, stringtype, nested_struct.aa, nested_struct.ac.aca, array_of_structs[1].ab, map_of_rows[4].ab, " +
                "struct_of_arrays_maps_of_structs.aa[2], array_of_prims[2] FROM lake.golden.table_with_columnmapping_mode_name WHERE integertype = 3").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(3, "3", "3", 3, 3, 60L, 4, 4)));
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.table_with_columnmapping_mode_name WHERE nested_struct IS NULL")).isEqualTo(1L);
        // Spark's timestamps (INT64 micros, adjusted to UTC) as timestamp(6) with time zone
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.table_with_columnmapping_mode_name WHERE timestamptype = from_iso8601_timestamp('1970-01-01T00:00:00.003Z')")).isEqualTo(1L);
    }

    /**
     * Type widening (the {@code typeWidening} feature): every widening the feature defines, read from files written with
     * the narrower type.
     */
    @Test
    void typeWideningReadsNarrowerFiles()
    {
        assertThat(computeActual("SELECT byte_long, int_long, float_double FROM lake.golden.type_widening ORDER BY byte_long").getMaterializedRows()).containsExactly(
                new MaterializedRow(List.of(1L, 2L, (double) 3.4f)),
                new MaterializedRow(List.of(Long.MAX_VALUE, Long.MAX_VALUE, 1.234567890123)));
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.type_widening WHERE int_long = 2")).isEqualTo(1L);
        // widenings trino-parquet does not read by itself: the file's values converted after reading
        Map<String, List<String>> widened = new LinkedHashMap<>();
        widened.put("byte_double", List.of("5.0E0", "1.234567890123E0"));
        widened.put("short_double", List.of("6.0E0", "1.234567890123E0"));
        widened.put("int_double", List.of("7.0E0", "1.234567890123E0"));
        widened.put("decimal_decimal_same_scale", List.of("123.45", "12345678901234.56"));
        widened.put("decimal_decimal_greater_scale", List.of("67.89000", "12345678901.23456"));
        widened.put("byte_decimal", List.of("1.0", "123.4"));
        widened.put("short_decimal", List.of("2.0", "12345.6"));
        widened.put("int_decimal", List.of("3.0", "1234567890.1"));
        widened.put("long_decimal", List.of("4.0", "123456789012345678.9"));
        widened.put("date_timestamp_ntz", List.of("2024-09-09 00:00:00.000000", "2024-09-09 12:34:56.123456"));
        widened.forEach((column, values) -> assertThat(computeActual("SELECT CAST(%s AS varchar) FROM lake.golden.type_widening ORDER BY byte_long".formatted(column)).getOnlyColumn().toList())
                .as(column).isEqualTo(values));
        // a predicate on a widened column: the older file's statistics and filters are of its own type, and prune nothing
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.type_widening WHERE int_double = 7")).isEqualTo(1L);
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.type_widening WHERE byte_decimal = 1.0")).isEqualTo(1L);
        assertThat(computeScalar("SELECT count(*) FROM lake.golden.type_widening WHERE date_timestamp_ntz = TIMESTAMP '2024-09-09 00:00:00'")).isEqualTo(1L);
    }

    /**
     * A log written here: two partitions, a file whose rows an update rewrote (the old file stays in its folder),
     * deletion vectors inline and in a file, a path removed and added again; every version travelled to.
     */
    @Test
    void onlyLiveRowsOfEachVersion()
    {
        String table = "events";
        writeEvents(table);
        // ids 0 to 999 less 0, 5, 999; 1001 to 1999 rewritten (reading -1); 2000 to 2999 less 2010 to 2019
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.events")).isEqualTo(997L + 999L + 990L);
        assertThat(computeActual("SELECT id FROM lake.dl.events WHERE id IN (0, 1, 5, 999, 1000, 1001, 2010, 2019, 2020)").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder(1L, 1001L, 2020L);
        assertThat(computeActual("SELECT DISTINCT reading FROM lake.dl.events WHERE region = 'us'").getOnlyColumnAsSet()).containsExactly(-1.0);
        assertThat(computeActual("SELECT * FROM lake.dl.events WHERE device_id IN ('dev-5', 'dev-6', 'dev-1000', 'dev-2015')").getMaterializedRows())
                .containsExactly(new MaterializedRow(List.of(6L, "dev-6", 0.6, "eu")));
        assertThat(computeActual("SELECT id FROM lake.dl.events LIMIT 2980").getRowCount()).isEqualTo(2980);
        // each version as it was
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.events FOR VERSION AS OF 0")).isEqualTo(2000L);
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.events FOR VERSION AS OF 1")).isEqualTo(3000L);
        assertThat(computeScalar("SELECT count_if(reading = -1) FROM lake.dl.events FOR VERSION AS OF 2")).isEqualTo(1000L);
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.events FOR VERSION AS OF 4")).isEqualTo(997L + 990L);
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.dl.events FOR VERSION AS OF 9")).hasMessageContaining("Delta Lake table dl.events has no version 9; its newest is 5");
        assertThat(computeScalar("SELECT value FROM lake.dl.\"events$properties\" WHERE key = 'delta.version'")).isEqualTo("5");
        // the partition values come from the log: $partition too
        assertThat(computeActual("SELECT DISTINCT \"$partition\" FROM lake.dl.events").getOnlyColumnAsSet()).containsExactlyInAnyOrder("region=eu", "region=us");
        // a commit after the first read: the next query sees it
        commitMore(table);
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.events")).isEqualTo(997L + 999L + 990L + 100L);
        assertThat(computeScalar("SELECT value FROM lake.dl.\"events$properties\" WHERE key = 'delta.version'")).isEqualTo("6");
    }

    /**
     * FOR TIMESTAMP AS OF reads the version whose commit was written last by then.
     */
    @Test
    void timeTravelByTimestamp()
            throws InterruptedException
    {
        DeltaLogWriter log = new DeltaLogWriter(client, TestingLake.BUCKET, "warehouse/dl/timed/");
        List<Instant> after = new ArrayList<>();
        for (int version = 0; version < 3; version++) {
            byte[] file = LakeFiles.parquet(s3.work(), "timed-%d.parquet".formatted(version), FILE_SCHEMA, rows(version * 10, version * 10 + 10, 1.0), 10, Set.of());
            log.put("f%d.parquet".formatted(version), file);
            List<ObjectNode> actions = new ArrayList<>();
            if (version == 0) {
                actions.add(protocol(1, 2, List.of()));
                actions.add(eventsMetadata(List.of()));
            }
            actions.add(add("f%d.parquet".formatted(version), Map.of(), file.length, 1_700_000_000_000L, Optional.empty(), Optional.empty()));
            log.commit(version, System.currentTimeMillis(), actions);
            // S3 keeps whole seconds
            Thread.sleep(1_100);
            after.add(Instant.now());
            Thread.sleep(1_100);
        }
        for (int version = 0; version < 3; version++) {
            assertThat(computeScalar("SELECT count(*) FROM lake.dl.timed FOR TIMESTAMP AS OF from_iso8601_timestamp('%s')".formatted(after.get(version))))
                    .isEqualTo(10L * (version + 1));
        }
        assertThatThrownBy(() -> computeActual("SELECT count(*) FROM lake.dl.timed FOR TIMESTAMP AS OF TIMESTAMP '2001-01-01 00:00:00 UTC'"))
                .hasMessageContaining("has no version committed at or before");
    }

    /**
     * Column mapping by name: files name columns by physical names; a rename changes no file, a column dropped and
     * added again under the same name is a new physical column (NULL in the older file).
     */
    @Test
    void columnMappingByNameFollowsRenamesAndDrops()
    {
        DeltaLogWriter log = new DeltaLogWriter(client, TestingLake.BUCKET, "warehouse/dl/mapped/");
        String schema = "message m { required int64 col-a; optional binary col-b (STRING); optional binary col-c (STRING); }";
        List<Object[]> first = new ArrayList<>();
        for (long id = 0; id < 50; id++) {
            first.add(new Object[] {id, "dev-" + id, "old-" + id});
        }
        byte[] older = LakeFiles.parquet(s3.work(), "mapped-0.parquet", schema, first, 20, Set.of("col-b"));
        log.put("aa/m0.parquet", older);
        Map<String, String> mapping = Map.of("delta.columnMapping.mode", "name", "delta.columnMapping.maxColumnId", "4");
        log.commit(0, 1_700_000_000_000L, List.of(
                protocol(2, 5, List.of()),
                metadata("m", List.of(mapped("id", "long", "col-a", 1), mapped("device_id", "string", "col-b", 2), mapped("note", "string", "col-c", 3)), List.of(), mapping),
                add("aa/m0.parquet", Map.of(), older.length, 1_700_000_000_000L, Optional.of(stats(50, Map.of("col-a", 0, "col-b", "dev-0"), Map.of("col-a", 49, "col-b", "dev-9"), Map.of("col-a", 0L))), Optional.empty())));
        String newSchema = "message m { required int64 col-a; optional binary col-b (STRING); optional binary col-d (STRING); }";
        List<Object[]> second = new ArrayList<>();
        for (long id = 50; id < 80; id++) {
            second.add(new Object[] {id, "dev-" + id, "new-" + id});
        }
        byte[] newer = LakeFiles.parquet(s3.work(), "mapped-1.parquet", newSchema, second, 20, Set.of("col-b"));
        log.put("bb/m1.parquet", newer);
        log.commit(1, 1_700_000_001_000L, List.of(
                metadata("m", List.of(mapped("id", "long", "col-a", 1), mapped("device", "string", "col-b", 2), mapped("note", "string", "col-d", 4)), List.of(), mapping),
                add("bb/m1.parquet", Map.of(), newer.length, 1_700_000_001_000L, Optional.empty(), Optional.empty())));

        assertThat(computeActual("SELECT id, device, note FROM lake.dl.mapped WHERE id IN (3, 60)").getMaterializedRows()).containsExactlyInAnyOrder(
                new MaterializedRow(Arrays.asList(3L, "dev-3", null)),
                new MaterializedRow(List.of(60L, "dev-60", "new-60")));
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.mapped WHERE note IS NULL")).isEqualTo(50L);
        assertThat(computeScalar("SELECT count(*) FROM lake.dl.mapped WHERE device = 'dev-7'")).isEqualTo(1L);
        // the older version, with its own names
        assertThat(computeScalar("SELECT note FROM lake.dl.mapped FOR VERSION AS OF 0 WHERE device_id = 'dev-7'")).isEqualTo("old-7");
    }

    /**
     * The statistics of each {@code add} exclude files before their footers are read.
     */
    @Test
    void statisticsOfTheLogExcludeFiles()
    {
        writeEvents("ranged");
        String catalog = countedCatalog();
        computeActual("SELECT count(*) FROM %s.dl.ranged".formatted(catalog));
        // ids 2000 to 2999 are in one live file; its statistics say so
        assertThat(dataFilesOpened("SELECT * FROM %s.dl.ranged WHERE id = 2500".formatted(catalog))).containsExactly("warehouse/dl/ranged/region=eu/f2.parquet");
        assertThat(dataFilesOpened("SELECT * FROM %s.dl.ranged WHERE id = 5000".formatted(catalog))).isEmpty();
        assertThat(dataFilesOpened("SELECT * FROM %s.dl.ranged WHERE region = 'us'".formatted(catalog))).containsExactly("warehouse/dl/ranged/region=us/f1b.parquet");
        // off with statistics pruning
        MeasuredResult off = MeasuredResult.run(getDistributedQueryRunner(), Session.builder(getSession()).setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false").build(),
                "SELECT count(*) FROM lake.dl.ranged WHERE id = 2500");
        assertThat(off.rows().getOnlyValue()).isEqualTo(1L);
    }

    /**
     * The key index of a Delta table covers the live files of the version it was built from: a lookup plans only
     * files live in the version it reads, deletion vectors still applied; files of later versions are read as
     * uncovered until a refresh.
     */
    @Test
    void theKeyIndexCoversTheLiveFilesOfTheVersionRead()
    {
        writeEvents("indexed");
        getQueryRunner().execute("CALL lake.system.create_key_index('dl', 'indexed', 'device_id')");
        String lookup = "SELECT id FROM lake.dl.indexed WHERE device_id IN ('dev-5', 'dev-6', 'dev-1000', 'dev-1500', 'dev-2015', 'dev-2500', 'dev-absent')";
        MeasuredResult indexed = MeasuredResult.run(getDistributedQueryRunner(), getSession(), lookup);
        assertThat(indexed.rows().getOnlyColumnAsSet()).containsExactlyInAnyOrder(6L, 1500L, 2500L);
        assertThat(indexed.metrics().get("filesCoveredByKeyIndex")).isEqualTo(3);
        assertThat(indexed.metrics().get("filesUncovered")).isZero();
        commitMore("indexed");
        MeasuredResult later = MeasuredResult.run(getDistributedQueryRunner(), getSession(), lookup.replace("'dev-absent'", "'dev-3050'"));
        assertThat(later.rows().getOnlyColumnAsSet()).containsExactlyInAnyOrder(6L, 1500L, 2500L, 3050L);
        assertThat(later.metrics().get("filesUncovered")).isEqualTo(1);
        // the refresh by the table procedure reads the file of the later version
        getQueryRunner().execute("ALTER TABLE lake.dl.indexed EXECUTE create_key_index(column => 'device_id')");
        MeasuredResult refreshed = MeasuredResult.run(getDistributedQueryRunner(), getSession(), lookup.replace("'dev-absent'", "'dev-3050'"));
        assertThat(refreshed.rows().getOnlyColumnAsSet()).containsExactlyInAnyOrder(6L, 1500L, 2500L, 3050L);
        assertThat(refreshed.metrics().get("filesUncovered")).isZero();
        // an older version is planned from its own live files: the index's entries of files added since are not used
        assertThat(computeActual(lookup.replace("lake.dl.indexed", "lake.dl.indexed FOR VERSION AS OF 1")).getOnlyColumnAsSet()).containsExactlyInAnyOrder(5L, 6L, 1000L, 1500L, 2015L, 2500L);
    }

    /**
     * The requests of a lookup: cold, the layout's listings, the log (its last checkpoint, one LIST of the log, its
     * commits) and the live files (a deletion vector only for a file read: bloom filters exclude this key's); warm, one
     * LIST of the log past the version read, nothing else of the log.
     */
    @Test
    void requestsOfALookup()
    {
        writeEvents("counted");
        String catalog = countedCatalog();
        String lookup = "SELECT * FROM %s.dl.counted WHERE device_id = '%s'".formatted(catalog, "%s");
        Multiset<String> cold = requests(lookup.formatted("dev-77x"));
        assertThat(filter(cold, request -> !request.endsWith("data file"))).isEqualTo(ImmutableMultiset.builder()
                .add("LIST warehouse/")
                .add("LIST warehouse/dl/")
                .add("LIST warehouse/dl/counted/")
                .add("GET _last_checkpoint")
                .add("LIST warehouse/dl/counted/_delta_log/")
                .addCopies("GET commit", 6)
                .add("LIST warehouse/dl/counted/_key_index/")
                .build());
        Multiset<String> warm = requests(lookup.formatted("dev-77y"));
        assertThat(warm).isEqualTo(ImmutableMultiset.builder()
                .add("LIST warehouse/")
                .add("LIST warehouse/dl/")
                .add("LIST warehouse/dl/counted/_delta_log/")
                .build());
        // a new commit: its file alone is read of the log
        commitMore("counted");
        Multiset<String> updated = requests(lookup.formatted("dev-77z"));
        assertThat(filter(updated, request -> !request.endsWith("data file"))).isEqualTo(ImmutableMultiset.builder()
                .add("LIST warehouse/")
                .add("LIST warehouse/dl/")
                .add("LIST warehouse/dl/counted/_delta_log/")
                .add("GET commit")
                .build());
    }

    private static Multiset<String> filter(Multiset<String> requests, Predicate<String> keep)
    {
        return requests.stream().filter(keep).collect(toImmutableMultiset());
    }

    private String countedCatalog()
    {
        String catalog = "counted_" + catalogs++;
        getQueryRunner().createCatalog(catalog, "parquet_bloom", ParquetBloomQueryRunner.catalogProperties(proxy.endpoint(), S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, TestingLake.ROOT));
        return catalog;
    }

    private Set<String> dataFilesOpened(String sql)
    {
        proxy.reset();
        computeActual(sql);
        return proxy.requests().stream()
                .map(CountingProxy.Request::target)
                .filter(key -> key.endsWith(".parquet"))
                .collect(toImmutableSet());
    }

    private Multiset<String> requests(String sql)
    {
        proxy.reset();
        computeActual(sql);
        return proxy.requests().stream()
                .map(request -> request.method().equals("LIST") ? "LIST " + request.target() : describe(request))
                .collect(toImmutableMultiset());
    }

    private static String describe(CountingProxy.Request request)
    {
        String key = request.target();
        String name = key.substring(key.lastIndexOf('/') + 1);
        String kind;
        if (name.equals("_last_checkpoint")) {
            kind = name;
        }
        else if (key.contains("/_delta_log/") && name.endsWith(".json")) {
            kind = "commit";
        }
        else if (name.startsWith("deletion_vector_")) {
            kind = "deletion vector";
        }
        else if (name.endsWith(".parquet")) {
            kind = "data file";
        }
        else {
            kind = key;
        }
        return (request.range().isEmpty() ? request.method() : request.method() + "_RANGE") + " " + kind;
    }

    /**
     * Versions 0 to 5 of table {@code name} in schema {@code dl}, partitioned by region: see
     * {@link #onlyLiveRowsOfEachVersion}.
     */
    private void writeEvents(String name)
    {
        DeltaLogWriter log = new DeltaLogWriter(client, TestingLake.BUCKET, "warehouse/%s/%s/".formatted(SCHEMA, name));
        byte[] f0 = dataFile(log, name, "region=eu/f0.parquet", 0, 1000, 0.1);
        byte[] f1 = dataFile(log, name, "region=us/f1.parquet", 1000, 2000, 0.1);
        byte[] f2 = dataFile(log, name, "region=eu/f2.parquet", 2000, 3000, 0.1);
        byte[] f1b = dataFile(log, name, "region=us/f1b.parquet", 1000, 2000, -1);
        long time = 1_700_000_000_000L;
        log.commit(0, time, List.of(protocol(1, 2, List.of()), eventsMetadata(List.of("region")),
                addEvents("region=eu/f0.parquet", "eu", f0, 0, 999, Optional.empty()),
                addEvents("region=us/f1.parquet", "us", f1, 1000, 1999, Optional.empty())));
        log.commit(1, time + 1000, List.of(addEvents("region=eu/f2.parquet", "eu", f2, 2000, 2999, Optional.empty())));
        // an UPDATE of the us rows: f1 dead, still in its folder
        log.commit(2, time + 2000, List.of(remove("region=us/f1.parquet", time + 2000, Optional.empty()), addEvents("region=us/f1b.parquet", "us", f1b, 1000, 1999, Optional.empty())));
        // DELETEs as deletion vectors: a file's add replaced by one with its vector
        ObjectNode inline = DeltaLogWriter.inlineVector(0, 5, 999);
        ObjectNode onDisk = log.fileVector("ab", UUID.nameUUIDFromBytes(name.getBytes(UTF_8)), LongStream.range(10, 20).toArray());
        log.commit(3, time + 3000, List.of(protocol(3, 7, List.of("deletionVectors")),
                remove("region=eu/f0.parquet", time + 3000, Optional.empty()), addEvents("region=eu/f0.parquet", "eu", f0, 0, 999, Optional.of(inline)),
                remove("region=eu/f2.parquet", time + 3000, Optional.empty()), addEvents("region=eu/f2.parquet", "eu", f2, 2000, 2999, Optional.of(onDisk))));
        // a path removed, then added again (with a vector of its first row)
        log.commit(4, time + 4000, List.of(remove("region=us/f1b.parquet", time + 4000, Optional.empty())));
        log.commit(5, time + 5000, List.of(addEvents("region=us/f1b.parquet", "us", f1b, 1000, 1999, Optional.of(DeltaLogWriter.inlineVector(0)))));
    }

    private void commitMore(String name)
    {
        DeltaLogWriter log = new DeltaLogWriter(client, TestingLake.BUCKET, "warehouse/%s/%s/".formatted(SCHEMA, name));
        byte[] f3 = dataFile(log, name, "region=ap/f3.parquet", 3000, 3100, 0.5);
        log.commit(6, 1_700_000_006_000L, List.of(addEvents("region=ap/f3.parquet", "ap", f3, 3000, 3099, Optional.empty())));
    }

    private byte[] dataFile(DeltaLogWriter log, String table, String path, long from, long to, double reading)
    {
        byte[] bytes = LakeFiles.parquet(s3.work(), "%s-%s".formatted(table, path.replace('/', '-')), FILE_SCHEMA, rows(from, to, reading), 100, Set.of("device_id"));
        log.put(path, bytes);
        return bytes;
    }

    private static List<Object[]> rows(long from, long to, double reading)
    {
        List<Object[]> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(new Object[] {id, "dev-" + id, reading < 0 ? reading : id * reading});
        }
        return rows;
    }

    private static ObjectNode eventsMetadata(List<String> partitionColumns)
    {
        List<ObjectNode> fields = new ArrayList<>(List.of(field("id", "long"), field("device_id", "string"), field("reading", "double")));
        if (!partitionColumns.isEmpty()) {
            fields.add(field("region", "string"));
        }
        return metadata("events", fields, partitionColumns, Map.of());
    }

    private static ObjectNode addEvents(String path, String region, byte[] file, long minId, long maxId, Optional<ObjectNode> vector)
    {
        String stats = stats(maxId - minId + 1, Map.of("id", minId, "device_id", "dev-" + minId), Map.of("id", maxId, "device_id", "dev-" + maxId), Map.of("id", 0L, "device_id", 0L));
        return add(path, Map.of("region", region), file.length, 1_700_000_000_000L, Optional.of(stats), vector);
    }

    private static ObjectNode mapped(String name, String type, String physical, int id)
    {
        return field(name, type, Optional.of(physical), Optional.of(id));
    }
}
