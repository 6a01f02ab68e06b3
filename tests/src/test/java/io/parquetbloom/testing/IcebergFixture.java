package io.parquetbloom.testing;

import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.MappedField;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

/**
 * An Iceberg table written by Apache Iceberg's own library (its in-memory catalog), its metadata, manifest lists,
 * manifests and Parquet data files then uploaded to S3 at the paths the metadata names: {@code (id bigint,
 * device_id varchar)}, three appended files of which the second was removed by a later snapshot (dead, still in
 * {@code data/}).
 */
public final class IcebergFixture
{
    public static final int ROWS_PER_FILE = 100;

    private IcebergFixture() {}

    /**
     * @return the live rows' ids
     */
    public static List<Long> write(S3Client s3, Path work, String schema, String table)
    {
        String location = "s3://%s/warehouse/%s/%s".formatted(TestingLake.BUCKET, schema, table);
        try (InMemoryCatalog catalog = new InMemoryCatalog()) {
            catalog.initialize("fixture", Map.of(CatalogProperties.WAREHOUSE_LOCATION, "s3://%s/warehouse".formatted(TestingLake.BUCKET)));
            catalog.createNamespace(Namespace.of(schema));
            Schema columns = new Schema(required(1, "id", Types.LongType.get()), optional(2, "device_id", Types.StringType.get()));
            Table created = catalog.buildTable(TableIdentifier.of(schema, table), columns).withLocation(location).withProperty("format-version", "2").create();
            List<DataFile> files = new ArrayList<>();
            for (int file = 0; file < 3; file++) {
                DataFile dataFile = dataFile(s3, work, location, file);
                created.newAppend().appendFile(dataFile).commit();
                files.add(dataFile);
            }
            created.newDelete().deleteFile(files.get(1)).commit();
            upload(s3, created);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Long> live = new ArrayList<>();
        for (int file : new int[] {0, 2}) {
            for (long id = file * ROWS_PER_FILE; id < (file + 1) * ROWS_PER_FILE; id++) {
                live.add(id);
            }
        }
        return live;
    }

    /**
     * A table partitioned by identity on {@code region} whose first data file does not hold the column (as {@code
     * add_files} and migrations leave Hive files) and whose second does: {@code (id bigint, region varchar)}, ids 0 to
     * 99 in {@code region=eu}, 100 to 199 in {@code region=us}.
     */
    public static void writeMigrated(S3Client s3, Path work, String schema, String table)
    {
        String location = "s3://%s/warehouse/%s/%s".formatted(TestingLake.BUCKET, schema, table);
        try (InMemoryCatalog catalog = new InMemoryCatalog()) {
            catalog.initialize("fixture", Map.of(CatalogProperties.WAREHOUSE_LOCATION, "s3://%s/warehouse".formatted(TestingLake.BUCKET)));
            catalog.createNamespace(Namespace.of(schema));
            Schema columns = new Schema(required(1, "id", Types.LongType.get()), optional(2, "region", Types.StringType.get()));
            PartitionSpec spec = PartitionSpec.builderFor(columns).identity("region").build();
            Table created = catalog.buildTable(TableIdentifier.of(schema, table), columns).withPartitionSpec(spec).withLocation(location).create();
            int file = 0;
            for (String region : List.of("eu", "us")) {
                // the first file lacks region, as a Hive file does; the second, written since, holds it
                boolean holdsRegion = file == 1;
                List<Object[]> rows = new ArrayList<>();
                for (long id = file * ROWS_PER_FILE; id < (file + 1) * ROWS_PER_FILE; id++) {
                    rows.add(holdsRegion ? new Object[] {id, region} : new Object[] {id});
                }
                String fileSchema = holdsRegion ? "message m { required int64 id; optional binary region (STRING); }" : "message m { required int64 id; }";
                byte[] bytes = LakeFiles.parquet(work, "migrated-%d.parquet".formatted(file), fileSchema, rows, 50, Set.of());
                String path = "%s/data/region=%s/migrated-%d.parquet".formatted(location, region, file);
                put(s3, path, bytes);
                created.newAppend().appendFile(DataFiles.builder(spec)
                        .withPath(path)
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(bytes.length)
                        .withRecordCount(rows.size())
                        .withPartitionPath("region=" + region)
                        .build()).commit();
                file++;
            }
            upload(s3, created);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An Iceberg table at {@code location} whose data files are objects that exist already (as {@code add_files} or a
     * migration adopts a Hive table's files): one append of {@code files}, metadata uploaded to S3.
     *
     * @return the name of its metadata file in {@code <location>/metadata/}
     */
    public static String adopt(S3Client s3, String location, Schema schema, PartitionSpec spec, List<DataFile> files, Map<String, String> properties)
    {
        try (InMemoryCatalog catalog = new InMemoryCatalog()) {
            catalog.initialize("adopted", Map.of(CatalogProperties.WAREHOUSE_LOCATION, location));
            catalog.createNamespace(Namespace.of("adopted"));
            Table table = catalog.buildTable(TableIdentifier.of("adopted", "table"), schema).withPartitionSpec(spec).withLocation(location).withProperties(properties).create();
            AppendFiles append = table.newAppend();
            files.forEach(append::appendFile);
            append.commit();
            upload(s3, table);
            String metadata = ((HasTableOperations) table).operations().current().metadataFileLocation();
            return metadata.substring(metadata.lastIndexOf('/') + 1);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A table whose one data file was written without field ids under other names, read through the table's name
     * mapping ({@code schema.name-mapping.default}): {@code (id bigint, device_id varchar, gone varchar)}, 100 rows.
     * The file's column {@code device} is {@code device_id} ({@code dev-<id>}); the file's own {@code device_id}
     * ({@code stale-<id>}) is no column of the table, and {@code gone}, which the mapping does not map, is NULL though
     * the file has a column of that name.
     */
    public static void writeMapped(S3Client s3, Path work, String schema, String table)
    {
        String location = "s3://%s/warehouse/%s/%s".formatted(TestingLake.BUCKET, schema, table);
        Schema columns = new Schema(optional(1, "id", Types.LongType.get()), optional(2, "device_id", Types.StringType.get()), optional(3, "gone", Types.StringType.get()));
        NameMapping mapping = NameMapping.of(MappedField.of(1, "id"), MappedField.of(2, List.of("device", "dev")));
        List<Object[]> rows = new ArrayList<>();
        for (long id = 0; id < ROWS_PER_FILE; id++) {
            rows.add(new Object[] {id, "dev-" + id, "stale-" + id, "x"});
        }
        byte[] bytes = LakeFiles.parquet(work, "mapped.parquet", "message m { required int64 id; optional binary device (STRING); optional binary device_id (STRING); optional binary gone (STRING); }", rows, 25, Set.of("device", "device_id"));
        String path = location + "/data/mapped.parquet";
        put(s3, path, bytes);
        DataFile file = DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(path)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(bytes.length)
                .withRecordCount(rows.size())
                .build();
        adopt(s3, location, columns, PartitionSpec.unpartitioned(), List.of(file), Map.of(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapping)));
    }

    private static DataFile dataFile(S3Client s3, Path work, String location, int file)
    {
        List<Object[]> rows = new ArrayList<>();
        for (long id = file * ROWS_PER_FILE; id < (file + 1) * ROWS_PER_FILE; id++) {
            rows.add(new Object[] {id, "dev-" + id});
        }
        // written without field ids, as parquet-java writes: Iceberg reads such files by name
        byte[] bytes = LakeFiles.parquet(work, "iceberg-fixture-%d.parquet".formatted(file), "message m { required int64 id; optional binary device_id (STRING); }", rows, 50, Set.of("device_id"));
        String path = "%s/data/0000%d-fixture.parquet".formatted(location, file);
        put(s3, path, bytes);
        return DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(path)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(bytes.length)
                .withRecordCount(rows.size())
                .build();
    }

    private static void upload(S3Client s3, Table table)
            throws IOException
    {
        FileIO io = table.io();
        Set<String> paths = new LinkedHashSet<>();
        paths.add(((HasTableOperations) table).operations().current().metadataFileLocation());
        for (Snapshot snapshot : table.snapshots()) {
            paths.add(snapshot.manifestListLocation());
            for (ManifestFile manifest : snapshot.allManifests(io)) {
                paths.add(manifest.path());
            }
        }
        for (String path : paths) {
            try (InputStream in = io.newInputFile(path).newStream()) {
                put(s3, path, in.readAllBytes());
            }
        }
    }

    private static void put(S3Client s3, String path, byte[] bytes)
    {
        String withoutScheme = path.substring("s3://".length());
        String bucket = withoutScheme.substring(0, withoutScheme.indexOf('/'));
        String key = withoutScheme.substring(withoutScheme.indexOf('/') + 1);
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }
}
