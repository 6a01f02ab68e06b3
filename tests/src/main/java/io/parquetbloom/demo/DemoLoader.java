package io.parquetbloom.demo;

import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The docker-compose loader: creates the bucket and writes the demo dataset into the S3 server named by the
 * environment ({@code S3_ENDPOINT}, {@code S3_ACCESS_KEY}, {@code S3_SECRET_KEY}, {@code LAKE_LOCATION},
 * {@code DEMO_FILES}, {@code DEMO_ROWS_PER_ROW_GROUP}) unless the table is already there.
 */
public final class DemoLoader
{
    private DemoLoader() {}

    public static void main(String[] args)
            throws Exception
    {
        String endpoint = required("S3_ENDPOINT");
        URI location = URI.create(required("LAKE_LOCATION"));
        String bucket = location.getHost();
        String rootKey = location.getPath().replaceFirst("^/", "");
        DemoDataset.Scale scale = new DemoDataset.Scale(
                Integer.parseInt(System.getenv().getOrDefault("DEMO_FILES", Integer.toString(DemoDataset.DEFAULT_SCALE.files()))),
                DemoDataset.DEFAULT_SCALE.rowGroupsPerFile(),
                Integer.parseInt(System.getenv().getOrDefault("DEMO_ROWS_PER_ROW_GROUP", Integer.toString(DemoDataset.DEFAULT_SCALE.rowsPerRowGroup()))),
                DemoDataset.DEFAULT_SCALE.devices());
        try (S3Client client = S3ProxyProcess.client(endpoint, required("S3_ACCESS_KEY"), required("S3_SECRET_KEY"))) {
            if (client.listBuckets().buckets().stream().noneMatch(existing -> existing.name().equals(bucket))) {
                System.out.println("[loader] creating bucket " + bucket);
                client.createBucket(request -> request.bucket(bucket));
            }
            String tablePrefix = "%s%s/%s/".formatted(rootKey, DemoDataset.SCHEMA, DemoDataset.TABLE);
            if (!client.listObjectsV2(request -> request.bucket(bucket).prefix(tablePrefix).maxKeys(1)).contents().isEmpty()) {
                System.out.printf("[loader] s3://%s/%s already holds data%n", bucket, tablePrefix);
                return;
            }
            System.out.printf("[loader] writing %d files x %d row groups x %,d rows into s3://%s/%s%n", scale.files(), scale.rowGroupsPerFile(), scale.rowsPerRowGroup(), bucket, tablePrefix);
            Path work = Files.createTempDirectory("demo-loader");
            DemoDataset.write(client, bucket, rootKey, scale, work, System.out);
        }
    }

    private static String required(String name)
    {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            System.err.printf("[loader] environment variable %s is not set%n", name);
            System.exit(2);
        }
        return value;
    }
}
