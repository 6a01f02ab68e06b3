package io.parquetbloom.testing;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.demo.S3ProxyProcess;

import java.util.Map;

/**
 * A catalog of Trino's own Iceberg connector over the testing lake's S3 server, writing tables where this
 * connector's layout finds them ({@code <schema location>/<table>/}): what Iceberg tables in tests are written with.
 */
public final class TrinoIcebergCatalog
{
    private TrinoIcebergCatalog() {}

    public static Map<String, String> properties(String endpoint)
    {
        return ImmutableMap.<String, String>builder()
                .put("iceberg.catalog.type", "TESTING_FILE_METASTORE")
                .put("hive.metastore.catalog.dir", "s3://" + TestingLake.BUCKET + "/iceberg-metastore")
                // the table's folder is <schema>/<table>, where this connector's layout finds it
                .put("iceberg.unique-table-location", "false")
                .put("fs.native-s3.enabled", "true")
                .put("s3.endpoint", endpoint)
                .put("s3.region", "us-east-1")
                .put("s3.path-style-access", "true")
                .put("s3.aws-access-key", S3ProxyProcess.ACCESS_KEY)
                .put("s3.aws-secret-key", S3ProxyProcess.SECRET_KEY)
                .buildOrThrow();
    }
}
