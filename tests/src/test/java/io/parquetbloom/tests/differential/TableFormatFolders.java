package io.parquetbloom.tests.differential;

import io.parquetbloom.testing.LakeFiles;
import io.parquetbloom.testing.TestingLake;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Table folders of the formats whose folders keep dead files: Delta Lake after an UPDATE (the removed file stays until
 * VACUUM), Iceberg with a file of an expired snapshot in {@code data/}, Hudi with two slices of one file group. Each
 * holds real Parquet files, so a connector that read the folder as plain files would answer, and wrongly.
 */
final class TableFormatFolders
{
    private TableFormatFolders() {}

    /**
     * @param files two Parquet files (live and dead, by the format's own metadata)
     * @return the tables' names, in schema {@code diff}
     */
    static List<String> write(S3Client client, List<RandomTable.TableFile> files)
    {
        byte[] live = files.getFirst().bytes();
        byte[] dead = files.getLast().bytes();
        byte[] json = "{\"commitInfo\":{}}".getBytes(UTF_8);
        Map<String, byte[]> objects = Map.ofEntries(
                Map.entry("fmt_delta/_delta_log/00000000000000000000.json", json),
                Map.entry("fmt_delta/_delta_log/00000000000000000001.json", json),
                Map.entry("fmt_delta/part-00000-a.snappy.parquet", dead),
                Map.entry("fmt_delta/part-00000-b.snappy.parquet", live),
                // a partition folder of the Delta table: registered on its own, its _delta_log/ is above it
                Map.entry("fmt_delta/p=1/part-00001-c.snappy.parquet", dead),
                Map.entry("fmt_iceberg/metadata/00001-6d1f1b2c.metadata.json", json),
                Map.entry("fmt_iceberg/data/00000-0-a.parquet", dead),
                Map.entry("fmt_iceberg/data/00001-0-b.parquet", live),
                Map.entry("fmt_hudi/.hoodie/hoodie.properties", json),
                Map.entry("fmt_hudi/p_region=us/f1_1-0-1_20260301.parquet", dead),
                Map.entry("fmt_hudi/p_region=us/f1_1-0-1_20260302.parquet", live));
        objects.forEach((path, bytes) -> client.putObject(request -> request.bucket(TestingLake.BUCKET).key("warehouse/diff/" + path), RequestBody.fromBytes(bytes)));
        return List.of("fmt_delta", "fmt_iceberg", "fmt_hudi");
    }

    /**
     * A table whose files clash on a column's type: varchar in the older file, bigint in the newest. A query that
     * reads the column fails naming the older file and the column; one that does not read it answers.
     *
     * @return the table's name, in schema {@code diff}
     */
    static String writeClash(S3Client client, Path work)
    {
        List<Object[]> older = new ArrayList<>();
        List<Object[]> newer = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            older.add(new Object[] {id, Long.toString(id)});
            newer.add(new Object[] {100 + id, 100 + id});
        }
        byte[] first = LakeFiles.parquet(work, "clash-0.parquet", "message m { required int64 id; required binary c (STRING); }", older, 50, Set.of("c"));
        byte[] second = LakeFiles.parquet(work, "clash-1.parquet", "message m { required int64 id; required int64 c; }", newer, 50, Set.of("c"));
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key("warehouse/diff/clash_t/000000_0"), RequestBody.fromBytes(first));
        client.putObject(request -> request.bucket(TestingLake.BUCKET).key("warehouse/diff/clash_t/000001_0"), RequestBody.fromBytes(second));
        return "clash_t";
    }
}
