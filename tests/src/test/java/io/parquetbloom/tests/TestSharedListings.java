package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.ParquetBloomQueryRunner;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.execution.QueryState;
import io.trino.server.BasicQueryInfo;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static com.google.common.util.concurrent.Uninterruptibles.awaitUninterruptibly;
import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static io.parquetbloom.testing.TestingLake.tableKey;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queries Trino held in its queue share the listing of a query admitted after they were submitted
 * ({@code metadata.shared-listing-max-age}), and a query submitted after a file was written still sees it.
 */
final class TestSharedListings
        extends AbstractTestQueryFramework
{
    private static final String TABLE_PREFIX = "warehouse/telemetry/events/";
    private static final String COUNT = "SELECT count(*) FROM events";

    private CountingProxy proxy;
    private S3Client client;
    private Path work;
    private TestingLake lake;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        TestingS3 s3 = closeAfterClass(TestingS3.start("shared-listings"));
        work = s3.work();
        lake = new TestingLake();
        client = closeAfterClass(s3.client());
        lake.writeEvents(client, work);
        proxy = closeAfterClass(CountingProxy.inFrontOf(s3.endpoint(), 0));
        // one query at a time: the others wait in Trino's queue, as under load with an admission limit
        return ParquetBloomQueryRunner.builder()
                .withEndpoint(proxy.endpoint())
                .withServerProperty("query.max-concurrent-queries", "1")
                .build();
    }

    @Test
    void queuedQueriesShareTheListingOfTheFirstAdmittedAfterThem()
            throws Exception
    {
        // also caches the table's columns (metadata.schema-cache-ttl), so that analysing a queued query lists folders,
        // never the table's files
        long rows = (long) computeScalar(COUNT);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // the running query's table listing is held until two more queries wait behind it
        proxy.onceBefore(request -> isTableListing(request), () -> {
            held.countDown();
            awaitUninterruptibly(release);
        });
        proxy.reset();
        ExecutorService clients = Executors.newFixedThreadPool(3);
        try {
            Future<Object> running = clients.submit(() -> computeScalar(COUNT));
            awaitUninterruptibly(held);
            Future<Object> queued = clients.submit(() -> computeScalar(COUNT));
            Future<Object> queuedToo = clients.submit(() -> computeScalar(COUNT));
            long deadline = System.nanoTime() + SECONDS.toNanos(60);
            while (queuedQueries() < 2) {
                assertThat(System.nanoTime()).as("two queries queued within 60 s").isLessThan(deadline);
                sleepUninterruptibly(20, MILLISECONDS);
            }
            // past the margin that guards against clock adjustments between a submission and a listing
            sleepUninterruptibly(1_500, MILLISECONDS);
            release.countDown();
            assertThat(List.of(running.get(60, SECONDS), queued.get(60, SECONDS), queuedToo.get(60, SECONDS))).containsOnly(rows);
        }
        finally {
            release.countDown();
            clients.shutdownNow();
        }
        // the held listing began before the two were submitted: the first of them admitted lists, the other shares it
        assertThat(tableListings()).isEqualTo(2);

        // a file written, then a query sent: listed anew, the file counted
        TestingLake.upload(client, TestingLake.eventsFileBytes(work, "shared-listing-extra.parquet", lake.events().subList(0, 10)), tableKey("telemetry", "events", "region=eu/part-extra.parquet"));
        proxy.reset();
        assertThat(computeScalar(COUNT)).isEqualTo(rows + 10);
        assertThat(tableListings()).isEqualTo(1);
    }

    private long queuedQueries()
    {
        // queued queries are the dispatcher's (the query manager knows only admitted ones)
        return getDistributedQueryRunner().getCoordinator().getDispatchManager().getQueries().stream()
                .map(BasicQueryInfo::getState)
                .filter(QueryState.QUEUED::equals)
                .count();
    }

    private long tableListings()
    {
        return proxy.requests().stream().filter(TestSharedListings::isTableListing).count();
    }

    private static boolean isTableListing(CountingProxy.Request request)
    {
        return request.method().equals("LIST") && request.target().equals(TABLE_PREFIX);
    }
}
