package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.QueryMetrics;
import io.parquetbloom.testing.TelemetryRow;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS;

/**
 * The metadata disk tier end to end, with a memory budget far below the table's metadata: warm lookups find every
 * footer and filter on local disk (no GET), a restarted server answers its first lookup from the disk (LISTs only),
 * only the constrained column's filters are kept, and a damaged disk tier costs GETs, never rows; and the compact
 * footers planning keeps in memory serve the readers that read only their columns.
 */
@TestInstance(PER_CLASS)
final class TestMetadataDiskTier
{
    // 4 files x 4 row groups of the testing lake: 4 footers and 16 device_id filters
    private static final int FILES = 4;
    private static final int ROW_GROUPS = FILES * TestingLake.ROW_GROUPS_PER_FILE;
    // columns of the testing lake's events files with a bloom filter
    private static final int FILTERED_COLUMNS = 15;

    private TestingS3 s3;
    private TestingLake lake;
    private CountingProxy proxy;
    private Path disk;

    @BeforeAll
    void setUp()
            throws Exception
    {
        s3 = TestingS3.start("disk-tier");
        lake = new TestingLake();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, s3.work());
        }
        proxy = CountingProxy.inFrontOf(s3.endpoint(), 0);
        disk = s3.work().resolve("metadata-disk");
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        proxy.close();
        s3.close();
    }

    @Test
    void warmAndRestartedLookupsReadNoMetadataFromS3AndDamageCostsOnlyGets()
            throws Exception
    {
        try (DistributedQueryRunner runner = runner()) {
            assertThat(count(runner, absent(1))).isZero();
            awaitDiskWrites();
            // footers and the device_id filters, not the other columns' filters the tails also brought; only of the
            // file read for the schema, every filter is kept
            assertThat(entries()).isEqualTo(FILES + ROW_GROUPS + TestingLake.ROW_GROUPS_PER_FILE * (FILTERED_COLUMNS - 1));

            proxy.reset();
            MaterializedResultWithPlan warm = runner.executeWithPlan(runner.getDefaultSession(), lookup(absent(2)));
            assertThat(warm.result().getOnlyValue()).isEqualTo(0L);
            assertThat(proxy.counts().gets()).isZero();
            QueryMetrics metrics = QueryMetrics.of(runner, warm.queryId());
            assertThat(metrics.get("planningMetadataDiskHits")).isEqualTo(FILES + ROW_GROUPS);
            assertThat(metrics.prunedByBloomFilter()).isEqualTo(ROW_GROUPS);
        }

        // a restarted server: its memory is empty, its disk is not
        try (DistributedQueryRunner runner = runner()) {
            proxy.reset();
            assertThat(count(runner, absent(3))).isZero();
            CountingProxy.Counts counts = proxy.counts();
            assertThat(counts.gets()).isZero();
            assertThat(counts.lists()).isPositive();

            // every entry damaged: each is a miss, read again from S3, and the rows stay right
            damageEveryEntry();
            TelemetryRow target = lake.events().get(5_000);
            long expected = lake.events().stream().filter(row -> row.deviceId().equals(target.deviceId())).count();
            proxy.reset();
            assertThat(count(runner, target.deviceId())).isEqualTo(expected);
            assertThat(proxy.counts().gets()).isPositive();
            assertThat(count(runner, absent(4))).isZero();
        }
    }

    /**
     * On one node that plans and reads (a single-node server), a reader whose columns the compact footer planning
     * kept holds reads with it, with no footer GET, and returns the right rows; one that reads other columns reads
     * the whole footer.
     */
    @Test
    void readersUseTheCompactFooterWhereItHoldsTheirColumns()
            throws Exception
    {
        try (DistributedQueryRunner runner = ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                .withWorkers(0)
                .withCoordinatorRunningSplits()
                .withCatalogProperty("no-match-cache.enabled", "false")
                .build()) {
            // planning keeps every file's footer compact, and no whole one: no row group survives
            String absent = new UUID(0x7777_0000_0000_0000L, 1).toString();
            assertThat(runner.execute("SELECT count(*) FROM events WHERE device_id = '%s'".formatted(absent)).getOnlyValue()).isEqualTo(0L);

            TelemetryRow target = lake.events().get(5_000);
            List<TelemetryRow> expected = lake.events().stream().filter(row -> row.deviceId().equals(target.deviceId())).toList();
            MaterializedResultWithPlan counted = runner.executeWithPlan(runner.getDefaultSession(), "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(target.deviceId()));
            assertThat(counted.result().getOnlyValue()).isEqualTo((long) expected.size());
            QueryMetrics countMetrics = QueryMetrics.of(runner, counted.queryId());
            // every split read with the compact footer: the key column's chunks are all it reads
            assertThat(countMetrics.get("metadataCacheCompactFooterHits")).isPositive();
            assertThat(countMetrics.get("metadataCacheFooterMisses")).isZero();
            assertThat(countMetrics.get("s3PlanningGetRequests")).isZero();

            MaterializedResultWithPlan read = runner.executeWithPlan(runner.getDefaultSession(), "SELECT trace_id, seq FROM events WHERE device_id = '%s'".formatted(target.deviceId()));
            assertThat(read.result().getMaterializedRows().stream().map(MaterializedRow::getFields).toList())
                    .containsExactlyInAnyOrderElementsOf(expected.stream().map(row -> List.<Object>of(row.traceId(), row.seq())).toList());
            QueryMetrics readMetrics = QueryMetrics.of(runner, read.queryId());
            // other columns: the whole footer, read once per file
            assertThat(readMetrics.get("metadataCacheCompactFooterHits")).isZero();
            assertThat(readMetrics.get("metadataCacheFooterMisses")).isEqualTo(countMetrics.get("metadataCacheCompactFooterHits"));
        }
    }

    private DistributedQueryRunner runner()
            throws Exception
    {
        return ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                // far below one file's filters: every footer and filter comes from disk or S3
                .withCatalogProperty("metadata-cache.max-size", "1kB")
                .withCatalogProperty("metadata-cache.disk.directory", disk.toString())
                .withCatalogProperty("no-match-cache.enabled", "false")
                .build();
    }

    private static long count(DistributedQueryRunner runner, String deviceId)
    {
        return (long) runner.execute(lookup(deviceId)).getOnlyValue();
    }

    private static String lookup(String deviceId)
    {
        return "SELECT count(*) FROM events WHERE device_id = '%s'".formatted(deviceId);
    }

    private static String absent(int index)
    {
        return new UUID(0x7777_0000_0000_0000L + index, index).toString();
    }

    private List<Path> entryFiles()
            throws IOException
    {
        try (Stream<Path> files = Files.walk(disk)) {
            // the tier's marker (its key) is not an entry
            return files.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().equals(".parquet-bloom-metadata-cache")).toList();
        }
    }

    private long entries()
            throws IOException
    {
        return entryFiles().size();
    }

    /**
     * Writes are in the background: wait until no temporary file is left and the count holds still.
     */
    private void awaitDiskWrites()
            throws Exception
    {
        long previous = -1;
        for (int attempt = 0; attempt < 100; attempt++) {
            List<Path> files = entryFiles();
            boolean writing = files.stream().anyMatch(file -> file.getFileName().toString().endsWith(".tmp"));
            if (!writing && files.size() == previous) {
                return;
            }
            previous = files.size();
            Thread.sleep(200);
        }
        throw new AssertionError("disk tier writes did not settle");
    }

    private void damageEveryEntry()
            throws IOException
    {
        int index = 0;
        for (Path file : entryFiles()) {
            byte[] bytes = Files.readAllBytes(file);
            switch (index++ % 3) {
                case 0 -> bytes[bytes.length / 2] ^= 0x01;
                case 1 -> bytes = Arrays.copyOf(bytes, bytes.length / 2);
                default -> bytes = new byte[0];
            }
            Files.write(file, bytes);
        }
    }
}
