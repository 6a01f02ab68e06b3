package io.parquetbloom.tests;

import io.parquetbloom.ParquetBloomErrorCode;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.parquetbloom.testing.TestingLake.tableKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values read exactly as stored, and never from two versions of an object: unsigned integers read as their unsigned
 * values and pruned by that same reading; every GET pinned to the listed ETag, so an object rewritten after it was
 * planned fails the query with a clear error instead of mixing new bytes with old offsets.
 */
final class TestReadExactly
        extends AbstractTestQueryFramework
{
    private static final MessageType UNSIGNED = MessageTypeParser.parseMessageType("""
            message u {
              required int64 id;
              required int32 u8 (INTEGER(8,false));
              required int32 u16 (INTEGER(16,false));
              required int32 u32 (INTEGER(32,false));
              required int64 u64 (INTEGER(64,false));
              optional int32 u32n (INTEGER(32,false));
            }
            """);
    private static final int ROWS_PER_ROW_GROUP = 100;
    private static final BigInteger TWO_POW_64 = BigInteger.ONE.shiftLeft(64);

    private final List<long[]> unsignedRows = new ArrayList<>();
    private S3Client s3Client;
    private Path work;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("exact"));
        work = s3.work();
        s3Client = closeAfterClass(s3.client());
        TestingLake.upload(s3Client, writeUnsigned(work.resolve("unsigned.parquet")), tableKey("exact", "unsigned", "part-00000.parquet"));
        TestingLake.upload(s3Client, versionedFile("A"), tableKey("exact", "versioned", "part-00000.parquet"));
        return ParquetBloomQueryRunner.builder()
                .withLake(s3)
                .withCatalog("lake_listing_cache", Map.of("metadata.listing-cache-ttl", "1h"))
                .build();
    }

    /**
     * Three row groups: the first holds only UINT32 values at or above 2^31 (stored as negative INT32), the others the
     * whole range; UINT64 up to 2^64 - 1 (stored as negative INT64); UINT8/UINT16 up to their maximum.
     */
    private byte[] writeUnsigned(Path file)
            throws Exception
    {
        SplittableRandom random = new SplittableRandom(32);
        long[] u32Edges = {2_188_839_737L, 4_290_165_358L, 671_498L, 2_147_483_648L, 4_294_967_295L, 0L};
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(ROWS_PER_ROW_GROUP).withDictionary(false);
        for (String column : List.of("u8", "u16", "u32", "u64", "u32n")) {
            options = options.withBloomFilter(column, ROWS_PER_ROW_GROUP, 0.01);
        }
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, UNSIGNED, options)) {
            for (int id = 0; id < 3 * ROWS_PER_ROW_GROUP; id++) {
                long u32 = id < ROWS_PER_ROW_GROUP
                        ? random.nextLong(1L << 31, 1L << 32)
                        : id % 50 < u32Edges.length ? u32Edges[id % 50] : random.nextLong(1L << 32);
                long u64 = id % 7 == 0 ? -1L : id % 7 == 1 ? Long.MIN_VALUE : random.nextLong();
                long u8 = id % 5 == 0 ? 255 : random.nextInt(256);
                long u16 = id % 5 == 0 ? 65_535 : random.nextInt(65_536);
                long u32n = id % 3 == 0 ? -1 : u32;
                unsignedRows.add(new long[] {id, u8, u16, u32, u64, u32n});
                Group group = writer.newRow()
                        .append("id", (long) id)
                        .append("u8", (int) u8)
                        .append("u16", (int) u16)
                        .append("u32", (int) u32)
                        .append("u64", u64);
                if (u32n >= 0) {
                    group.append("u32n", (int) u32n);
                }
                writer.write(group);
            }
        }
        return Files.readAllBytes(file);
    }

    private static BigDecimal unsigned64(long stored)
    {
        BigInteger value = BigInteger.valueOf(stored);
        return new BigDecimal(value.signum() < 0 ? value.add(TWO_POW_64) : value);
    }

    @Test
    void unsignedIntegersReadAsTheirUnsignedValues()
    {
        assertThat(computeActual("DESCRIBE lake.exact.unsigned").getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList())
                .containsExactly("id bigint", "u8 smallint", "u16 integer", "u32 bigint", "u64 decimal(20,0)", "u32n bigint");
        List<MaterializedRow> rows = computeActual("SELECT id, u8, u16, u32, u64, u32n FROM lake.exact.unsigned ORDER BY id").getMaterializedRows();
        assertThat(rows).hasSize(unsignedRows.size());
        for (MaterializedRow row : rows) {
            long[] expected = unsignedRows.get((int) (long) (Long) row.getField(0));
            assertThat(row.getField(1)).isEqualTo((short) expected[1]);
            assertThat(row.getField(2)).isEqualTo((int) expected[2]);
            assertThat(row.getField(3)).isEqualTo(expected[3]);
            assertThat(row.getField(4)).isEqualTo(unsigned64(expected[4]));
            assertThat(row.getField(5)).isEqualTo(expected[5] < 0 ? null : expected[5]);
        }
        assertThat(computeActual("SELECT max(u32), min(u32), max(u64), max(u8), max(u16) FROM lake.exact.unsigned").getMaterializedRows().getFirst().getFields())
                .containsExactly(4_294_967_295L, 0L, new BigDecimal("18446744073709551615"), (short) 255, 65_535);
    }

    @Test
    void unsignedLookupsAreTheSameWithPruningOnAndOff()
    {
        List<String> predicates = List.of(
                "u32 = 2188839737",
                "u32 = 4290165358",
                "u32 = 671498",
                "u32 = 5",
                "u32 = 4294967296",
                "u32 IN (2147483648, 4294967295, 0)",
                "u32 BETWEEN 4000000000 AND 4300000000",
                "u32n = 2188839737 OR u32n IS NULL",
                "u64 = DECIMAL '18446744073709551615'",
                "u64 = DECIMAL '9223372036854775808'",
                "u64 = DECIMAL '%s'".formatted(unsigned64(unsignedRows.get(200)[4])),
                "u64 > DECIMAL '18446744073709551614'",
                "u8 = 255",
                "u8 = 256",
                "u16 = 65535",
                "u16 IN (%d, %d)".formatted(unsignedRows.get(17)[2], unsignedRows.get(250)[2]));
        for (String predicate : predicates) {
            String sql = "SELECT id FROM lake.exact.unsigned WHERE " + predicate;
            var pruned = getDistributedQueryRunner().executeWithPlan(getSession(), sql);
            List<MaterializedRow> unpruned = computeActual(noPruning("lake"), sql).getMaterializedRows();
            assertThat(pruned.result().getMaterializedRows()).as(predicate).containsExactlyInAnyOrderElementsOf(unpruned);
            assertThat(QueryMetrics.of(getDistributedQueryRunner(), pruned.queryId()).get("planningStatisticsUnusable")).as(predicate).isZero();
        }
        // below every UINT32 value of the first row group: its unsigned statistics exclude it, its filter is not needed
        var result = getDistributedQueryRunner().executeWithPlan(getSession(), "SELECT count(*) FROM lake.exact.unsigned WHERE u32 = 5");
        assertThat(QueryMetrics.of(getDistributedQueryRunner(), result.queryId()).prunedByStatistics()).isGreaterThanOrEqualTo(1);
        // a present value at or above 2^31 is found, its absent neighbour pruned by the filters
        long present = unsignedRows.get(10)[3];
        assertThat(computeScalar("SELECT count(*) FROM lake.exact.unsigned WHERE u32 = " + present)).isEqualTo(unsignedRows.stream().filter(row -> row[3] == present).count());
    }

    @Test
    void objectRewrittenAfterPlanningFailsClearlyAndNeverMixesVersions()
            throws Exception
    {
        byte[] versionA = versionedFile("A");
        byte[] versionB = versionedFile("B");
        // the hard case: same size, so only the ETag tells the versions apart
        assertThat(versionB.length).isEqualTo(versionA.length);
        String key = tableKey("exact", "versioned", "part-00000.parquet");
        TestingLake.upload(s3Client, versionA, key);
        assertThat(computeScalar("SELECT key FROM lake_listing_cache.exact.versioned WHERE seq = 5")).isEqualTo("key-A-0005");
        assertThat(computeScalar("SELECT key FROM lake.exact.versioned WHERE seq = 5")).isEqualTo("key-A-0005");

        TestingLake.upload(s3Client, versionB, key);
        // the catalog with the listing cache plans with version A's ETag, footer and filters: its reads of the data
        // are refused by S3 and the query fails naming the object, never answering from B's bytes at A's offsets
        assertThat(query("SELECT key FROM lake_listing_cache.exact.versioned WHERE seq = 5"))
                .failure()
                .hasMessageContaining("Object s3://lake/warehouse/exact/versioned/part-00000.parquet changed while the query ran")
                .hasErrorCode(ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED);
        // listed afresh: every row and every fact from version B
        assertThat(computeScalar("SELECT key FROM lake.exact.versioned WHERE seq = 5")).isEqualTo("key-B-0005");
        assertThat(computeScalar("SELECT count(*) FROM lake.exact.versioned WHERE key = 'key-A-0007'")).isEqualTo(0L);
        assertThat(computeScalar("SELECT count(*) FROM lake.exact.versioned WHERE key = 'key-B-0007'")).isEqualTo(1L);
        assertThat(computeActual("SELECT DISTINCT substr(key, 1, 5) FROM lake.exact.versioned").getOnlyColumnAsSet()).containsExactly("key-B");
    }

    /**
     * 2 row groups of keys {@code key-<version>-NNNN}: uncompressed, no dictionary, no page checksums, so two
     * versions have exactly the same size.
     */
    private byte[] versionedFile(String version)
            throws Exception
    {
        MessageType schema = MessageTypeParser.parseMessageType("message v { required binary key (STRING); required int64 seq; }");
        Path file = work.resolve("versioned-" + version + ".parquet");
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(500).withDictionary(false).withBloomFilter("key", 500, 0.01);
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(file, schema, options)) {
            for (int i = 0; i < 1_000; i++) {
                writer.write(writer.newRow().append("key", "key-%s-%04d".formatted(version, i)).append("seq", (long) i));
            }
        }
        return Files.readAllBytes(file);
    }

    private Session noPruning(String catalog)
    {
        return ParquetBloomQueryRunner.allPruningOff(getSession(), catalog);
    }
}
