package io.parquetbloom.tests;

import io.parquetbloom.ParquetBloomErrorCode;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.BadFiles;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static io.parquetbloom.testing.TestingLake.tableKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damaged files, filters and settings: each gives correct rows (fail open) or a clear error naming the object or
 * the property, and never takes the worker down.
 */
final class TestParquetBloomBadInput
        extends AbstractTestQueryFramework
{
    private static final Path PARQUET_TESTING = Path.of(System.getProperty("parquetbloom.testdata", "../testdata/parquet-testing"));
    private static final String WRONG_SECRET = "wrong-secret-never-to-be-printed";

    private final TestingLake lake = new TestingLake();
    private List<TelemetryRow> sample;
    private List<TelemetryRow> threeRowGroups;
    private List<String> badDataTables;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("bad"));
        Path work = s3.work();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, work);
            sample = lake.events().subList(0, 2 * TestingLake.ROWS_PER_ROW_GROUP);
            byte[] good = TestingLake.eventsFileBytes(work, "good.parquet", sample);
            TestingLake.upload(client, BadFiles.corruptFooter(good), tableKey("bad", "corrupt_footer", "part-00000.parquet"));
            TestingLake.upload(client, BadFiles.truncated(good), tableKey("bad", "truncated", "part-00000.parquet"));
            TestingLake.upload(client, BadFiles.bloomOffsetPastEnd(good, "device_id"), tableKey("bad", "bloom_offset_past_end", "part-00000.parquet"));
            TestingLake.upload(client, BadFiles.unknownAlgorithm(good, "device_id"), tableKey("bad", "unknown_algorithm", "part-00000.parquet"));
            TestingLake.upload(client, BadFiles.statisticsMinAboveMax(good, "seq"), tableKey("bad", "corrupt_statistics", "part-00000.parquet"));
            threeRowGroups = lake.events().subList(0, 3 * TestingLake.ROWS_PER_ROW_GROUP);
            byte[] three = TestingLake.eventsFileBytes(work, "three.parquet", threeRowGroups);
            // trino-parquet leaves such a row group out of its blocks without error: every later one would shift
            TestingLake.upload(client, BadFiles.rewriteFooter(three, footer -> footer.getRow_groups().get(1).getColumns().getFirst().getMeta_data().setData_page_offset(-100)),
                    tableKey("bad", "row_group_before_file", "part-00000.parquet"));
            // two folders that are one Trino name
            TestingLake.upload(client, good, tableKey("bad", "Collide", "part-00000.parquet"));
            TestingLake.upload(client, good, tableKey("bad", "collide", "part-00000.parquet"));

            // the older file (written first, sorting first) holds seq as varchar; the newest gives the table's columns
            TestingLake.upload(client, conflictingFile(work), tableKey("bad", "schema_conflict", "part-00000.parquet"));
            TestingLake.upload(client, good, tableKey("bad", "schema_conflict", "part-00001.parquet"));

            Path badData = PARQUET_TESTING.resolve("bad_data");
            try (Stream<Path> files = Files.list(badData)) {
                badDataTables = files.filter(file -> file.toString().endsWith(".parquet")).sorted().map(file -> {
                    String table = file.getFileName().toString().replace(".parquet", "").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
                    TestingLake.upload(client, file, tableKey("bad_data", table, "data.parquet"));
                    return table;
                }).toList();
            }
            TestingLake.upload(client, PARQUET_TESTING.resolve("data/data_index_bloom_encoding_stats.parquet"), tableKey("external", "bloom_stats", "data.parquet"));
            TestingLake.upload(client, PARQUET_TESTING.resolve("data/data_index_bloom_encoding_with_length.parquet"), tableKey("external", "bloom_with_length", "data.parquet"));
        }
        return ParquetBloomQueryRunner.builder()
                .withLake(s3)
                .withCatalog("lake_bad_credentials", Map.of("s3.aws-secret-key", WRONG_SECRET))
                .withCatalog("lake_missing_bucket", Map.of("location", "s3://no-such-bucket/warehouse/"))
                .build();
    }

    @Test
    void corruptFooterNamesTheObject()
    {
        assertThat(query("SELECT count(*) FROM lake.bad.corrupt_footer WHERE seq = 1"))
                .failure()
                .hasMessageContaining("s3://lake/warehouse/bad/corrupt_footer/part-00000.parquet")
                .hasMessageContaining("corrupt footer");
    }

    @Test
    void rowGroupStartingBeforeTheFileIsAnErrorNamingFileAndRowGroup()
    {
        // rows that were silently missing (with pruning on and off) and later row groups probed with their
        // neighbour's filter: the footer is refused instead, whatever the query and the pruning settings
        TelemetryRow onlyInLast = threeRowGroups.get(2 * TestingLake.ROWS_PER_ROW_GROUP + 17);
        Session off = ParquetBloomQueryRunner.allPruningOff(getSession(), "lake");
        for (Session session : List.of(getSession(), off)) {
            for (String sql : List.of(
                    "SELECT count(*) FROM lake.bad.row_group_before_file",
                    "SELECT count(*) FROM lake.bad.row_group_before_file WHERE device_id = '%s'".formatted(onlyInLast.deviceId()),
                    "SELECT count(*) FROM lake.bad.row_group_before_file WHERE seq = %d".formatted(onlyInLast.seq()))) {
                assertThat(query(session, sql))
                        .failure()
                        .hasErrorCode(PARQUET_BLOOM_BAD_DATA)
                        .hasMessageContaining("s3://lake/warehouse/bad/row_group_before_file/part-00000.parquet")
                        .hasMessageContaining("row group 1 of 3 cannot be located")
                        .hasMessageContaining("data_page_offset -100");
            }
        }
    }

    @Test
    void truncatedObjectNamesTheObject()
    {
        assertThat(query("SELECT * FROM lake.bad.truncated"))
                .failure()
                .hasMessageContaining("s3://lake/warehouse/bad/truncated/part-00000.parquet")
                .hasMessageContaining("not a Parquet file");
    }

    @Test
    void conflictingSchemaNamesFileAndColumn()
    {
        assertThat(query("SELECT max(seq) FROM lake.bad.schema_conflict"))
                .failure()
                .hasMessageContaining("Column seq of file s3://lake/warehouse/bad/schema_conflict/part-00000.parquet")
                .hasMessageContaining("the table declares bigint");
        // columns the files agree on still read; the column missing from the older file reads as NULL
        assertThat(computeScalar("SELECT count(device_id) FROM lake.bad.schema_conflict")).isEqualTo((long) sample.size());
        assertThat(computeScalar("SELECT count(*) FROM lake.bad.schema_conflict")).isEqualTo((long) sample.size() + 10);
    }

    private static byte[] conflictingFile(Path work)
            throws IOException
    {
        org.apache.parquet.schema.MessageType schema = org.apache.parquet.schema.MessageTypeParser.parseMessageType("message m { required binary seq (STRING); }");
        Path file = work.resolve("conflict.parquet");
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, schema, ParquetFixtureWriter.Options.rowsPerRowGroup(10))) {
            for (int i = 0; i < 10; i++) {
                writer.write(writer.newRow().append("seq", "text-" + i));
            }
        }
        return Files.readAllBytes(file);
    }

    @Test
    void bloomFilterOffsetPastEndOfFileFailsOpen()
    {
        assertFailsOpen("bloom_offset_past_end");
    }

    @Test
    void unknownAlgorithmFailsOpen()
    {
        assertFailsOpen("unknown_algorithm");
    }

    private void assertFailsOpen(String table)
    {
        for (TelemetryRow target : List.of(sample.get(3), sample.get(4_000))) {
            long expected = sample.stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
            DistributedQueryRunner runner = getDistributedQueryRunner();
            var result = runner.executeWithPlan(getSession(), "SELECT count(*) FROM lake.bad.%s WHERE device_id = '%s'".formatted(table, target.deviceId()));
            assertThat(result.result().getOnlyValue()).isEqualTo(expected);
            QueryMetrics metrics = QueryMetrics.of(runner, result.queryId());
            assertThat(metrics.filtersUnusable()).isEqualTo(2);
            assertThat(metrics.prunedByBloomFilter()).isZero();
        }
        // the other columns' filters are intact and still prune (statistics pruning off, so only filters can)
        DistributedQueryRunner runner = getDistributedQueryRunner();
        Session bloomOnly = Session.builder(getSession())
                .setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false")
                .build();
        var result = runner.executeWithPlan(bloomOnly, "SELECT count(*) FROM lake.bad.%s WHERE trace_id = 'not-a-trace'".formatted(table));
        assertThat(result.result().getOnlyValue()).isEqualTo(0L);
        assertThat(QueryMetrics.of(runner, result.queryId()).prunedByBloomFilter()).isEqualTo(2);
    }

    @Test
    void wrongCredentialsGiveAClearErrorWithoutTheSecret()
    {
        assertThat(query("SHOW SCHEMAS FROM lake_bad_credentials"))
                .failure()
                .hasMessageContaining("Access denied to s3://lake/warehouse/")
                .hasMessageContaining("s3.aws-secret-key")
                .satisfies(failure -> assertThat(failure).hasStackTraceContaining("Access denied").satisfies(e -> assertThat(stackTrace(e)).doesNotContain(WRONG_SECRET)));
    }

    @Test
    void missingBucketGivesAClearError()
    {
        assertThat(query("SHOW TABLES FROM lake_missing_bucket.telemetry"))
                .failure()
                .hasMessageContaining("bucket no-such-bucket does not exist");
    }

    @Test
    void malformedParquetTestingFilesGiveTheirExactError()
    {
        // what each of parquet-testing's bad_data files must give: its rows (empty), or exactly this error
        Map<String, Optional<ExpectedError>> expected = Map.of(
                // a column chunk whose path is not in the schema
                "arrow_gh_41317", Optional.of(new ExpectedError(PARQUET_BLOOM_BAD_DATA, "has a corrupt footer: org.apache.parquet.io.InvalidRecordException: timestampwus_no_tz not found in message schema")),
                "arrow_gh_43605", Optional.empty(),
                "arrow_gh_45185", Optional.empty(),
                // a column chunk whose sizes point past the end of the file
                "arrow_rs_gh_6229_dictheader", Optional.of(new ExpectedError(PARQUET_BLOOM_BAD_DATA, "Short read of s3://lake/warehouse/bad_data/arrow_rs_gh_6229_dictheader/data.parquet: asked for 2589 bytes at 4, got 529 (the object is shorter than its metadata says)")),
                // levels that do not match the values: fails while the engine loads the block, still naming the file
                "arrow_rs_gh_6229_levels", Optional.of(new ExpectedError(PARQUET_BLOOM_READ_ERROR, "Failed to read Parquet file s3://lake/warehouse/bad_data/arrow_rs_gh_6229_levels/data.parquet: java.lang.IndexOutOfBoundsException")),
                // a ColumnMetaData without its required type
                "parquet_1481", Optional.of(new ExpectedError(PARQUET_BLOOM_BAD_DATA, "has a corrupt footer: java.io.IOException: can not read class org.apache.parquet.format.FileMetaData: Required field 'type' was not present!")));
        assertThat(badDataTables).containsExactlyInAnyOrderElementsOf(expected.keySet());
        for (String table : badDataTables) {
            String sql = "SELECT * FROM lake.bad_data." + table;
            Optional<ExpectedError> error = expected.get(table);
            if (error.isEmpty()) {
                // readable: the same rows with every pruning path off
                assertThat(computeActual(sql).getMaterializedRows()).as(table)
                        .containsExactlyInAnyOrderElementsOf(computeActual(noPruning(), sql).getMaterializedRows());
                continue;
            }
            assertThat(query(sql)).as(table)
                    .failure()
                    .hasErrorCode(error.get().code())
                    .hasMessageContaining("s3://lake/warehouse/bad_data/%s/data.parquet".formatted(table))
                    .hasMessageContaining(error.get().message());
        }
        assertThat(computeScalar("SELECT count(*) FROM lake.telemetry.no_filters")).isEqualTo(2L * TestingLake.ROWS_PER_ROW_GROUP);
    }

    @Test
    void corruptStatisticsKeepTheirRowGroupsOnCoordinatorAndWorker()
    {
        // min above max for seq: unusable statistics, kept and counted on the coordinator, and the worker, which
        // prunes the unpruned split again, keeps them too instead of failing the query
        for (TelemetryRow target : List.of(sample.get(10), sample.get(3_000))) {
            long expected = sample.stream().filter(row -> row.seq() == target.seq()).count();
            DistributedQueryRunner runner = getDistributedQueryRunner();
            var result = runner.executeWithPlan(getSession(), "SELECT count(*) FROM lake.bad.corrupt_statistics WHERE seq = %d".formatted(target.seq()));
            assertThat(result.result().getOnlyValue()).isEqualTo(expected);
            QueryMetrics metrics = QueryMetrics.of(runner, result.queryId());
            assertThat(metrics.get("planningStatisticsUnusable")).isEqualTo(2);
        }
    }

    @Test
    void foldersDifferingOnlyInCaseAreAnError()
    {
        assertThat(query("SELECT count(*) FROM lake.bad.collide"))
                .failure()
                .hasMessageContaining("Name 'collide' matches folders that differ only in case")
                .hasMessageContaining("s3://lake/warehouse/bad/Collide/")
                .hasMessageContaining("s3://lake/warehouse/bad/collide/");
    }

    private record ExpectedError(ParquetBloomErrorCode code, String message) {}

    private Session noPruning()
    {
        return ParquetBloomQueryRunner.allPruningOff(getSession(), "lake");
    }

    @Test
    void filtersOfOtherWritersWithAndWithoutLength()
    {
        for (String table : List.of("bloom_stats", "bloom_with_length")) {
            String column = (String) computeActual("SHOW COLUMNS FROM lake.external." + table).getMaterializedRows().getFirst().getField(0);
            List<Object> values = computeActual("SELECT DISTINCT %s FROM lake.external.%s WHERE %s IS NOT NULL".formatted(column, table, column)).getOnlyColumnAsSet().stream().toList();
            assertThat(values).isNotEmpty();
            for (Object value : values) {
                String sql = "SELECT count(*) FROM lake.external.%s WHERE %s = '%s'".formatted(table, column, value.toString().replace("'", "''"));
                assertThat(computeScalar(sql)).as(sql).isEqualTo(computeScalar(noPruning(), sql)).isNotEqualTo(0L);
            }
            Session bloomOnly = Session.builder(getSession())
                    .setCatalogSessionProperty("lake", "statistics_pruning_enabled", "false")
                    .build();
            var result = getDistributedQueryRunner().executeWithPlan(bloomOnly, "SELECT count(*) FROM lake.external.%s WHERE %s = 'certainly absent value'".formatted(table, column));
            assertThat(result.result().getOnlyValue()).isEqualTo(0L);
            QueryMetrics metrics = QueryMetrics.of(getDistributedQueryRunner(), result.queryId());
            assertThat(metrics.prunedByBloomFilter()).as("%s %s", table, metrics.counts()).isEqualTo(1);
        }
    }

    private static String stackTrace(Throwable throwable)
    {
        StringWriter writer = new StringWriter();
        throwable.printStackTrace(new PrintWriter(writer));
        return writer.toString();
    }

}
