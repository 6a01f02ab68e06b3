package io.parquetbloom.tests;

import com.google.common.io.RecursiveDeleteOption;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.demo.TrinoEtc;
import io.parquetbloom.demo.TrinoJdbc;
import io.parquetbloom.demo.TrinoServerProcess;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health tables and the probe of a table with 20,000 row groups (2,500 files of 8, 24 filtered columns: 480,000
 * column chunks) on a real Trino server whose whole heap is {@value #HEAP}: they stream file after file and keep per
 * column summaries, so they answer where holding a row per chunk on the coordinator (as before issue 21) runs out of
 * memory and takes the server down ({@code -XX:+ExitOnOutOfMemoryError}). Measured here: the streaming code answers
 * at 224M too; the code before it ran out of heap at 300M after 4.6 minutes of collection.
 * {@code -Dparquetbloom.small-heap=...} tries another heap.
 */
final class TestHealthTablesUnderSmallHeap
{
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final String HEAP = System.getProperty("parquetbloom.small-heap", "300M");
    private static final int FILES = Integer.getInteger("parquetbloom.small-heap.files", 2_500);
    private static final int ROW_GROUPS_PER_FILE = 8;
    private static final int COLUMNS = 24;

    @Test
    void healthTablesAndProbeOfTwentyThousandRowGroupsStayWithinASmallHeap()
            throws Exception
    {
        Path work = Files.createTempDirectory("parquet-bloom-small-heap");
        try {
            runIn(work);
        }
        finally {
            // the server's installation and the lake's file: over a gigabyte
            deleteRecursively(work, RecursiveDeleteOption.ALLOW_INSECURE);
        }
    }

    private static void runIn(Path work)
            throws Exception
    {
        try (TestingS3 s3 = TestingS3.start("small-heap");
                S3Client client = s3.client()) {
            byte[] file = wideFile(work.resolve("wide.parquet"));
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < FILES; i++) {
                keys.add(TestingLake.tableKey("telemetry", "wide", "part-%05d.parquet".formatted(i)));
            }
            TestingLake.uploadAll(client, TestingLake.BUCKET, keys, file);
            Path etc = TrinoEtc.write(ROOT, work.resolve("etc"), freePort(), Map.of(
                    "s3.endpoint", s3.endpoint(),
                    "s3.aws-access-key", S3ProxyProcess.ACCESS_KEY,
                    "s3.aws-secret-key", S3ProxyProcess.SECRET_KEY,
                    "location", TestingLake.ROOT,
                    // a small coordinator sizes its metadata cache to fit
                    "metadata-cache.max-size", "32MB"), Map.of());
            Path jvmConfig = etc.resolve("jvm.config");
            Files.writeString(jvmConfig, Pattern.compile("(?m)^-Xmx.*$").matcher(Files.readString(jvmConfig)).replaceAll("-Xmx" + HEAP));
            try (TrinoServerProcess trino = TrinoServerProcess.start(ROOT.resolve("tests/trino-server"), work, etc, TrinoEtc.pluginDirectory(ROOT, work), work.resolve("trino.log"),
                    Map.of("query.max-memory-per-node", "100MB", "query.max-memory", "100MB"))) {
                trino.awaitReady(Duration.ofMinutes(3));
                TrinoJdbc jdbc = new TrinoJdbc(trino.port(), "lake", "telemetry");
                long chunks = (long) FILES * ROW_GROUPS_PER_FILE * (COLUMNS + 1);
                assertThat(query(jdbc, "SELECT count(*), count(DISTINCT file_path), count_if(status = 'usable') FROM \"wide$bloom_filters\""))
                        .containsExactly(chunks, (long) FILES, (long) FILES * ROW_GROUPS_PER_FILE * COLUMNS);
                assertThat(query(jdbc, "SELECT count(*), min(row_groups) FROM \"wide$bloom_filter_advice\""))
                        .containsExactly((long) COLUMNS + 1, (long) FILES * ROW_GROUPS_PER_FILE);
                assertThat(query(jdbc, "SELECT count(*), count_if(read) FROM TABLE(lake.system.bloom_probe(schema_name => 'telemetry', table_name => 'wide', column_name => 'c0', value => '-1'))"))
                        .containsExactly((long) FILES * ROW_GROUPS_PER_FILE, 0L);
                assertThat(trino.isAlive()).as("server alive after the queries; see %s", work.resolve("trino.log")).isTrue();
            }
        }
    }

    private static List<Object> query(TrinoJdbc jdbc, String sql)
            throws SQLException
    {
        return jdbc.query(sql, Map.of()).getFirst();
    }

    /**
     * 8 row groups of 2 rows, an id and 24 bigint columns, each with a filter.
     */
    private static byte[] wideFile(Path path)
            throws IOException
    {
        StringBuilder schema = new StringBuilder("message wide { required int64 id;");
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(2);
        for (int column = 0; column < COLUMNS; column++) {
            schema.append(" required int64 c%d;".formatted(column));
            options = options.withBloomFilter("c" + column, 2, 0.01);
        }
        MessageType type = MessageTypeParser.parseMessageType(schema.append(" }").toString());
        try (ParquetFixtureWriter.GroupWriter writer = ParquetFixtureWriter.parquetJava(path, type, options)) {
            for (int row = 0; row < 2 * ROW_GROUPS_PER_FILE; row++) {
                Group group = writer.newRow().append("id", (long) row);
                for (int column = 0; column < COLUMNS; column++) {
                    group.append("c" + column, row * 1_000L + column);
                }
                writer.write(group);
            }
        }
        return Files.readAllBytes(path);
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
