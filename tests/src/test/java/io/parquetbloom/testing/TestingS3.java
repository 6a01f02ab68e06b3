package io.parquetbloom.testing;

import io.parquetbloom.demo.S3ProxyProcess;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The S3 server of one test class: one S3Proxy per test JVM, started by the first class that asks and stopped with
 * the JVM, handed to each class empty (every bucket of the class before removed) with the testing lake's bucket
 * ({@value TestingLake#BUCKET}) created, and a work folder of the class's own. Test classes of one JVM run one after
 * another, so a class sees only its own objects, as with a server of its own, without starting one each time.
 */
public final class TestingS3
        implements AutoCloseable
{
    private static S3ProxyProcess shared;

    private final Path work;
    private final S3ProxyProcess server;

    private TestingS3(Path work, S3ProxyProcess server)
    {
        this.work = requireNonNull(work, "work is null");
        this.server = requireNonNull(server, "server is null");
    }

    /**
     * @param name names the work folder, for a reader of leftover temporary files
     */
    public static synchronized TestingS3 start(String name)
            throws IOException
    {
        Path work = Files.createTempDirectory("parquet-bloom-" + name);
        S3ProxyProcess server = server();
        try (S3Client client = server.client()) {
            removeAllBuckets(client);
            client.createBucket(request -> request.bucket(TestingLake.BUCKET));
        }
        return new TestingS3(work, server);
    }

    private static S3ProxyProcess server()
            throws IOException
    {
        if (shared == null || !shared.isAlive()) {
            S3ProxyProcess started = S3ProxyProcess.start(Files.createTempDirectory("parquet-bloom-s3proxy"));
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::close));
            shared = started;
        }
        return shared;
    }

    private static void removeAllBuckets(S3Client client)
    {
        for (Bucket bucket : client.listBuckets().buckets()) {
            String name = bucket.name();
            List<S3Object> objects;
            do {
                objects = client.listObjectsV2(request -> request.bucket(name)).contents();
                List<ObjectIdentifier> keys = objects.stream().map(object -> ObjectIdentifier.builder().key(object.key()).build()).toList();
                if (!keys.isEmpty()) {
                    client.deleteObjects(request -> request.bucket(name).delete(delete -> delete.objects(keys)));
                }
            }
            while (!objects.isEmpty());
            client.deleteBucket(request -> request.bucket(name));
        }
    }

    /**
     * Where the test writes its files before uploading them.
     */
    public Path work()
    {
        return work;
    }

    public String endpoint()
    {
        return server.endpoint();
    }

    /**
     * A new client of the server; the caller closes it.
     */
    public S3Client client()
    {
        return server.client();
    }

    /**
     * The class is done with the server; the next class empties it, and the JVM's end stops it.
     */
    @Override
    public void close() {}
}
