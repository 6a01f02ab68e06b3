package io.parquetbloom.tests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No Docker engine runs here, so the compose stack is validated, not started: {@code docker compose config} (or
 * the Debian {@code docker-compose}, which .ci/run installs) must accept the file, and the resolved configuration must
 * wire MinIO, the loader and Trino 483 with the packaged plugin.
 */
final class TestDockerCompose
{
    private static final Path COMPOSE_FILE = Path.of(System.getProperty("user.dir")).getParent().resolve("docker/docker-compose.yml");

    @Test
    void composeFileIsValidAndWiresTheStack()
            throws Exception
    {
        Optional<List<String>> tool = composeTool();
        assumeTrue(tool.isPresent(), "neither 'docker compose' nor 'docker-compose' is installed");
        String config = run(tool.get(), "-f", COMPOSE_FILE.toString(), "config");
        assertThat(config)
                .contains("image: trinodb/trino:483")
                .contains("minio/minio:")
                .contains("io.parquetbloom.demo.DemoLoader")
                .contains("plugin/target/trino-parquet-bloom-1.0-SNAPSHOT:/usr/lib/trino/plugin/parquet_bloom:ro")
                .contains("/etc/trino/catalog")
                .contains("service_completed_successfully");
    }

    private static Optional<List<String>> composeTool()
    {
        for (List<String> candidate : List.of(List.of("docker", "compose"), List.of("docker-compose"))) {
            try {
                run(candidate, "version");
                return Optional.of(candidate);
            }
            catch (Exception e) {
                // not this one
            }
        }
        return Optional.empty();
    }

    private static String run(List<String> tool, String... args)
            throws IOException, InterruptedException
    {
        List<String> command = new ArrayList<>(tool);
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("%s failed:%n%s".formatted(command, output));
        }
        return output;
    }
}
