package io.parquetbloom.s3;

import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_OBJECT_CHANGED;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TestReadHedger
{
    private static final byte[] BYTES = {1, 2, 3};
    private static final S3Location LOCATION = S3Location.parse("s3://bucket/table/file.parquet");

    @Test
    void noHedgeBeforeEnoughGetsWereSeen()
    {
        S3RequestStats stats = new S3RequestStats();
        ReadHedger hedger = new ReadHedger(0.05, new S3Stats());
        AtomicInteger calls = new AtomicInteger();
        assertThat(hedger.read(get(() -> {
            calls.incrementAndGet();
            Thread.sleep(50);
            return BYTES;
        }), 3, stats, LOCATION)).isEqualTo(BYTES);
        assertThat(calls).hasValue(1);
        assertThat(stats.hedgedGets()).isZero();
    }

    @Test
    void stalledGetIsHedgedAndInterrupted()
            throws InterruptedException
    {
        S3RequestStats stats = new S3RequestStats();
        S3Stats nodeStats = new S3Stats();
        // a p95 of 50 ms: the first GET has started (and stalls) long before the hedge goes out
        ReadHedger hedger = warmedUp(nodeStats, 50);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Callable<byte[]> firstStalls = () -> {
            if (calls.incrementAndGet() == 1) {
                try {
                    Thread.sleep(60_000);
                }
                catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                }
            }
            return BYTES;
        };
        assertThat(hedger.read(get(firstStalls), 3, stats, LOCATION)).isEqualTo(BYTES);
        assertThat(calls).hasValue(2);
        assertThat(stats.hedgedGets()).isEqualTo(1);
        assertThat(stats.hedgesWon()).isEqualTo(1);
        assertThat(nodeStats.getHedgedGets()).isEqualTo(1);
        assertThat(nodeStats.getHedgesWon()).isEqualTo(1);
        // the loser does not run on: its thread is interrupted
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void budgetCapsHedgesPerReader()
    {
        S3RequestStats stats = new S3RequestStats();
        ReadHedger hedger = warmedUp(new S3Stats(), 1);
        AtomicInteger calls = new AtomicInteger();
        Callable<byte[]> slow = () -> {
            calls.incrementAndGet();
            Thread.sleep(30);
            return BYTES;
        };
        // the first hedge is free, the next one needs 20 GETs at 5%
        hedger.read(get(slow), 3, stats, LOCATION);
        hedger.read(get(slow), 3, stats, LOCATION);
        assertThat(stats.hedgedGets()).isEqualTo(1);
        assertThat(calls).hasValue(3);
        for (int i = 0; i < 20; i++) {
            stats.recordGet(3);
        }
        hedger.read(get(slow), 3, stats, LOCATION);
        assertThat(stats.hedgedGets()).isEqualTo(2);
    }

    @Test
    void failureOfOneGetWaitsForTheOther()
    {
        S3RequestStats stats = new S3RequestStats();
        ReadHedger hedger = warmedUp(new S3Stats(), 1);
        AtomicInteger calls = new AtomicInteger();
        // the first fails late, after the hedge went out; the hedge answers
        Callable<byte[]> firstFails = () -> {
            if (calls.incrementAndGet() == 1) {
                Thread.sleep(20);
                throw new IllegalStateException("first failed");
            }
            Thread.sleep(100);
            return BYTES;
        };
        assertThat(hedger.read(get(firstFails), 3, stats, LOCATION)).isEqualTo(BYTES);

        // both fail: the failure is reported as the GET threw it
        Callable<byte[]> bothFail = () -> {
            Thread.sleep(20);
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "S3 read failed");
        };
        S3RequestStats fresh = new S3RequestStats();
        assertThatThrownBy(() -> hedger.read(get(bothFail), 3, fresh, LOCATION))
                .isInstanceOf(TrinoException.class)
                .hasMessage("S3 read failed");
        assertThat(fresh.hedgedGets()).isEqualTo(1);

        // both fail, the first because the object changed: that is what the query is told
        AtomicInteger started = new AtomicInteger();
        Callable<byte[]> changedThenGaveUp = () -> {
            if (started.incrementAndGet() == 1) {
                Thread.sleep(20);
                throw new TrinoException(PARQUET_BLOOM_OBJECT_CHANGED, "Object s3://bucket/table/file.parquet changed");
            }
            Thread.sleep(60);
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "S3 read failed");
        };
        assertThatThrownBy(() -> hedger.read(get(changedThenGaveUp), 3, new S3RequestStats(), LOCATION))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("changed");
    }

    @Test
    void interruptedCallerCancelsBothGets()
            throws InterruptedException
    {
        ReadHedger hedger = warmedUp(new S3Stats(), 1);
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch bothInterrupted = new CountDownLatch(2);
        Callable<byte[]> stalls = () -> {
            bothStarted.countDown();
            try {
                Thread.sleep(60_000);
            }
            catch (InterruptedException e) {
                bothInterrupted.countDown();
                throw e;
            }
            return BYTES;
        };
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                hedger.read(get(stalls), 3, new S3RequestStats(), LOCATION);
            }
            catch (RuntimeException e) {
                failure.set(e);
            }
        });
        assertThat(bothStarted.await(10, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        caller.join(10_000);
        assertThat(failure.get()).isInstanceOf(TrinoException.class).hasMessageContaining("s3://bucket/table/file.parquet");
        assertThat(bothInterrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void sizeClassesHaveTheirOwnPercentile()
    {
        S3RequestStats stats = new S3RequestStats();
        ReadHedger hedger = warmedUp(new S3Stats(), 1);
        AtomicInteger calls = new AtomicInteger();
        // a 10 MB GET has no history yet: it is not hedged however long it takes
        hedger.read(get(() -> {
            calls.incrementAndGet();
            Thread.sleep(30);
            return BYTES;
        }), 10 * 1024 * 1024, stats, LOCATION);
        assertThat(calls).hasValue(1);
        assertThat(stats.hedgedGets()).isZero();

        // above 16 MiB never, whatever the history: a second buffer that large is not worth a faster tail
        for (int i = 0; i < LatencyWindow.MIN_SAMPLES; i++) {
            hedger.recordLatency(20 * 1024 * 1024, MILLISECONDS.toNanos(1));
        }
        hedger.read(get(() -> {
            calls.incrementAndGet();
            Thread.sleep(30);
            return BYTES;
        }), 20 * 1024 * 1024, stats, LOCATION);
        assertThat(calls).hasValue(2);
        assertThat(stats.hedgedGets()).isZero();
    }

    private static Function<BooleanSupplier, byte[]> get(Callable<byte[]> call)
    {
        return _ -> {
            try {
                return call.call();
            }
            catch (RuntimeException e) {
                throw e;
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
    }

    private static ReadHedger warmedUp(S3Stats nodeStats, long millis)
    {
        ReadHedger hedger = new ReadHedger(0.05, nodeStats);
        for (int i = 0; i < LatencyWindow.MIN_SAMPLES; i++) {
            hedger.recordLatency(3, MILLISECONDS.toNanos(millis));
        }
        return hedger;
    }
}
