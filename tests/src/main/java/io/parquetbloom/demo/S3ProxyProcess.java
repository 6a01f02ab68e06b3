package io.parquetbloom.demo;

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
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A real S3 API server: S3Proxy 4.1.0 as its own process on 127.0.0.1 with SigV4 credentials, keeping objects in
 * memory (tests) or in a folder (the demo). Its Jetty must not share a classpath with Trino's, hence the process.
 */
public final class S3ProxyProcess
        implements AutoCloseable
{
    public static final String ACCESS_KEY = "parquet-bloom-access";
    public static final String SECRET_KEY = "parquet-bloom-secret-key-for-tests";

    private final Process process;
    private final int port;
    private final Path logFile;
    private final String accessKey;
    private final String secretKey;

    private S3ProxyProcess(Process process, int port, Path logFile, String accessKey, String secretKey)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.logFile = requireNonNull(logFile, "logFile is null");
        this.accessKey = requireNonNull(accessKey, "accessKey is null");
        this.secretKey = requireNonNull(secretKey, "secretKey is null");
    }

    /**
     * An in-memory server on a free port with the test credentials.
     */
    public static S3ProxyProcess start(Path workDirectory)
    {
        try {
            return start(workDirectory, freePort(), ACCESS_KEY, SECRET_KEY, Optional.empty());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param dataDirectory where objects are kept; empty keeps them in memory
     */
    public static S3ProxyProcess start(Path workDirectory, int port, String accessKey, String secretKey, Optional<Path> dataDirectory)
    {
        String jar = System.getProperty("parquetbloom.s3proxy.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("S3Proxy jar not found (system property parquetbloom.s3proxy.jar = %s); build with ./run test or ./run demo".formatted(jar));
        }
        try {
            Files.createDirectories(workDirectory);
            if (dataDirectory.isPresent()) {
                Files.createDirectories(dataDirectory.get());
            }
            Path properties = workDirectory.resolve("s3proxy.properties");
            Files.writeString(properties, String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + accessKey,
                    "s3proxy.credential=" + secretKey,
                    "s3proxy.ignore-unknown-headers=true",
                    dataDirectory.map(_ -> "jclouds.provider=filesystem-nio2").orElse("jclouds.provider=transient-nio2"),
                    dataDirectory.map(directory -> "jclouds.filesystem.basedir=" + directory.toAbsolutePath()).orElse(""),
                    "jclouds.identity=unused",
                    "jclouds.credential=unused",
                    ""));
            Path logFile = workDirectory.resolve("s3proxy.log");
            String java = ProcessHandle.current().info().command().orElse("java");
            Process process = new ProcessBuilder(List.of(java, "-Xmx512m", "-jar", jar, "--properties", properties.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
            S3ProxyProcess server = new S3ProxyProcess(process, port, logFile, accessKey, secretKey);
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
                    throw new IllegalStateException("S3Proxy exited with %d (port %d in use?); see %s:%n%s".formatted(process.exitValue(), port, logFile, Files.readString(logFile)));
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
        return client(endpoint(), accessKey, secretKey);
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    public long pid()
    {
        return process.pid();
    }

    public Path logFile()
    {
        return logFile;
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
