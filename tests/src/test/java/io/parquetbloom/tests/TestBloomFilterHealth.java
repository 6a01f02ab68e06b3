package io.parquetbloom.tests;

import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.sbbf.BloomFilterMath;
import io.parquetbloom.testing.MeasuredResult;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.trino.Session;
import io.trino.metadata.QualifiedObjectName;
import io.trino.spi.security.ViewExpression;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Predicate;

import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * The filter health tables and the probe against files whose filters and values are known: {@code health.advised}
 * is built so that each column earns one verdict, written by parquet-java (2 partitions x 2 files x 2 row groups of
 * 2,000 rows; one file of the second partition "compacted" without the {@code drift_key} filter).
 */
final class TestBloomFilterHealth
        extends AbstractLakeQueryTest
{
    private static final int ROWS_PER_ROW_GROUP = 2_000;
    private static final int ROWS_PER_FILE = 2 * ROWS_PER_ROW_GROUP;
    private static final MessageType ADVISED_SCHEMA = MessageTypeParser.parseMessageType("""
            message advised {
              required binary key (STRING);
              required binary undersized_key (STRING);
              required binary unfiltered_key (STRING);
              required int64 seq;
              required binary country (STRING);
              required binary rare_key (STRING);
              required binary drift_key (STRING);
            }
            """);

    private record AdvisedRow(String key, String undersizedKey, String unfilteredKey, long seq, String country, String rareKey, String driftKey) {}

    private final List<List<AdvisedRow>> advisedFiles = new ArrayList<>();

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        QueryRunner runner = super.createQueryRunner();
        SplittableRandom random = new SplittableRandom(13);
        long seq = 0;
        try (S3Client client = s3.client()) {
            for (int file = 0; file < 4; file++) {
                List<AdvisedRow> rows = new ArrayList<>();
                for (int i = 0; i < ROWS_PER_FILE; i++) {
                    rows.add(new AdvisedRow(uuid(random), uuid(random), uuid(random), seq++, "country-" + random.nextInt(20), uuid(random), uuid(random)));
                }
                advisedFiles.add(rows);
                boolean compacted = file == 3;
                Path local = work.resolve("advised-%d.parquet".formatted(file));
                writeAdvised(local, rows, compacted);
                TestingLake.upload(client, local, TestingLake.tableKey("health", "advised", "day=%d/part-%d.parquet".formatted(file / 2, file)));
            }
        }
        return runner;
    }

    private static String uuid(SplittableRandom random)
    {
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    private static void writeAdvised(Path file, List<AdvisedRow> rows, boolean compacted)
    {
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS_PER_ROW_GROUP).withDictionary(false)
                .withBloomFilter("key", ROWS_PER_ROW_GROUP, 0.01)
                .withBloomFilter("undersized_key", ROWS_PER_ROW_GROUP / 20, 0.01)
                .withBloomFilter("seq", ROWS_PER_ROW_GROUP, 0.01)
                .withBloomFilter("country", ROWS_PER_ROW_GROUP, 0.01)
                .withBloomFilter("rare_key", ROWS_PER_ROW_GROUP, 0.01);
        if (!compacted) {
            options = options.withBloomFilter("drift_key", ROWS_PER_ROW_GROUP, 0.01);
        }
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, ADVISED_SCHEMA, options)) {
            for (AdvisedRow row : rows) {
                Group group = writer.newRow()
                        .append("key", row.key())
                        .append("undersized_key", row.undersizedKey())
                        .append("unfiltered_key", row.unfilteredKey())
                        .append("seq", row.seq())
                        .append("country", row.country())
                        .append("rare_key", row.rareKey())
                        .append("drift_key", row.driftKey());
                writer.write(group);
            }
        }
    }

    private Session health()
    {
        return Session.builder(getSession()).setSchema("health")
                // the table holds 8,000 rows per partition
                .setCatalogSessionProperty("lake", "bloom_filter_advice_min_distinct_values", "5000")
                .build();
    }

    @Test
    void bloomFiltersTableMeasuresEveryChunk()
    {
        MaterializedResult rows = computeActual(health(), """
                SELECT file_path, partition, row_group, column_name, physical_type, logical_type, row_count, null_count, has_filter, status,
                       filter_bytes, estimated_distinct_values, bits_per_value, false_positive_rate, created_by, filter_position, has_filter_length
                FROM "advised$bloom_filters"
                """);
        // 4 files x 2 row groups x 7 columns, with or without a filter
        assertThat(rows.getRowCount()).isEqualTo(4 * 2 * 7);
        Map<String, Integer> missing = new HashMap<>();
        for (MaterializedRow row : rows.getMaterializedRows()) {
            String column = (String) row.getField(3);
            boolean hasFilter = (Boolean) row.getField(8);
            assertThat(row.getField(4)).isEqualTo(column.equals("seq") ? "INT64" : "BYTE_ARRAY");
            assertThat(row.getField(5)).isEqualTo(column.equals("seq") ? null : "STRING");
            assertThat(row.getField(6)).isEqualTo((long) ROWS_PER_ROW_GROUP);
            assertThat(row.getField(7)).isEqualTo(0L);
            assertThat((String) row.getField(14)).startsWith("parquet-mr");
            if (!hasFilter) {
                missing.merge(column, 1, Integer::sum);
                assertThat(row.getField(9)).isEqualTo("missing");
                assertThat(row.getField(10)).isNull();
                assertThat(row.getField(11)).isNull();
                continue;
            }
            assertThat(row.getField(9)).isEqualTo("usable");
            assertThat(row.getField(15)).isEqualTo("before footer");
            assertThat(row.getField(16)).isEqualTo(true);
            long bytes = (Long) row.getField(10);
            double distinct = (Double) row.getField(11);
            long trueDistinct = switch (column) {
                case "country" -> 20;
                default -> ROWS_PER_ROW_GROUP;
            };
            if (!column.equals("undersized_key")) {
                // occupancy estimates: within 5% of the true count where the filter is not saturated
                assertThat(distinct).as("%s %s", column, row).isCloseTo(trueDistinct, withinPercentage(5));
                assertThat((Double) row.getField(12)).isCloseTo(bytes * 8.0 / distinct, within(1e-9));
                assertThat((Double) row.getField(13)).isCloseTo(BloomFilterMath.falsePositiveProbability(bytes, Math.round(distinct)), within(1e-12));
            }
            else {
                // sized for 100 values, holding 2,000: nearly every bit set, the estimate is coarse but still close
                assertThat(bytes).isLessThanOrEqualTo(256);
                assertThat(distinct).isCloseTo(ROWS_PER_ROW_GROUP, withinPercentage(25));
                assertThat((Double) row.getField(13)).isGreaterThan(0.99);
            }
        }
        assertThat(missing).containsExactlyInAnyOrderEntriesOf(Map.of("unfiltered_key", 8, "drift_key", 2));
        assertThat(computeActual(health(), "SELECT DISTINCT partition FROM \"advised$bloom_filters\"").getOnlyColumnAsSet()).containsExactlyInAnyOrder("day=0", "day=1");
    }

    @Test
    void trinoWriterFiltersAreMeasured()
    {
        // Trino's writer: fixed-size filters whatever the distinct values; the estimate follows the values written
        MaterializedResult rows = computeActual("""
                SELECT row_group, estimated_distinct_values, filter_bytes, status, created_by
                FROM "events_trino$bloom_filters" WHERE column_name = 'trace_id'
                """);
        assertThat(rows.getRowCount()).isEqualTo(2 * TestingLake.ROW_GROUPS_PER_FILE);
        for (MaterializedRow row : rows.getMaterializedRows()) {
            assertThat(row.getField(3)).isEqualTo("usable");
            assertThat((String) row.getField(4)).containsIgnoringCase("trino");
            // every row group holds 2,500 distinct random trace ids
            assertThat((Double) row.getField(1)).isCloseTo(TestingLake.ROWS_PER_ROW_GROUP, withinPercentage(5));
        }
        // its device_id chunks are all dictionary-encoded (8,000 devices), and Trino's writer gives those no filter
        assertThat(computeActual("SELECT DISTINCT status FROM \"events_trino$bloom_filters\" WHERE column_name = 'device_id'").getOnlyValue()).isEqualTo("missing");
    }

    @Test
    void dictionaryEncodedChunksAreReportedAndPruneLookups()
    {
        int rowGroups = 2 * TestingLake.ROW_GROUPS_PER_FILE;
        // Trino's writer left device_id without filters because its chunks are entirely dictionary-encoded
        MaterializedRow chunks = computeActual("""
                SELECT count(*), count_if(dictionary_encoded), count_if(dictionary_bytes > 0), count_if(has_filter)
                FROM "events_trino$bloom_filters" WHERE column_name = 'device_id'
                """).getMaterializedRows().getFirst();
        assertThat(chunks.getFields()).containsExactly((long) rowGroups, (long) rowGroups, (long) rowGroups, 0L);

        // an absent device: every row group skipped by its dictionary, none read
        String absent = new UUID(0x8123456789abcdefL, 78).toString();
        MeasuredResult absentQuery = run(getSession(), "SELECT count(*) FROM events_trino WHERE device_id = '%s'".formatted(absent));
        assertThat(absentQuery.rows().getOnlyValue()).isEqualTo(0L);
        assertThat(absentQuery.metrics().get("planningRowGroupsPrunedByDictionary")).isEqualTo(rowGroups);
        assertThat(absentQuery.metrics().get("planningDictionaryPagesRead")).isEqualTo(rowGroups);
        assertThat(absentQuery.metrics().rowGroupsRead()).isZero();

        // a present one: exactly the row groups whose rows hold it are read, with the oracle's answer
        List<TelemetryRow> written = lake.events().subList(0, rowGroups * TestingLake.ROWS_PER_ROW_GROUP);
        TelemetryRow target = written.get(7_777);
        Predicate<TelemetryRow> matches = row -> row.deviceId().equals(target.deviceId());
        MeasuredResult present = run(getSession(), "SELECT count(*) FROM events_trino WHERE device_id = '%s'".formatted(target.deviceId()));
        assertThat(present.rows().getOnlyValue()).isEqualTo(written.stream().filter(matches).count());
        assertThat(present.metrics().rowGroupsRead()).isEqualTo(rowGroupsOf(written, matches));
        assertThat(present.metrics().get("planningRowGroupsPrunedByDictionary")).isEqualTo(rowGroups - rowGroupsOf(written, matches));
        // warm: the dictionaries are cached, no page is read again
        assertThat(present.metrics().get("planningDictionaryPagesRead")).isZero();

        // the probe says the same, row group by row group
        MaterializedResult probe = computeActual("""
                SELECT bloom_filter, dictionary, read, skipped_by
                FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events_trino', column_name => 'device_id', value => '%s'))
                """.formatted(absent));
        assertThat(probe.getMaterializedRows()).hasSize(rowGroups)
                .allSatisfy(row -> assertThat(row.getFields()).containsExactly("no filter", "excludes", false, "dictionary"));

        // and the advice does not ask for a filter that dictionaries make unnecessary
        MaterializedRow advice = computeActual("SELECT verdict, reason FROM \"events_trino$bloom_filter_advice\" WHERE column_name = 'device_id'").getMaterializedRows().getFirst();
        assertThat(advice.getField(0)).isEqualTo("keep");
        assertThat((String) advice.getField(1)).contains("entirely dictionary-encoded");
    }

    @Test
    void adviceGivesEachColumnItsVerdict()
    {
        // three lookups constrain every column but rare_key
        for (int i = 0; i < 3; i++) {
            AdvisedRow target = advisedFiles.get(i).get(123 * (i + 1));
            computeActual(health(), """
                    SELECT count(*) FROM advised
                    WHERE key = '%s' AND undersized_key = '%s' AND unfiltered_key = '%s' AND seq = %d AND country = '%s' AND drift_key = '%s'
                    """.formatted(target.key(), target.undersizedKey(), target.unfilteredKey(), target.seq(), target.country(), target.driftKey()));
        }
        MaterializedResult advice = computeActual(health(), """
                SELECT column_name, verdict, queries_seen, query_share, files, files_without_filter, distinct_values_per_partition,
                       min_max_overlap, recommended_filter_bytes, parquet_java_settings, pyarrow_settings, trino_settings, iceberg_settings, reason
                FROM "advised$bloom_filter_advice"
                """);
        Map<String, MaterializedRow> byColumn = new HashMap<>();
        for (MaterializedRow row : advice.getMaterializedRows()) {
            byColumn.put((String) row.getField(0), row);
        }
        Map<String, String> verdicts = new HashMap<>();
        byColumn.forEach((column, row) -> verdicts.put(column, (String) row.getField(1)));
        assertThat(verdicts).as(advice.toString()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "key", "keep",
                "undersized_key", "resize",
                "unfiltered_key", "add",
                "seq", "drop: clustered",
                "country", "drop: low cardinality",
                "rare_key", "drop: rarely queried",
                "drift_key", "add"));
        MaterializedRow key = byColumn.get("key");
        assertThat(key.getField(2)).isEqualTo(3L);
        assertThat(key.getField(3)).isEqualTo(1.0);
        assertThat((Double) key.getField(6)).isCloseTo(2.0 * ROWS_PER_FILE, withinPercentage(10));
        assertThat((Double) key.getField(7)).isGreaterThan(0.9);
        assertThat(byColumn.get("rare_key").getField(3)).isEqualTo(0.0);
        assertThat((Double) byColumn.get("seq").getField(7)).isLessThan(0.1);
        assertThat((Double) byColumn.get("country").getField(6)).isCloseTo(20, within(2.0));
        assertThat(byColumn.get("drift_key").getField(5)).isEqualTo(1L);

        // sized for 2,000 values per row group at an exact 1%, rounded to a power of two, spelled for each writer
        MaterializedRow undersized = byColumn.get("undersized_key");
        long bytes = BloomFilterMath.optimalNumBytes(ROWS_PER_ROW_GROUP, 0.01, true);
        assertThat(undersized.getField(8)).isEqualTo(bytes);
        assertThat((String) undersized.getField(9)).contains("parquet.bloom.filter.enabled#undersized_key=true", "parquet.bloom.filter.expected.ndv#undersized_key=2000", "parquet.bloom.filter.fpp#undersized_key=0.00");
        assertThat((String) undersized.getField(10)).contains("bloom_filter_options={'undersized_key': {'ndv': 2000, 'fpp': 0.00");
        assertThat((String) undersized.getField(11)).contains("parquet_bloom_filter_columns = ARRAY['undersized_key']");
        assertThat((String) undersized.getField(12)).contains("write.parquet.bloom-filter-enabled.column.undersized_key=true", "write.parquet.bloom-filter-max-bytes=" + bytes);
        assertThat((String) byColumn.get("seq").getField(9)).isEqualTo("parquet.bloom.filter.enabled#seq=false");
        assertThat(key.getField(9)).isNull();

        // thresholds are session properties: with 90% required, nothing the lookups used is "rarely queried", all still are
        Session strict = Session.builder(health()).setCatalogSessionProperty("lake", "bloom_filter_advice_min_distinct_values", "100000").build();
        assertThat(computeActual(strict, "SELECT verdict FROM \"advised$bloom_filter_advice\" WHERE column_name = 'key'").getOnlyValue()).isEqualTo("drop: low cardinality");
    }

    @Test
    void probeAgreesWithWhatTheQueryReads()
    {
        TelemetryRow target = lake.events().get(12_345);
        String absent = new UUID(0x8123456789abcdefL, 77).toString();
        for (String value : List.of(target.deviceId(), absent)) {
            Predicate<TelemetryRow> matches = row -> row.deviceId().equals(value);
            MeasuredResult query = run(getSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(value));
            assertThat(query.rows().getOnlyValue()).isEqualTo((long) oracle(matches).size());
            MaterializedResult probe = computeActual("""
                    SELECT row_group, statistics, bloom_filter, no_match_cache, read, skipped_by
                    FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'device_id', value => '%s'))
                    """.formatted(value));
            assertThat(probe.getRowCount()).isEqualTo(ROW_GROUPS);
            long read = probe.getMaterializedRows().stream().filter(row -> (Boolean) row.getField(4)).count();
            long filterExcludes = probe.getMaterializedRows().stream().filter(row -> "excludes".equals(row.getField(2))).count();
            // the query ran first: what it read without a match is now in the no-match cache
            long noMatch = probe.getMaterializedRows().stream().filter(row -> "no match recorded".equals(row.getField(3))).count();
            assertThat(query.metrics().rowGroupsRead()).isEqualTo(read + noMatch);
            assertThat(query.metrics().prunedByBloomFilter()).isEqualTo(filterExcludes);
            assertThat(read).isEqualTo(rowGroupsHolding(matches));
            for (MaterializedRow row : probe.getMaterializedRows()) {
                if (!(Boolean) row.getField(4)) {
                    assertThat(row.getField(5)).isIn("bloom filter", "no-match cache", "statistics");
                }
            }
        }
        // a value that is not a UUID for a UUID column is named as such
        assertQueryFails("SELECT * FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'tag', value => 'nope'))",
                ".*value 'nope' is not a uuid, the type of column tag.*");
        assertQueryFails("SELECT * FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'nope', value => '1'))",
                ".*table telemetry.events has no column nope.*");
        // NaN equals nothing: refused at analysis (INVALID_FUNCTION_ARGUMENT), not an internal error on a worker
        for (String column : List.of("reading", "ratio")) {
            assertThat(query("SELECT * FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => '%s', value => 'NaN'))".formatted(column)))
                    .failure()
                    .hasErrorCode(INVALID_FUNCTION_ARGUMENT)
                    .hasMessageContaining("value 'NaN' for column %s".formatted(column))
                    .hasMessageContaining("equals no value");
        }
    }

    /**
     * A probe's verdicts tell which row groups hold a value: refused where a row filter or a column mask hides rows
     * or values from this user. Before, only SELECT on the column was checked.
     */
    @Test
    void probeIsRefusedUnderRowFiltersAndColumnMasks()
    {
        String probe = "SELECT count(*) FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'events', column_name => 'device_id', value => 'x'))";
        QualifiedObjectName events = new QualifiedObjectName("lake", "telemetry", "events");
        String user = getSession().getIdentity().getUser();
        try {
            getDistributedQueryRunner().getAccessControl().rowFilter(events, user, ViewExpression.builder().expression("seq < 10").build());
            assertQueryFails(probe, ".*bloom_probe: table telemetry.events has a row filter for this user.*");
            getDistributedQueryRunner().getAccessControl().reset();
            getDistributedQueryRunner().getAccessControl().columnMask(events, "device_id", user, ViewExpression.builder().expression("'masked'").build());
            assertQueryFails(probe, ".*bloom_probe: column device_id of telemetry.events has a mask for this user.*");
            // a mask on another column does not concern this probe
            getDistributedQueryRunner().getAccessControl().reset();
            getDistributedQueryRunner().getAccessControl().columnMask(events, "seq", user, ViewExpression.builder().expression("0").build());
            assertThat(computeActual(probe).getOnlyValue()).isEqualTo((long) ROW_GROUPS);
        }
        finally {
            getDistributedQueryRunner().getAccessControl().reset();
        }
    }

    @Test
    void metadataTablesOfUnknownTablesDoNotExist()
    {
        assertQueryFails("SELECT * FROM \"missing$bloom_filters\"", ".*Table 'lake.telemetry.\"missing\\$bloom_filters\"' does not exist.*");
        assertQueryFails("SELECT * FROM \"events$nope\"", ".*Table 'lake.telemetry.\"events\\$nope\"' does not exist.*");
    }
}
