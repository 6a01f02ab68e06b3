package io.parquetbloom;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's packages form layers, each using only the ones below it, so the graph has no cycle: a reader can
 * understand {@code sbbf} without {@code s3}, and {@code pruning} without the connector's wiring. Checked on the
 * sources, including fully qualified names in code and static imports.
 */
final class TestPackageDependencies
{
    // lowest first; the root package holds what every layer may use (error codes)
    private static final List<String> LAYERS = List.of("", "sbbf", "hash", "s3", "metadata", "table", "pruning", "health", "connector");
    private static final Pattern REFERENCE = Pattern.compile("io\\.parquetbloom\\.(?:([a-z0-9]+)\\.)?[A-Z]");

    @Test
    void everyPackageUsesOnlyLowerLayers()
            throws IOException
    {
        Path root = Path.of("src/main/java/io/parquetbloom");
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String from = root.relativize(file.getParent()).toString().replace('/', '.');
                assertThat(LAYERS).as("layer of package %s (%s)", from, file).contains(from);
                Matcher matcher = REFERENCE.matcher(read(file));
                while (matcher.find()) {
                    String to = matcher.group(1) == null ? "" : matcher.group(1);
                    if (to.equals(from)) {
                        continue;
                    }
                    uses.computeIfAbsent(from, _ -> new TreeSet<>()).add(to);
                    if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                        violations.add("%s uses io.parquetbloom.%s".formatted(root.relativize(file), to.isEmpty() ? "(root)" : to));
                    }
                }
            }
        }
        assertThat(violations).as("package uses (%s)", uses).isEmpty();
        // the layers are real: the connector uses all of them
        assertThat(uses.get("connector")).containsAll(LAYERS.subList(0, LAYERS.size() - 1));
    }

    private static String read(Path file)
    {
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
