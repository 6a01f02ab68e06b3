package io.parquetbloom.testing;

import io.parquetbloom.demo.S3ProxyProcess;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * The S3 server of one test class: S3Proxy on a free port over a work folder of its own, with the testing lake's
 * bucket ({@value TestingLake#BUCKET}) created. Close it with the class ({@code closeAfterClass}).
 */
public final class TestingS3
        implements AutoCloseable
{
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
    public static TestingS3 start(String name)
            throws IOException
    {
        Path work = Files.createTempDirectory("parquet-bloom-" + name);
        S3ProxyProcess server = S3ProxyProcess.start(work.resolve("s3proxy"));
        try (S3Client client = server.client()) {
            client.createBucket(request -> request.bucket(TestingLake.BUCKET));
        }
        catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return new TestingS3(work, server);
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

    @Override
    public void close()
    {
        server.close();
    }
}
