package io.parquetbloom.demo;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * A real Trino 483 server as its own process, run from trino-main's runtime classpath (the 483 server tarball is not
 * on Maven Central) with an {@code etc/} folder and a plugin folder, as the tarball's launcher would: JVM flags from
 * {@code etc/jvm.config}, node settings from {@code etc/node.properties}, the rest from
 * {@code etc/config.properties}.
 */
public final class TrinoServerProcess
        implements AutoCloseable
{
    private final Process process;
    private final int port;
    private final Path logFile;

    private TrinoServerProcess(Process process, int port, Path logFile)
    {
        this.process = requireNonNull(process, "process is null");
        this.port = port;
        this.logFile = requireNonNull(logFile, "logFile is null");
    }

    /**
     * @param workingDirectory relative paths in {@code etc/} resolve against it
     * @param overrides extra system properties (they win over the config files)
     */
    public static TrinoServerProcess start(Path serverModule, Path workingDirectory, Path etc, Path pluginDirectory, Path logFile, Map<String, String> overrides)
    {
        try {
            Path classpathFile = serverModule.resolve("target/server.classpath");
            Path launcherJar = serverModule.resolve("target/trino-parquet-bloom-server-1.0-SNAPSHOT.jar");
            if (!Files.exists(classpathFile) || !Files.exists(launcherJar)) {
                throw new IllegalStateException("Trino server classpath not built (%s); run ./run demo or ./run test, which build it".formatted(classpathFile));
            }
            String javaCommand = ProcessHandle.current().info().command().orElse("java");
            List<String> command = new ArrayList<>();
            command.add(javaCommand);
            for (String line : Files.readAllLines(etc.resolve("jvm.config"))) {
                String flag = line.trim();
                if (!flag.isEmpty() && !flag.startsWith("#")) {
                    command.add(flag);
                }
            }
            Properties node = new Properties();
            try (var reader = Files.newBufferedReader(etc.resolve("node.properties"))) {
                node.load(reader);
            }
            node.stringPropertyNames().stream().sorted().forEach(name -> command.add("-D%s=%s".formatted(name, node.getProperty(name))));
            command.add("-Dconfig=" + etc.resolve("config.properties").toAbsolutePath());
            command.add("-Dlog.levels-file=" + etc.resolve("log.properties").toAbsolutePath());
            command.add("-Dplugin.dir=" + pluginDirectory.toAbsolutePath());
            overrides.forEach((name, value) -> command.add("-D%s=%s".formatted(name, value)));
            command.add("-cp");
            command.add(launcherJar.toAbsolutePath() + File.pathSeparator + Files.readString(classpathFile).trim());
            command.add("io.parquetbloom.server.TrinoServerLauncher");

            Properties config = new Properties();
            try (var reader = Files.newBufferedReader(etc.resolve("config.properties"))) {
                config.load(reader);
            }
            int port = Integer.parseInt(overrides.getOrDefault("http-server.http.port", config.getProperty("http-server.http.port", "8080")));

            Files.createDirectories(logFile.getParent());
            Process process = new ProcessBuilder(command)
                    .directory(workingDirectory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
            return new TrinoServerProcess(process, port, logFile);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the server answers queries.
     *
     * @throws IllegalStateException when the process exits first, with the end of its log
     */
    public void awaitReady(Duration timeout)
    {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Trino exited with code %d before it was ready; log %s ends with:%n%s".formatted(process.exitValue(), logFile, logTail(40)));
            }
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:%d/v1/info".formatted(port))).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"starting\":false")) {
                    return;
                }
            }
            catch (IOException e) {
                // not listening yet
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Trino did not become ready within %s; see %s".formatted(timeout, logFile));
            }
            sleep(250);
        }
    }

    /**
     * Waits for the process to end, for servers expected to fail at start.
     */
    public int awaitExit(Duration timeout)
    {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Trino still running after " + timeout);
            }
            return process.exitValue();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
    }

    public String logTail(int lines)
    {
        try {
            List<String> all = Files.readAllLines(logFile);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
        catch (IOException e) {
            return "(cannot read %s: %s)".formatted(logFile, e);
        }
    }

    public String log()
    {
        try {
            return Files.readString(logFile);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    public int port()
    {
        return port;
    }

    public long pid()
    {
        return process.pid();
    }

    public Path logFile()
    {
        return logFile;
    }

    @Override
    public void close()
    {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        }
    }
}
