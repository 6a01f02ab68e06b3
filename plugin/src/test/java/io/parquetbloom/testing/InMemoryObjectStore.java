package io.parquetbloom.testing;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ERROR;

/**
 * One object served from memory; every read is a counted GET, and reads starting where {@code failing} says fail as
 * S3 would (to test what a failed GET does).
 */
public final class InMemoryObjectStore
        extends S3ObjectStore
{
    private final byte[] bytes;
    private final LongPredicate failing;
    private final List<String> reads = new CopyOnWriteArrayList<>();
    private final AtomicLong gets = new AtomicLong();

    public InMemoryObjectStore(byte[] bytes)
    {
        this(bytes, _ -> false);
    }

    public InMemoryObjectStore(byte[] bytes, LongPredicate failing)
    {
        // never called: every read is answered from memory
        super(S3Client.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build());
        this.bytes = bytes.clone();
        this.failing = failing;
    }

    /**
     * Every GET this store answered, whatever the caller's statistics.
     */
    public long gets()
    {
        return gets.get();
    }

    /**
     * The byte ranges read, as "offset+length", in the order they were asked for.
     */
    public List<String> reads()
    {
        return List.copyOf(reads);
    }

    public S3ObjectInfo object()
    {
        return new S3ObjectInfo(new S3Location("bucket", "table/file.parquet"), bytes.length, "etag-1");
    }

    @Override
    public byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
    {
        stats.recordGet(length);
        gets.incrementAndGet();
        reads.add(position + "+" + length);
        if (failing.test(position)) {
            throw new TrinoException(PARQUET_BLOOM_S3_ERROR, "Cannot read %s: S3 answered 503 SlowDown".formatted(object.location()));
        }
        return Arrays.copyOfRange(bytes, (int) position, (int) position + length);
    }
}
