package io.parquetbloom.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

/**
 * A copy of the repository's {@code etc/} for a server of its own: its port, its data folder, its catalogs' S3
 * endpoint and credentials, and further catalogs made from {@code lake.properties} with some properties changed.
 */
public final class TrinoEtc
{
    private TrinoEtc() {}

    /**
     * @param lake properties of catalog {@code lake} that replace the repository's
     * @param otherCatalogs further catalogs: the final {@code lake} properties with these changed
     */
    public static Path write(Path repositoryRoot, Path etc, int port, Map<String, String> lake, Map<String, Map<String, String>> otherCatalogs)
            throws IOException
    {
        Files.createDirectories(etc.resolve("catalog"));
        Path source = repositoryRoot.resolve("etc");
        Files.copy(source.resolve("jvm.config"), etc.resolve("jvm.config"), REPLACE_EXISTING);
        Files.copy(source.resolve("log.properties"), etc.resolve("log.properties"), REPLACE_EXISTING);
        Files.writeString(etc.resolve("node.properties"), rewrite(source.resolve("node.properties"), Map.of("node.data-dir", etc.getParent().resolve("data").toString())));
        Files.writeString(etc.resolve("config.properties"), rewrite(source.resolve("config.properties"), Map.of(
                "http-server.http.port", Integer.toString(port),
                "discovery.uri", "http://127.0.0.1:" + port,
                "catalog.config-dir", etc.resolve("catalog").toString())));
        Path lakeSource = source.resolve("catalog/lake.properties");
        // each server its own disk tier, beside its data folder, unless the caller says otherwise
        Map<String, String> lakeProperties = new HashMap<>(Map.of("metadata-cache.disk.directory", etc.getParent().resolve("metadata-cache").toString()));
        lakeProperties.putAll(lake);
        Files.writeString(etc.resolve("catalog/lake.properties"), rewrite(lakeSource, lakeProperties));
        for (Map.Entry<String, Map<String, String>> catalog : otherCatalogs.entrySet()) {
            Map<String, String> properties = new HashMap<>(lakeProperties);
            // a directory per catalog: each bounds and evicts only what it wrote
            properties.put("metadata-cache.disk.directory", etc.getParent().resolve("metadata-cache-" + catalog.getKey()).toString());
            properties.putAll(catalog.getValue());
            Files.writeString(etc.resolve("catalog/%s.properties".formatted(catalog.getKey())), rewrite(lakeSource, properties));
        }
        return etc;
    }

    /**
     * The file with the given properties' values replaced, and those it lacks appended.
     */
    private static String rewrite(Path file, Map<String, String> values)
            throws IOException
    {
        StringBuilder result = new StringBuilder();
        Set<String> seen = new HashSet<>();
        for (String line : Files.readAllLines(file)) {
            int equals = line.indexOf('=');
            String key = equals > 0 && !line.startsWith("#") ? line.substring(0, equals).trim() : null;
            if (key != null && values.containsKey(key)) {
                result.append(key).append('=').append(values.get(key)).append('\n');
                seen.add(key);
            }
            else {
                result.append(line).append('\n');
            }
        }
        values.forEach((key, value) -> {
            if (!seen.contains(key)) {
                result.append(key).append('=').append(value).append('\n');
            }
        });
        return result.toString();
    }

    /**
     * The packaged plugin folder copied (again, so it is the latest build) into {@code work/plugin/parquet_bloom}, as an
     * installation would place it.
     */
    public static Path pluginDirectory(Path repositoryRoot, Path work)
            throws IOException
    {
        Path plugins = work.resolve("plugin");
        Path target = plugins.resolve("parquet_bloom");
        Files.createDirectories(target);
        try (var jars = Files.list(repositoryRoot.resolve("plugin/target/trino-parquet-bloom-1.0-SNAPSHOT"))) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, target.resolve(jar.getFileName()), REPLACE_EXISTING);
            }
        }
        return plugins;
    }
}
