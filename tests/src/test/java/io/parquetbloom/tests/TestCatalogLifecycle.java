package io.parquetbloom.tests;

import io.parquetbloom.connector.ParquetBloomPlugin;
import io.parquetbloom.demo.S3ProxyProcess;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A catalog takes its S3 client, connection pool, credential threads and planning threads with it when it is
 * dropped: hundreds of {@code CREATE CATALOG} / lookup / {@code DROP CATALOG} cycles leave the JVM's threads and open
 * sockets where they were.
 */
final class TestCatalogLifecycle
        extends AbstractTestQueryFramework
{
    private static final int CYCLES = Integer.getInteger("cycles", 200);
    private static final int WARM_UP_CYCLES = 10;

    private final TestingLake lake = new TestingLake();
    private String endpoint;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("lifecycle"));
        Path work = s3.work();
        try (S3Client client = s3.client()) {
            lake.writeEvents(client, work);
        }
        endpoint = s3.endpoint();
        Session session = testSessionBuilder().setCatalog("lake").setSchema("telemetry").build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(0)
                .build();
        runner.installPlugin(new ParquetBloomPlugin());
        return runner;
    }

    @Test
    void createLookupDropLeavesThreadsAndSocketsFlat()
            throws Exception
    {
        String device = lake.devices().getFirst();
        long expected = lake.events().stream().filter(row -> row.deviceId().equals(device)).count();
        for (int i = 0; i < WARM_UP_CYCLES; i++) {
            cycle(i, device, expected);
        }
        Resources before = Resources.now();
        for (int i = WARM_UP_CYCLES; i < WARM_UP_CYCLES + CYCLES; i++) {
            cycle(i, device, expected);
            if (i % 50 == 0) {
                System.out.println("[lifecycle] cycle %d: %s".formatted(i, Resources.now()));
            }
        }
        // a dropped catalog is shut down once no query uses it any more
        Resources after = Resources.now();
        for (int wait = 0; wait < 60 && !after.flatSince(before); wait++) {
            Thread.sleep(500);
            after = Resources.now();
        }
        System.out.println("[lifecycle] %d cycles: before %s, after %s".formatted(CYCLES, before, after));
        assertThat(after.ourThreads()).as("threads of the plugin and the AWS SDK: %s", after).isLessThanOrEqualTo(before.ourThreads());
        assertThat(after.flatSince(before)).as("before %s, after %s", before, after).isTrue();
    }

    private void cycle(int i, String device, long expected)
    {
        String catalog = "cycle_" + i;
        getQueryRunner().execute("""
                CREATE CATALOG %s USING parquet_bloom WITH (
                    "location" = '%s',
                    "s3.endpoint" = '%s',
                    "s3.region" = 'us-east-1',
                    "s3.path-style-access" = 'true',
                    "s3.aws-access-key" = '%s',
                    "s3.aws-secret-key" = '%s')
                """.formatted(catalog, TestingLake.ROOT, endpoint, S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY));
        assertThat(computeScalar("SELECT count(*) FROM %s.telemetry.events WHERE device_id = '%s'".formatted(catalog, device))).isEqualTo(expected);
        getQueryRunner().execute("DROP CATALOG " + catalog);
    }

    /**
     * @param threads all live threads, reported only
     * @param ourThreads live threads of the plugin (planning) and of the AWS SDK (connection reaper, credential refresh)
     */
    private record Resources(int threads, int ourThreads, long sockets)
    {
        static Resources now()
        {
            int ours = (int) Thread.getAllStackTraces().keySet().stream()
                    .map(Thread::getName)
                    .filter(name -> name.startsWith("parquet-bloom") || name.contains("idle-connection-reaper") || name.startsWith("sdk-"))
                    .count();
            return new Resources(ManagementFactory.getThreadMXBean().getThreadCount(), ours, openSockets());
        }

        /**
         * The engine's own pools ({@code query-execution-*} and the like) grow and shrink with load and are left out;
         * a leak of one S3 client per catalog would add {@code CYCLES} connections.
         */
        boolean flatSince(Resources before)
        {
            return ourThreads <= before.ourThreads && sockets <= before.sockets + 8;
        }

        private static long openSockets()
        {
            try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
                return descriptors.map(descriptor -> {
                    try {
                        return Files.readSymbolicLink(descriptor).toString();
                    }
                    catch (IOException e) {
                        return "";
                    }
                }).filter(target -> target.startsWith("socket:")).count();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

}
