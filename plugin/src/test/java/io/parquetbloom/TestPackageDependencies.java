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
 * understand {@code sbbf} without {@code s3}, and {@code pruning} without the connector's wiring. A sub-package
 * belongs to its top-level package's layer. Inside {@code connector}, each feature folder ({@code parquet},
 * {@code system}, {@code functions}, {@code procedure}) uses the connector's core and the layers below, never another
 * feature. Checked on the sources, including fully qualified names in code and static imports.
 */
final class TestPackageDependencies
{
    // lowest first; the root package holds what every layer may use (error codes)
    private static final List<String> LAYERS = List.of("", "sbbf", "hash", "s3", "metadata", "table", "iceberg", "delta", "pruning", "health", "keyindex", "connector");
    private static final List<String> CONNECTOR_FEATURES = List.of("parquet", "system", "functions", "procedure");
    private static final Pattern REFERENCE = Pattern.compile("io\\.parquetbloom\\.((?:[a-z0-9]+\\.)*)[A-Z]");

    @Test
    void everyPackageUsesOnlyLowerLayers()
            throws IOException
    {
        Path root = Path.of("src/main/java/io/parquetbloom");
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String fromPackage = root.relativize(file.getParent()).toString().replace('/', '.');
                String from = layer(fromPackage);
                assertThat(LAYERS).as("layer of package %s (%s)", fromPackage, file).contains(from);
                Matcher matcher = REFERENCE.matcher(read(file));
                while (matcher.find()) {
                    String toPackage = matcher.group(1).isEmpty() ? "" : matcher.group(1).substring(0, matcher.group(1).length() - 1);
                    String to = layer(toPackage);
                    if (to.equals(from)) {
                        String fromFeature = feature(fromPackage);
                        String toFeature = feature(toPackage);
                        if (!fromFeature.isEmpty() && !toFeature.isEmpty() && !fromFeature.equals(toFeature)) {
                            violations.add("%s uses the feature io.parquetbloom.%s".formatted(root.relativize(file), toPackage));
                        }
                        continue;
                    }
                    uses.computeIfAbsent(from, _ -> new TreeSet<>()).add(to);
                    if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                        violations.add("%s uses io.parquetbloom.%s".formatted(root.relativize(file), to.isEmpty() ? "(root)" : toPackage));
                    }
                }
            }
        }
        assertThat(violations).as("package uses (%s)", uses).isEmpty();
        // the table formats are rooms side by side: neither uses the other
        assertThat(uses.getOrDefault("delta", new TreeSet<>())).doesNotContain("iceberg");
        // the layers are real: the connector uses all of them
        assertThat(uses.get("connector")).containsAll(LAYERS.subList(0, LAYERS.size() - 1));
    }

    @Test
    void connectorFeaturesAreFolders()
            throws IOException
    {
        Path connector = Path.of("src/main/java/io/parquetbloom/connector");
        try (Stream<Path> folders = Files.list(connector)) {
            assertThat(folders.filter(Files::isDirectory).map(path -> path.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(CONNECTOR_FEATURES);
        }
    }

    // the top-level package: a sub-package belongs to its layer
    private static String layer(String packageName)
    {
        int dot = packageName.indexOf('.');
        return dot < 0 ? packageName : packageName.substring(0, dot);
    }

    // the connector feature folder a package is in, or "" for the connector's core and every other layer
    private static String feature(String packageName)
    {
        String[] parts = packageName.split("\\.");
        return parts.length > 1 && parts[0].equals("connector") ? parts[1] : "";
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
