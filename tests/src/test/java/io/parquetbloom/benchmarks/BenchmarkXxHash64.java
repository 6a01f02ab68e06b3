package io.parquetbloom.benchmarks;

import io.parquetbloom.hash.XxHash64;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * XXH64 (seed 0) cost per value for the two key shapes that matter: 36-byte UUID strings and longs.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 2, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
public class BenchmarkXxHash64
{
    private static final int MASK = 4095;

    private byte[][] uuids;
    private long[] longs;
    private int next;

    @Setup(Level.Trial)
    public void setup()
    {
        SplittableRandom random = new SplittableRandom(1);
        uuids = new byte[MASK + 1][];
        longs = new long[MASK + 1];
        for (int i = 0; i <= MASK; i++) {
            uuids[i] = new UUID(random.nextLong(), random.nextLong()).toString().getBytes(US_ASCII);
            longs[i] = random.nextLong();
        }
    }

    @Benchmark
    public long uuidString()
    {
        next = (next + 1) & MASK;
        return XxHash64.hashBytes(uuids[next]);
    }

    @Benchmark
    public long bigint()
    {
        next = (next + 1) & MASK;
        return XxHash64.hashLong(longs[next]);
    }
}
