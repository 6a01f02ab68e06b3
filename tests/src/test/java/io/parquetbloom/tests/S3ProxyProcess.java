package io.parquetbloom.tests;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A real S3 API server for tests: S3Proxy 4.1.0 as its own process on 127.0.0.1, in-memory backend, SigV4 with
 * test credentials. (Its Jetty must not share a classpath with Trino's, hence the process.)
 */
public final class S3ProxyProcess
        implements AutoCloseable
{
    public static final String ACCESS_KEY = "parquet-bloom-access";
    public static final String SECRET_KEY = "parquet-bloom-secret-key-for-tests";

    private final Process process;
    private final int port;
    private final Path logFile;

    private S3ProxyProcess(Process process, int port, Path logFile)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.logFile = requireNonNull(logFile, "logFile is null");
    }

    public static S3ProxyProcess start(Path workDirectory)
    {
        String jar = System.getProperty("parquetbloom.s3proxy.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("S3Proxy jar not found (system property parquetbloom.s3proxy.jar = %s); run the tests through Maven (./run test)".formatted(jar));
        }
        try {
            Files.createDirectories(workDirectory);
            int port = freePort();
            Path properties = workDirectory.resolve("s3proxy.properties");
            Files.writeString(properties, String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + ACCESS_KEY,
                    "s3proxy.credential=" + SECRET_KEY,
                    "s3proxy.ignore-unknown-headers=true",
                    "jclouds.provider=transient-nio2",
                    "jclouds.identity=unused",
                    "jclouds.credential=unused",
                    ""));
            Path logFile = workDirectory.resolve("s3proxy.log");
            String java = ProcessHandle.current().info().command().orElse("java");
            Process process = new ProcessBuilder(List.of(java, "-Xmx512m", "-jar", jar, "--properties", properties.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
            S3ProxyProcess server = new S3ProxyProcess(process, port, logFile);
            server.awaitReady();
            return server;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady()
            throws IOException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (S3Client client = client()) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("S3Proxy exited with %d; see %s:%n%s".formatted(process.exitValue(), logFile, Files.readString(logFile)));
                }
                try {
                    client.listBuckets();
                    return;
                }
                catch (RuntimeException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("S3Proxy did not answer within 60 s; see " + logFile, e);
                    }
                    Thread.sleep(200);
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
    }

    public String endpoint()
    {
        return "http://127.0.0.1:" + port;
    }

    public S3Client client()
    {
        return client(endpoint(), ACCESS_KEY, SECRET_KEY);
    }

    public static S3Client client(String endpoint, String accessKey, String secretKey)
    {
        return S3Client.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(ApacheHttpClient.builder())
                .build();
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close()
    {
        process.destroy();
        try {
            if (!process.waitFor(Duration.ofSeconds(10))) {
                process.destroyForcibly();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
