package io.parquetbloom.table;

import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryLake;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT;
import static io.trino.spi.type.BigintType.BIGINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Listing by partition ({@link LakeTables#listPartitions}) returns exactly the files the whole listing would, filtered
 * by the predicate, whatever plain folders sit above, between or beside the partition levels: checked on random
 * layouts over many listing pages against the whole listing of the same lake.
 */
final class TestPartitionListing
{
    private static final SchemaTableName NAME = new SchemaTableName("s", "t");
    // plain folders writers put above, between and beside partitions (Firehose's raw/, Glue's data/, an archive/)
    private static final List<String> PLAIN = List.of("raw", "data", "v2", "archive", "x.d");

    @Test
    void partitionsBelowPlainFoldersAreListed()
    {
        InMemoryLake store = new InMemoryLake("lake").withPageSize(2);
        for (int n = 0; n < 15; n++) {
            store.put("warehouse/s/t/raw/n=%d/part-0.parquet".formatted(n));
            store.put("warehouse/s/t/raw/n=%d/part-1.parquet".formatted(n));
        }
        store.put("warehouse/s/t/archive/n=3/x.parquet");
        assertSameFiles(store, Map.of("n", Domain.singleValue(BIGINT, 3L)));
        assertSameFiles(store, Map.of("n", Domain.singleValue(BIGINT, 7L)));
    }

    /**
     * A key with {@code //} has a folder of the empty name, which the whole listing looks through as any plain folder.
     */
    @Test
    void partitionsBelowAnEmptyFolderNameAreListed()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/s/t/n=0/part-0.parquet")
                .put("warehouse/s/t//n=1/part-0.parquet")
                .put("warehouse/s/t/x//n=1/part-1.parquet");
        assertSameFiles(store, Map.of("n", Domain.singleValue(BIGINT, 1L)));
        LakeTables tables = lakeTables(store);
        S3Location location = tables.findTable(NAME, new S3RequestStats()).orElseThrow();
        TableShape shape = new TableShape(List.of(), List.of(new PartitionColumn("n", BIGINT)), 1_000_000);
        assertThat(tables.listPartitions(NAME, location, shape, Map.of("n", Domain.singleValue(BIGINT, 1L)), new S3RequestStats()).files())
                .extracting(LakeFile::relativePath)
                .containsExactlyInAnyOrder("/n=1/part-0.parquet", "x//n=1/part-1.parquet");
    }

    @Test
    void randomLayoutsListTheSameFilesAsTheWholeListing()
    {
        Random random = new Random(20261207);
        for (int layout = 0; layout < 60; layout++) {
            InMemoryLake store = randomLake(random);
            for (int query = 0; query < 6; query++) {
                assertSameFiles(store, randomDomains(random));
            }
        }
    }

    @Test
    void walkThatWouldCostMoreThanTheWholeListingListsWhole()
    {
        InMemoryLake store = new InMemoryLake("lake").withPageSize(1000);
        for (int n = 0; n < 40; n++) {
            store.put("warehouse/s/t/n=%d/m=1/part-0.parquet".formatted(n));
        }
        LakeTables tables = lakeTables(store);
        S3Location location = tables.findTable(NAME, new S3RequestStats()).orElseThrow();
        LakeTable whole = tables.getTable(NAME, location, new S3RequestStats());
        TableShape shape = new TableShape(List.of(), whole.partitionColumns(), whole.files().size());
        S3RequestStats stats = new S3RequestStats();
        // every n admitted, m constrained: 41 folders to walk where the whole table is one page
        LakeTable listed = tables.listPartitions(NAME, location, shape, Map.of("m", Domain.singleValue(BIGINT, 1L)), stats);
        assertThat(stats.partitionListingFallbacks()).isEqualTo(1);
        assertThat(listed.files()).hasSize(40);
    }

    @Test
    void aKeyNamedTwiceInOnePathIsRefusedByBothListings()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/s/t/n=1/part-0.parquet")
                .put("warehouse/s/t/n=1/sub/n=2/part-0.parquet");
        LakeTables tables = lakeTables(store);
        S3Location location = tables.findTable(NAME, new S3RequestStats()).orElseThrow();
        assertThatThrownBy(() -> tables.getTable(NAME, location, new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_SCHEMA_MISMATCH.toErrorCode()))
                .hasMessageContaining("s3://lake/warehouse/s/t/n=1/sub/n=2/part-0.parquet")
                .hasMessageContaining("'n' in more than one folder");
        TableShape shape = new TableShape(List.of(), List.of(new PartitionColumn("n", BIGINT)), 1);
        // a walk that enters the folder refuses it too (one that never enters it never reads the file)
        assertThatThrownBy(() -> tables.listPartitions(NAME, location, shape, Map.of("n", Domain.singleValue(BIGINT, 1L)), new S3RequestStats()))
                .hasMessageContaining("'n' in more than one folder");
    }

    @Test
    void aTableFormatsFolderFailsTheListingByPartitionToo()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/s/t/n=1/part-0.parquet")
                .put("warehouse/s/t/n=2/_spark_metadata/0")
                .put("warehouse/s/t/n=2/part-0.parquet");
        LakeTables tables = lakeTables(store);
        S3Location location = tables.findTable(NAME, new S3RequestStats()).orElseThrow();
        TableShape shape = new TableShape(List.of(), List.of(new PartitionColumn("n", BIGINT)), 2);
        assertThatThrownBy(() -> tables.listPartitions(NAME, location, shape, Map.of("n", Domain.singleValue(BIGINT, 2L)), new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT.toErrorCode()))
                .hasMessageContaining("Spark structured streaming sink");
    }

    private static void assertSameFiles(InMemoryLake store, Map<String, Domain> domains)
    {
        LakeTables tables = lakeTables(store);
        S3Location location = tables.findTable(NAME, new S3RequestStats()).orElseThrow();
        LakeTable whole = tables.getTable(NAME, location, new S3RequestStats());
        TableShape shape = new TableShape(List.of(), whole.partitionColumns(), whole.files().size());
        S3RequestStats stats = new S3RequestStats();
        // a budget no walk reaches: the walk itself is what is checked
        LakeTable byPartition = tables.listPartitions(NAME, location, new TableShape(List.of(), shape.partitionColumns(), 1_000_000), domains, stats);
        assertThat(selected(byPartition, domains))
                .as("layout %s, predicate %s", whole.files().stream().map(LakeFile::relativePath).toList(), domains)
                .containsExactlyInAnyOrderElementsOf(selected(whole, domains));
        assertThat(stats.partitionListingFallbacks()).isZero();
        // and with the whole table's cost as the budget: the same files, walked or listed whole
        assertThat(selected(tables.listPartitions(NAME, location, shape, domains, new S3RequestStats()), domains))
                .containsExactlyInAnyOrderElementsOf(selected(whole, domains));
    }

    /**
     * The files of {@code table} the predicate selects, by key: what a query plans.
     */
    private static List<String> selected(LakeTable table, Map<String, Domain> domains)
    {
        return table.files().stream()
                .filter(file -> table.partitionColumns().stream().allMatch(column -> {
                    Domain domain = domains.get(column.name());
                    return domain == null || domain.includesNullableValue(PartitionValues.toNativeValue(column.type(), file.partitionValue(column.name())));
                }))
                .map(file -> file.object().location().key())
                .toList();
    }

    /**
     * A table of two BIGINT partition columns {@code n} and {@code m} whose folders sit below, between and beside plain
     * folders, with hidden folders and objects that are not data, two keys a listing page.
     */
    private static InMemoryLake randomLake(Random random)
    {
        InMemoryLake store = new InMemoryLake("lake").withPageSize(2);
        // the plain folders of each of the three places a layout may put them, one or two layouts side by side
        int layouts = 1 + random.nextInt(2);
        for (int layout = 0; layout < layouts; layout++) {
            String above = plainFolders(random);
            String between = plainFolders(random);
            String below = plainFolders(random);
            for (int file = 0; file < 3 + random.nextInt(10); file++) {
                String n = random.nextInt(8) == 0 ? PartitionValues.HIVE_DEFAULT_PARTITION : Integer.toString(random.nextInt(5));
                String m = Integer.toString(random.nextInt(4));
                store.put("warehouse/s/t/%sn=%s/%sm=%s/%spart-%d.parquet".formatted(above, n, between, m, below, file));
            }
        }
        if (random.nextBoolean()) {
            store.put("warehouse/s/t/_temporary/n=1/m=1/part-9.parquet");
        }
        if (random.nextBoolean()) {
            store.put("warehouse/s/t/n=1/m=1/_SUCCESS");
            store.put("warehouse/s/t/n=2/README.md");
        }
        return store;
    }

    private static String plainFolders(Random random)
    {
        StringBuilder folders = new StringBuilder();
        for (int i = random.nextInt(4) - 1; i > 0; i--) {
            folders.append(PLAIN.get(random.nextInt(PLAIN.size()))).append('/');
        }
        return folders.toString();
    }

    private static Map<String, Domain> randomDomains(Random random)
    {
        Map<String, Domain> domains = new HashMap<>();
        for (String column : List.of("n", "m")) {
            switch (random.nextInt(5)) {
                case 0 -> {}
                case 1 -> domains.put(column, Domain.singleValue(BIGINT, (long) random.nextInt(5)));
                case 2 -> domains.put(column, Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 1L, true, 2L, true)), false));
                case 3 -> domains.put(column, Domain.onlyNull(BIGINT));
                default -> domains.put(column, Domain.multipleValues(BIGINT, new ArrayList<>(List.of(0L, 3L))));
            }
        }
        if (domains.isEmpty()) {
            domains.put("m", Domain.singleValue(BIGINT, 1L));
        }
        return domains;
    }

    private static LakeTables lakeTables(InMemoryLake store)
    {
        return new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
    }
}
