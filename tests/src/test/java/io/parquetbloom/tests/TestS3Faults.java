package io.parquetbloom.tests;

import io.parquetbloom.testing.CountingProxy;
import io.parquetbloom.testing.S3FaultWorkload;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.Session;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.parquetbloom.testing.CountingProxy.Fault.CUT_BODY;
import static io.parquetbloom.testing.CountingProxy.Fault.DELETED;
import static io.parquetbloom.testing.CountingProxy.Fault.INTERNAL_ERROR;
import static io.parquetbloom.testing.CountingProxy.Fault.REWRITTEN;
import static io.parquetbloom.testing.CountingProxy.Fault.SLOW_DOWN;
import static io.parquetbloom.testing.CountingProxy.Fault.STALL;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * S3 failing the ways it does in production, injected into a seeded fraction of object GETs (footers, filters and
 * column chunks alike; the metadata cache is off so every query reads metadata): every lookup returns the oracle's
 * rows or fails with a {@code PARQUET_BLOOM_*} error naming the object, none hangs, and the AWS SDK's retries show in
 * the query's metrics. {@code ./run bench faults} runs the same workload with hundreds of queries per mix.
 */
final class TestS3Faults
        extends AbstractTestQueryFramework
{
    private static final int QUERIES_PER_MIX = 24;

    private final TestingLake lake = new TestingLake();
    private List<String> joinKeys;
    private CountingProxy proxy;

    @Override
    protected QueryRunner createQueryRunner()
            throws Exception
    {
        S3FaultWorkload.Setup setup = S3FaultWorkload.setUp(closeAfterClass(TestingS3.start("faults")), lake);
        joinKeys = setup.joinKeys();
        proxy = closeAfterClass(setup.proxy());
        return setup.runner();
    }

    @Test
    void throttlingIsRetriedWithBackoff()
    {
        S3FaultWorkload.Outcome outcome = run(mix("slow_down"));
        assertAllAnsweredOrNamed(outcome, Set.of(SLOW_DOWN));
        assertThat(outcome.throttledAttempts()).isPositive();
        assertThat(outcome.retries()).isPositive();
    }

    @Test
    void serverErrorsAreRetried()
    {
        S3FaultWorkload.Outcome outcome = run(mix("internal_error"));
        assertAllAnsweredOrNamed(outcome, Set.of(INTERNAL_ERROR));
        assertThat(outcome.retries()).isPositive();
        assertThat(outcome.throttledAttempts()).isZero();
    }

    @Test
    void cutBodiesAndStallsAreRetried()
    {
        S3FaultWorkload.Outcome outcome = run(mix("cut_body_and_stall"));
        assertAllAnsweredOrNamed(outcome, Set.of(CUT_BODY, STALL));
        assertThat(outcome.retries()).isPositive();
    }

    @Test
    void stalledGetsAreHedged()
    {
        // a GET past the recent p95 gets a second GET; the stalled one loses, is interrupted and fails no query
        S3FaultWorkload.Outcome outcome = run("faulty_hedged", mix("cut_body_and_stall"));
        assertAllAnsweredOrNamed(outcome, Set.of(CUT_BODY, STALL));
        assertThat(outcome.hedgedGets()).isPositive();
        assertThat(outcome.hedgesWon()).isPositive();
    }

    @Test
    void objectsChangedAfterPlanningFailClearly()
    {
        S3FaultWorkload.Outcome outcome = run(mix("deleted_or_rewritten"));
        assertAllAnsweredOrNamed(outcome, Set.of(DELETED, REWRITTEN));
        // never retried: a changed object stays changed
        assertThat(outcome.failures().keySet()).containsOnly("PARQUET_BLOOM_OBJECT_CHANGED");
        assertThat(outcome.failureExamples()).allSatisfy(message -> assertThat(message).containsAnyOf("was deleted while the query ran", "changed while the query ran"));
    }

    @Test
    void everythingAtOnce()
    {
        S3FaultWorkload.Outcome outcome = run(mix("everything"));
        assertThat(outcome.wrong()).as(outcome.summary()).isZero();
        assertThat(outcome.hung()).as(outcome.summary()).isZero();
        assertThat(outcome.unnamed()).as(outcome.summary()).isEmpty();
        assertThat(outcome.retries()).isPositive();
    }

    private static CountingProxy.FaultMix mix(String name)
    {
        return S3FaultWorkload.mixes(3_000).stream().filter(mix -> mix.name().equals(name)).findFirst().orElseThrow();
    }

    private S3FaultWorkload.Outcome run(CountingProxy.FaultMix mix)
    {
        return run("faulty", mix);
    }

    private S3FaultWorkload.Outcome run(String catalog, CountingProxy.FaultMix mix)
    {
        Session session = testSessionBuilder().setCatalog(catalog).setSchema("telemetry").build();
        S3FaultWorkload workload = new S3FaultWorkload((DistributedQueryRunner) getQueryRunner(), session, lake, joinKeys, proxy);
        try {
            S3FaultWorkload.Outcome outcome = workload.run(mix, QUERIES_PER_MIX);
            System.out.println("[faults] " + outcome.summary());
            outcome.failureExamples().forEach(example -> System.out.println("[faults]   " + example));
            outcome.unnamed().forEach(example -> System.out.println("[faults]   UNNAMED " + example));
            return outcome;
        }
        finally {
            workload.close();
        }
    }

    private static void assertAllAnsweredOrNamed(S3FaultWorkload.Outcome outcome, Set<CountingProxy.Fault> faults)
    {
        assertThat(outcome.wrong()).as(outcome.summary()).isZero();
        assertThat(outcome.hung()).as(outcome.summary()).isZero();
        assertThat(outcome.unnamed()).as(outcome.summary()).isEmpty();
        assertThat(outcome.correct() + outcome.failures().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(outcome.queries());
        assertThat(outcome.injected().keySet()).as("faults injected").containsExactlyInAnyOrderElementsOf(faults);
    }
}
