package io.parquetbloom.table;

import io.airlift.units.Duration;
import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.keyindex.KeyIndexPointers;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryLake;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_AMBIGUOUS_LOCATION;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lake layout: schemas and tables are the first two folder levels under {@code location}, every {@code *.parquet}
 * below a table is data, {@code key=value} folders are typed partition columns, hidden names are skipped.
 */
final class TestLakeTables
{
    @Test
    void schemasTablesAndPartitions()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/telemetry/events/year=2025/day=2025-01-02/region=eu/part-0.parquet")
                .put("warehouse/telemetry/events/year=2026/day=2026-03-04/region=__HIVE_DEFAULT_PARTITION__/part-1.parquet")
                .put("warehouse/telemetry/events/year=2026/day=2026-03-04/region=us/_SUCCESS")
                .put("warehouse/telemetry/events/_temporary/year=2026/day=2026-03-04/region=us/part-2.parquet")
                .put("warehouse/telemetry/events/.hidden/part-3.parquet")
                .put("warehouse/telemetry/Devices/part-0.parquet")
                .put("warehouse/_tmp/t/part-0.parquet");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        S3RequestStats stats = new S3RequestStats();

        assertThat(tables.listSchemas(stats)).containsExactly("telemetry");
        assertThat(tables.listTables("telemetry", stats)).containsExactlyInAnyOrder("events", "devices");

        SchemaTableName name = new SchemaTableName("telemetry", "events");
        LakeTable table = tables.getTable(name, tables.findTable(name, stats).orElseThrow(), stats);
        assertThat(table.partitionColumns()).containsExactly(
                new PartitionColumn("year", BIGINT),
                new PartitionColumn("day", DATE),
                new PartitionColumn("region", VARCHAR));
        assertThat(table.files()).extracting(file -> file.object().location().key()).containsExactly(
                "warehouse/telemetry/events/year=2025/day=2025-01-02/region=eu/part-0.parquet",
                "warehouse/telemetry/events/year=2026/day=2026-03-04/region=__HIVE_DEFAULT_PARTITION__/part-1.parquet");
        assertThat(table.files().get(1).partitionValues().values()).containsExactly(Optional.of("2026"), Optional.of("2026-03-04"), Optional.empty());
        assertThat(table.files().get(1).partitionValues().keySet()).containsExactlyElementsOf(table.partitionColumns().stream().map(PartitionColumn::name).toList());

        // names match without regard to case; a table handle needs the two folder levels, never the files
        S3RequestStats lookup = new S3RequestStats();
        assertThat(tables.findTable(new SchemaTableName("telemetry", "devices"), lookup)).isPresent();
        assertThat(lookup.listRequests()).isEqualTo(2);
        assertThat(tables.findTable(new SchemaTableName("telemetry", "missing"), stats)).isEmpty();
    }

    /**
     * A query submitted before a listing of its table began uses that listing; one submitted after it lists again and
     * sees the files written in between; a flush, and {@code metadata.shared-listing-max-age=0s}, share nothing.
     */
    @Test
    void aListingBegunAfterAQueryWasSubmittedServesIt()
    {
        InMemoryLake store = new InMemoryLake("lake").put("warehouse/telemetry/events/part-0.parquet");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("telemetry", "events");
        S3Location folder = tables.findTable(name, new S3RequestStats()).orElseThrow();
        Instant queuedSince = Instant.now().minusSeconds(5);

        S3RequestStats first = new S3RequestStats();
        assertThat(tables.getTable(name, folder, queuedSince, first).files()).hasSize(1);
        assertThat(first.listRequests()).isPositive();
        assertThat(first.sharedListings()).isZero();

        // submitted as long before that listing began: shared, no request
        S3RequestStats queued = new S3RequestStats();
        assertThat(tables.getTable(name, folder, queuedSince, queued).files()).hasSize(1);
        assertThat(queued.listRequests()).isZero();
        assertThat(queued.sharedListings()).isEqualTo(1);

        // a file written, then a query submitted: it lists and sees the file
        store.put("warehouse/telemetry/events/part-1.parquet");
        S3RequestStats later = new S3RequestStats();
        assertThat(tables.getTable(name, folder, Instant.now(), later).files()).hasSize(2);
        assertThat(later.listRequests()).isPositive();
        assertThat(later.sharedListings()).isZero();

        tables.flushListings(name::equals);
        S3RequestStats afterFlush = new S3RequestStats();
        tables.getTable(name, folder, queuedSince, afterFlush);
        assertThat(afterFlush.sharedListings()).isZero();

        LakeTables unshared = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/").setSharedListingMaxAge(new Duration(0, SECONDS)), store, KeyIndexLocations.companionFolder(Optional.empty()));
        unshared.getTable(name, folder, queuedSince, new S3RequestStats());
        S3RequestStats notShared = new S3RequestStats();
        unshared.getTable(name, folder, queuedSince, notShared);
        assertThat(notShared.listRequests()).isPositive();
        assertThat(notShared.sharedListings()).isZero();
    }

    /**
     * Another program's object under {@code _key_index/} whose folder is no encoded column name: skipped and counted,
     * where it used to fail every query on the table with a raw IllegalArgumentException.
     */
    @Test
    void oddObjectsUnderTheKeyIndexFolderAreSkippedAndCounted()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/telemetry/events/part-0.parquet")
                .put("warehouse/telemetry/events/_key_index/device_id/_pointer")
                .put("warehouse/telemetry/events/_key_index/100%/_pointer")
                .put("warehouse/telemetry/events/_key_index/a%zz/_pointer")
                .put("warehouse/telemetry/events/_key_index/a b/_pointer")
                .put("warehouse/telemetry/events/_key_index/k%C3%BCrzel/_pointer");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        S3RequestStats stats = new S3RequestStats();
        SchemaTableName name = new SchemaTableName("telemetry", "events");
        LakeTable table = tables.getTable(name, tables.findTable(name, stats).orElseThrow(), stats);
        KeyIndexPointers pointers = KeyIndexPointers.of(table);
        assertThat(pointers.byColumn()).containsOnlyKeys("device_id", "k\u00fcrzel");
        assertThat(pointers.ignored()).isEqualTo(3);
        assertThat(table.files()).hasSize(1);
    }

    @Test
    void tableLargerThanOneListingPageIsListedInKeyRangesSideBySide()
    {
        InMemoryLake store = new InMemoryLake("lake").withPageSize(10);
        List<String> keys = new ArrayList<>();
        for (int year = 2020; year <= 2025; year++) {
            for (int month = 1; month <= 12; month++) {
                for (int file = 0; file < 3; file++) {
                    keys.add("warehouse/telemetry/events/year=%d/month=%d/part-%d.parquet".formatted(year, month, file));
                }
            }
        }
        keys.add("warehouse/telemetry/events/_temporary/year=2024/month=1/part-9.parquet");
        keys.forEach(store::put);
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("telemetry", "events");
        S3Location location = tables.findTable(name, new S3RequestStats()).orElseThrow();

        S3RequestStats listing = new S3RequestStats();
        LakeTable table = tables.getTable(name, location, listing);
        assertThat(table.files()).extracting(file -> file.object().location().key())
                .containsExactlyElementsOf(keys.stream().filter(key -> !key.contains("_temporary")).sorted().toList());
        // 217 objects, 10 a page. The first page reached 2 of the 7 folders ("_temporary" holds one object, so it
        // guesses 35 objects: 4 ranges), the table's folders (one page), then the 4 ranges side by side, cut at
        // year=2020, year=2022, year=2024: "_temporary" (1 page), 2020-2021, 2022-2023, 2024-2025 (72 keys: 8 pages each)
        assertThat(listing.listRequests()).isEqualTo(1 + 1 + 1 + 3 * 8);
    }

    @Test
    void foldersWhoseNamesContinueBelowTheSlashAreListedOnce()
    {
        // S3 order: eu/ < us-east/ < us-west/ < us/; bounds without their slash (us-east, us-west, us) would not
        // increase, and a range after "us" would list us-east and us-west again
        InMemoryLake store = new InMemoryLake("lake").withPageSize(250);
        List<String> keys = new ArrayList<>();
        for (String region : List.of("eu", "us", "us-east", "us-west")) {
            for (int file = 0; file < 250; file++) {
                keys.add("warehouse/s/t/region=%s/part-%03d.parquet".formatted(region, file));
            }
        }
        keys.forEach(store::put);
        assertThat(listedKeys(store)).containsExactlyElementsOf(sortedInS3Order(keys));
    }

    @Test
    void keyRangesCoverEveryKeyExactlyOnceForAnyFolderNames()
    {
        // names that are prefixes of each other followed by bytes below '/', Hive escapes, non-ASCII and surrogate pairs
        List<String> alphabet = List.of("u", "s", " ", "!", "\"", "#", "$", "%", "%2F", "%3A", "&", "'", "(", ")", "*", "+", ",", "-", ".", "=", "é", "\uD83D\uDE00", "~");
        Random random = new Random(20261204);
        for (int trial = 0; trial < 300; trial++) {
            InMemoryLake store = new InMemoryLake("lake").withPageSize(1 + random.nextInt(12));
            List<String> keys = new ArrayList<>();
            int folders = 1 + random.nextInt(12);
            for (int folder = 0; folder < folders; folder++) {
                StringBuilder name = new StringBuilder("p=");
                for (int length = random.nextInt(1, 5); length > 0; length--) {
                    name.append(alphabet.get(random.nextInt(alphabet.size())));
                }
                for (int file = random.nextInt(0, 25); file > 0; file--) {
                    keys.add("warehouse/s/t/%s/part-%02d.parquet".formatted(name, file));
                }
            }
            for (int file = random.nextInt(0, 3); file > 0; file--) {
                // objects beside the folders (no partition): the layout check must see them, in their place
                keys.add("warehouse/s/t/p=%s/x/part-%d.parquet".formatted(alphabet.get(random.nextInt(alphabet.size())), file));
            }
            if (keys.isEmpty()) {
                continue;
            }
            keys.forEach(store::put);
            List<String> expected = sortedInS3Order(keys);
            int seenTrial = trial;
            // the listing itself, every trial; then the table built from it, unless its layout is refused as a whole
            assertThat(new TableObjectLister(store).list(S3Location.parse("s3://lake/warehouse/s/t/"), new S3RequestStats()))
                    .extracting(object -> object.key())
                    .as("trial %d, folders %s", seenTrial, expected.stream().map(key -> key.substring(0, key.lastIndexOf('/'))).distinct().toList())
                    .containsExactlyElementsOf(expected);
            assertThat(listedKeysOrLayoutError(store)).as("trial %d", seenTrial).isIn(expected, List.of("layout error"));
        }
    }

    @Test
    void unorderedStoreIsListedSeriallyWithoutStartAfter()
    {
        // S3 Express One Zone directory buckets: keys in no order, start-after refused with 400
        InMemoryLake store = new InMemoryLake("lake").withPageSize(7).unordered();
        List<String> keys = new ArrayList<>();
        for (String region : List.of("eu", "us", "us-east", "us-west")) {
            for (int file = 0; file < 20; file++) {
                keys.add("warehouse/s/t/region=%s/part-%03d.parquet".formatted(region, file));
            }
        }
        keys.forEach(store::put);
        S3RequestStats stats = new S3RequestStats();
        assertThat(listedKeys(store, stats)).containsExactlyElementsOf(sortedInS3Order(keys));
        // every page once, by continuation token (80 objects, 7 a page)
        assertThat(stats.listRequests()).isEqualTo(12);
    }

    @Test
    void storeThatRefusesStartAfterOrListsOneKeyAPageIsListedSerially()
    {
        List<String> keys = new ArrayList<>();
        for (String region : List.of("eu", "us", "us-east", "us-west")) {
            for (int file = 0; file < 20; file++) {
                keys.add("warehouse/s/t/region=%s/part-%03d.parquet".formatted(region, file));
            }
        }
        // sorted, but start-after answered with 400: the ranges fail and the table is listed page after page
        InMemoryLake refusing = new InMemoryLake("lake").withPageSize(7).refusingStartAfter();
        keys.forEach(refusing::put);
        assertThat(listedKeys(refusing)).containsExactlyElementsOf(sortedInS3Order(keys));
        // unordered, one key a page: a first page of one key proves no order
        InMemoryLake single = new InMemoryLake("lake").withPageSize(1).unordered();
        keys.forEach(single::put);
        assertThat(listedKeys(single)).containsExactlyElementsOf(sortedInS3Order(keys));
        // a directory bucket is listed serially from the start, with no start-after ever sent
        InMemoryLake directory = new InMemoryLake("lake--use1-az4--x-s3").withPageSize(7).refusingStartAfter();
        keys.forEach(key -> directory.put(key));
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake--use1-az4--x-s3/warehouse/"), directory, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("s", "t");
        S3RequestStats stats = new S3RequestStats();
        assertThat(tables.getTable(name, tables.findTable(name, new S3RequestStats()).orElseThrow(), stats).files())
                .extracting(file -> file.object().location().key())
                .containsExactlyElementsOf(sortedInS3Order(keys));
        assertThat(stats.listRequests()).isEqualTo(12);
    }

    @Test
    void partitionValuesKeepSupplementaryCharactersNextToEscapes()
    {
        assertThat(TableListing.unescape("\uD83D\uDE00%3Ax")).isEqualTo("\uD83D\uDE00:x");
        assertThat(TableListing.unescape("a%2Fb\uD83D\uDE00%25")).isEqualTo("a/b\uD83D\uDE00%");
        assertThat(TableListing.unescape("%C3%A9t\u00E9")).isEqualTo("\u00E9t\u00E9");
        assertThat(TableListing.unescape("100%")).isEqualTo("100%");
        assertThat(TableListing.unescape("%zz%4")).isEqualTo("%zz%4");
    }

    private static List<String> listedKeys(InMemoryLake store)
    {
        return listedKeys(store, new S3RequestStats());
    }

    private static List<String> listedKeys(InMemoryLake store, S3RequestStats stats)
    {
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("s", "t");
        LakeTable table = tables.getTable(name, tables.findTable(name, new S3RequestStats()).orElseThrow(), stats);
        return table.files().stream().map(file -> file.object().location().key()).toList();
    }

    private static List<String> listedKeysOrLayoutError(InMemoryLake store)
    {
        try {
            return listedKeys(store);
        }
        catch (TrinoException e) {
            // files at different partition depths: refused as a whole, never half-listed
            assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_SCHEMA_MISMATCH.toErrorCode());
            return List.of("layout error");
        }
    }

    private static List<String> sortedInS3Order(List<String> keys)
    {
        return keys.stream().distinct().sorted(S3ObjectStore::compareKeys).toList();
    }

    @Test
    void tableWithoutFoldersIsListedPageAfterPage()
    {
        InMemoryLake store = new InMemoryLake("lake").withPageSize(10);
        for (int file = 0; file < 35; file++) {
            store.put("warehouse/telemetry/events/part-%02d.parquet".formatted(file));
        }
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("telemetry", "events");
        S3RequestStats listing = new S3RequestStats();
        LakeTable table = tables.getTable(name, tables.findTable(name, new S3RequestStats()).orElseThrow(), listing);
        assertThat(table.files()).hasSize(35);
        // the first page, then the rest by continuation token: 3 pages
        assertThat(listing.listRequests()).isEqualTo(1 + 3);
    }

    @Test
    void foldersDifferingOnlyInCaseAreAnErrorNamingBoth()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/telemetry/Events/part-0.parquet")
                .put("warehouse/telemetry/events/part-0.parquet");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        assertThatThrownBy(() -> tables.findTable(new SchemaTableName("telemetry", "events"), new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_AMBIGUOUS_LOCATION.toErrorCode()))
                .hasMessageContaining("s3://lake/warehouse/telemetry/Events/")
                .hasMessageContaining("s3://lake/warehouse/telemetry/events/");
    }

    @Test
    void filesWithDifferentPartitionFoldersAreAnError()
    {
        InMemoryLake store = new InMemoryLake("lake")
                .put("warehouse/s/t/region=eu/part-0.parquet")
                .put("warehouse/s/t/year=2026/part-1.parquet");
        LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
        SchemaTableName name = new SchemaTableName("s", "t");
        assertThatThrownBy(() -> tables.getTable(name, tables.findTable(name, new S3RequestStats()).orElseThrow(), new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_SCHEMA_MISMATCH.toErrorCode()))
                .hasMessageContaining("part-1.parquet")
                .hasMessageContaining(List.of("year").toString());
    }
}
