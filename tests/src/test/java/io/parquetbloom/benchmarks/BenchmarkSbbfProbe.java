package io.parquetbloom.benchmarks;

import io.parquetbloom.sbbf.BlockProbes;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterBuilder;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * ns per probe: our Vector API probe, our scalar probe and parquet-java's {@code BlockSplitBloomFilter.findHash},
 * on filters filled to 10 bits per value. Probes rotate through a pool of 2^20 precomputed hashes so large filters
 * pay their real DRAM cost (a fixed small batch would stay in cache). Hashing is excluded; {@link BenchmarkXxHash64}
 * measures it separately. Run with {@code ./run bench probe}.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 2, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx6g", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
public class BenchmarkSbbfProbe
{
    static final int POOL_SIZE = 1 << 20;
    static final int POOL_MASK = POOL_SIZE - 1;
    static final int BATCH = 1024;

    @Param({"32768", "1048576", "67108864"})
    public int filterBytes;

    @Param({"vector", "scalar", "parquet-java"})
    public String implementation;

    @Param({"hit", "miss"})
    public String probes;

    private SplitBlockBloomFilter ours;
    private BlockSplitBloomFilter parquetJava;
    private long[] pool;
    private boolean[] batchResult;
    private int next;

    @Setup(Level.Trial)
    public void setup()
    {
        SplittableRandom random = new SplittableRandom(filterBytes);
        long distinctValues = filterBytes * 8L / 10;
        SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(filterBytes);
        // hits are drawn from the inserted values; the generator is replayed to recover the first 2^20 of them
        long[] inserted = new long[(int) Math.min(POOL_SIZE, distinctValues)];
        for (long i = 0; i < distinctValues; i++) {
            long hash = random.nextLong();
            builder.insert(hash);
            if (i < inserted.length) {
                inserted[(int) i] = hash;
            }
        }
        SplitBlockBloomFilter filter = builder.build();
        ours = switch (implementation) {
            case "vector" -> filter.withProbe(BlockProbes.vector());
            case "scalar" -> filter.withProbe(BlockProbes.scalar());
            case "parquet-java" -> null;
            default -> throw new IllegalArgumentException(implementation);
        };
        parquetJava = implementation.equals("parquet-java") ? new BlockSplitBloomFilter(filter.bitset()) : null;

        pool = new long[POOL_SIZE];
        SplittableRandom poolRandom = new SplittableRandom(~filterBytes);
        for (int i = 0; i < POOL_SIZE; i++) {
            pool[i] = probes.equals("hit") ? inserted[poolRandom.nextInt(inserted.length)] : poolRandom.nextLong();
        }
        batchResult = new boolean[BATCH];
    }

    @Benchmark
    public boolean single()
    {
        long hash = pool[next];
        next = (next + 1) & POOL_MASK;
        return ours != null ? ours.mightContain(hash) : parquetJava.findHash(hash);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch()
    {
        int offset = next;
        next = (next + BATCH) & POOL_MASK;
        if (ours != null) {
            return ours.mightContain(pool, offset, BATCH, batchResult);
        }
        int count = 0;
        for (int i = offset; i < offset + BATCH; i++) {
            count += parquetJava.findHash(pool[i]) ? 1 : 0;
        }
        return count;
    }
}
