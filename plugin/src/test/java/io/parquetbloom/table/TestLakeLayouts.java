package io.parquetbloom.table;

import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryLake;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lakes as other writers leave them: data files without an extension, sidecar files beside them, partition folders
 * at the root, and table-format folders whose files are not all live.
 */
final class TestLakeLayouts
{
    private static final SchemaTableName NAME = new SchemaTableName("s", "t");

    @Test
    void dataFilesAsEveryWriterNamesThem()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/s/t/000000_0")
                .put("warehouse/s/t/000001_0_copy_1")
                .put("warehouse/s/t/20260301_101530_00042_abcde_6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1")
                .put("warehouse/s/t/part-6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1-0-0")
                .put("warehouse/s/t/part-00000-6d1f1b2c-c000.snappy.parquet")
                .put("warehouse/s/t/data_0.PARQUET")
                .put("warehouse/s/t/README.md")
                .put("warehouse/s/t/schema.json")
                .put("warehouse/s/t/_SUCCESS")
                .put("warehouse/s/t/.part-00000.crc")
                .put("warehouse/s/t/_temporary/0/task/part-1.parquet")
                .put("warehouse/s/t/.part-1-0.inprogress.6d1f")
                .put("warehouse/s/t/empty-bucket-file", 0)
                .put("warehouse/s/t/folder-marker/", 0);
        LakeTable table = table(store, "s3://lake/warehouse/s/t/");
        assertThat(table.files()).extracting(file -> file.object().location().key().substring("warehouse/s/t/".length())).containsExactly(
                "000000_0",
                "000001_0_copy_1",
                "20260301_101530_00042_abcde_6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1",
                "data_0.PARQUET",
                "part-00000-6d1f1b2c-c000.snappy.parquet",
                "part-6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1-0-0");
    }

    @Test
    void tableFormatFoldersAreRefusedNamingTheConnectorThatReadsThem()
    {
        assertRefused(new InMemoryLake("lake")
                        .put("warehouse/s/t/_delta_log/00000000000000000000.json")
                        .put("warehouse/s/t/part-00000-a.snappy.parquet"),
                "s3://lake/warehouse/s/t/ is a Delta Lake table (it holds _delta_log/)", "connector.name=delta_lake");
        assertRefused(new InMemoryLake("lake")
                        .put("warehouse/s/t/data/00000-0-a.parquet")
                        .put("warehouse/s/t/metadata/v2.metadata.json")
                        .put("warehouse/s/t/metadata/snap-1.avro"),
                "s3://lake/warehouse/s/t/ is an Iceberg table", "connector.name=iceberg");
        assertRefused(new InMemoryLake("lake")
                        .put("warehouse/s/t/.hoodie/hoodie.properties")
                        .put("warehouse/s/t/region=eu/f1_1-0-1_20260301.parquet"),
                "is a Hudi table", "connector.name=hudi");
        // a format table nested below a plain folder would leak its dead files just the same
        assertRefused(new InMemoryLake("lake")
                        .put("warehouse/s/t/part-0.parquet")
                        .put("warehouse/s/t/year=2026/_delta_log/00000000000000000001.json")
                        .put("warehouse/s/t/year=2026/part-1.parquet"),
                "s3://lake/warehouse/s/t/year=2026/ is a Delta Lake table", "connector.name=delta_lake");
        // an ordinary folder named metadata (no *.metadata.json in it) is data like any other
        LakeTable plain = table(new InMemoryLake("lake")
                .put("warehouse/s/t/metadata/part-0.parquet")
                .put("warehouse/s/t/metadata/notes/readme.json"), "s3://lake/warehouse/s/t/");
        assertThat(plain.files()).hasSize(1);
    }

    @Test
    void partitionFoldersAreNeitherSchemasNorTables()
    {
        InMemoryLake store = new InMemoryLake("bucket")
                .put("year=2026/month=03/part-0.parquet")
                .put("telemetry/events/part-0.parquet")
                .put("telemetry/month=04/part-1.parquet");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://bucket/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        S3RequestStats stats = new S3RequestStats();
        assertThat(tables.listSchemas(stats)).containsExactly("telemetry");
        assertThat(tables.listTables("telemetry", stats)).containsExactly("events");
        assertThat(tables.findTable(new SchemaTableName("year=2026", "month=03"), stats)).isEmpty();
    }

    @Test
    void newestFileIsTheLastWrittenThenTheLastByName()
    {
        LakeFile old = file("t/b", Instant.parse("2026-03-01T00:00:00Z"));
        LakeFile sameSecondA = file("t/c-000", Instant.parse("2026-03-02T00:00:00Z"));
        LakeFile sameSecondB = file("t/c-001", Instant.parse("2026-03-02T00:00:00Z"));
        LakeTable table = new LakeTable(NAME, new S3Location("lake", "t/"), List.of(sameSecondB, old, sameSecondA), List.of());
        assertThat(table.newestFile()).contains(sameSecondB);
        assertThat(new LakeTable(NAME, new S3Location("lake", "t/"), List.of(), List.of()).newestFile()).isEmpty();
    }

    private static LakeFile file(String key, Instant lastModified)
    {
        return new LakeFile(new S3ObjectInfo(new S3Location("lake", key), 100, "etag"), key.substring(2), Map.of(), lastModified);
    }

    private static void assertRefused(InMemoryLake store, String... messageParts)
    {
        assertThatThrownBy(() -> table(store, "s3://lake/warehouse/s/t/"))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT.toErrorCode()))
                .hasMessageContainingAll(messageParts);
    }

    private static LakeTable table(InMemoryLake store, String location)
    {
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        return tables.listTableNow(NAME, S3Location.parse(location), new S3RequestStats());
    }
}
