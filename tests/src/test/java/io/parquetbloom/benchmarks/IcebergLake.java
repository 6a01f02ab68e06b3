package io.parquetbloom.benchmarks;

import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.testing.IcebergFixture;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

/**
 * The bench's tables as Iceberg tables over the very data files the folder tables hold, for {@code --table-format
 * iceberg}: metadata written by Apache Iceberg's own library (one append of every file; {@code events} partitioned by
 * identity on {@code year} and {@code month}, whose values only the folders hold; a name mapping, as a migration sets,
 * for files written without field ids; no column bounds, as {@code add_files} of files without metrics leaves them,
 * so neither connector excludes a file by its manifest) at {@code s3://lake/iceberg/telemetry/<table>/}: where our
 * catalog's layout finds them, and what Trino's Iceberg connector registers.
 */
final class IcebergLake
{
    static final String ROOT = "iceberg/";

    private IcebergLake() {}

    /**
     * @return the metadata file names of {@code events} and {@code keys}
     */
    static Map<String, String> adopt(S3Client s3, String bucket, String lakeRoot, DemoDataset.Scale scale, long keys)
    {
        Schema events = new Schema(
                required(1, "device_id", Types.StringType.get()),
                required(2, "trace_id", Types.StringType.get()),
                required(3, "voltage", Types.DoubleType.get()),
                required(4, "event_timestamp", Types.TimestampType.withoutZone()),
                optional(5, "year", Types.LongType.get()),
                optional(6, "month", Types.LongType.get()));
        PartitionSpec byMonth = PartitionSpec.builderFor(events).identity("year").identity("month").build();
        long rowsPerFile = (long) scale.rowGroupsPerFile() * scale.rowsPerRowGroup();
        String eventsFile = IcebergFixture.adopt(s3, location(bucket, "events"), events, byMonth,
                dataFiles(s3, bucket, lakeRoot + "telemetry/events/", byMonth, _ -> rowsPerFile), properties(events));
        Schema keyColumns = new Schema(required(1, "device_id", Types.StringType.get()));
        String keysFile = IcebergFixture.adopt(s3, location(bucket, "keys"), keyColumns, PartitionSpec.unpartitioned(),
                dataFiles(s3, bucket, lakeRoot + "telemetry/keys/", PartitionSpec.unpartitioned(), _ -> keys), properties(keyColumns));
        return Map.of("events", eventsFile, "keys", keysFile);
    }

    static String location(String bucket, String table)
    {
        return "s3://%s/%stelemetry/%s".formatted(bucket, ROOT, table);
    }

    private static Map<String, String> properties(Schema schema)
    {
        return Map.of(
                TableProperties.FORMAT_VERSION, "2",
                TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(MappingUtil.create(schema)),
                "write.parquet.bloom-filter-enabled.column.device_id", "true");
    }

    private static List<DataFile> dataFiles(S3Client s3, String bucket, String prefix, PartitionSpec spec, ToLongFunction<String> rows)
    {
        List<DataFile> files = new ArrayList<>();
        for (S3Object object : s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents()) {
            String relative = object.key().substring(prefix.length());
            if (!relative.endsWith(".parquet")) {
                continue;
            }
            DataFiles.Builder file = DataFiles.builder(spec)
                    .withPath("s3://%s/%s".formatted(bucket, object.key()))
                    .withFormat(FileFormat.PARQUET)
                    .withFileSizeInBytes(object.size())
                    .withRecordCount(rows.applyAsLong(object.key()));
            if (spec.isPartitioned()) {
                file.withPartitionPath(relative.substring(0, relative.lastIndexOf('/')));
            }
            files.add(file.build());
        }
        return files;
    }
}
