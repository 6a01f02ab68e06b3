package io.parquetbloom.testing;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The Delta Lake project's golden tables (written by Spark and Delta's own writers; Apache 2.0, see
 * {@code delta-golden/README.md} in the plugin's test resources), copied into S3 as a user's existing tables: every
 * object of one table, as its writer left it.
 */
public final class DeltaGoldenTables
{
    private DeltaGoldenTables() {}

    /**
     * Copies golden table {@code name} to {@code key} (a folder, ending in {@code /}) of {@code bucket}.
     *
     * @return how many objects were copied
     */
    public static int upload(S3Client client, String bucket, String name, String key)
    {
        URL root = requireNonNull(DeltaGoldenTables.class.getClassLoader().getResource("delta-golden/" + name), "no golden table " + name);
        try {
            URI uri = root.toURI();
            if (uri.getScheme().equals("jar")) {
                // the plugin's test jar, as the reactor hands it to this module
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    return upload(client, bucket, jar.provider().getPath(uri), key);
                }
            }
            return upload(client, bucket, Path.of(uri), key);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int upload(S3Client client, String bucket, Path folder, String key)
            throws IOException
    {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            String relative = folder.relativize(file).toString().replace('\\', '/');
            byte[] bytes = Files.readAllBytes(file);
            client.putObject(request -> request.bucket(bucket).key(key + relative), RequestBody.fromBytes(bytes));
        }
        return files.size();
    }
}
