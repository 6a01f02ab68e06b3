package io.parquetbloom.tests;

import io.airlift.slice.Slices;
import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.s3.S3Config;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.s3.S3Stats;
import io.parquetbloom.table.LakeConfig;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.TableShape;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TestingS3;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table larger than one listing page, listed through a real S3 API (S3Proxy, which pages at 1,000 keys and honours
 * {@code start-after}): key ranges listed side by side return every object exactly once, in key order.
 */
final class TestLakeListing
{
    // only listed, never read; an empty object would hold no rows and is not a data file
    private static final byte[] NOT_EMPTY = {1};

    @Test
    void tableOfManyFoldersIsListedCompletelyInFewRoundTrips()
            throws Exception
    {
        try (TestingS3 s3 = TestingS3.start("listing");
                S3Client client = s3.client()) {
            List<String> keys = new ArrayList<>();
            for (int day = 0; day < 23; day++) {
                for (int file = 0; file < 100; file++) {
                    keys.add("warehouse/telemetry/events/day=2025-01-%02d/part-%03d.parquet".formatted(day + 1, file));
                }
            }
            for (String key : keys) {
                client.putObject(request -> request.bucket("lake").key(key), RequestBody.fromBytes(NOT_EMPTY));
            }

            LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), new S3ObjectStore(client), KeyIndexLocations.companionFolder(Optional.empty()));
            SchemaTableName name = new SchemaTableName("telemetry", "events");
            S3Location location = tables.findTable(name, new S3RequestStats()).orElseThrow();
            S3RequestStats stats = new S3RequestStats();
            LakeTable table = tables.getTable(name, location, stats);

            assertThat(table.files()).extracting(file -> file.object().location().key()).containsExactlyElementsOf(keys);
            // the first page (it reached 10 of 23 folders: about 2,300 objects, 3 ranges), the table's folders, then
            // three ranges of 700, 800 and 800 keys side by side, one page each; page after page it would be 3 in a row
            assertThat(stats.listRequests()).isEqualTo(5);
        }
    }

    @Test
    void foldersWhoseNamesArePrefixesOfEachOtherAreListedOnceOverManyPages()
            throws Exception
    {
        try (TestingS3 s3 = TestingS3.start("listing");
                S3Client client = s3.client()) {
            // S3 order: eu/ < us x/ < us%2Fx/ < us-east/ < us-west/ < us.1/ < us/ < \uD83D\uDE00%3Ax/. The first page
            // (1,000 keys, all of eu/) guesses four ranges; cut without the slash (us-east, us-west, us) the cuts do
            // not increase and the last range lists us-east and us-west again
            Map<String, Integer> folders = new LinkedHashMap<>();
            folders.put("eu", 1000);
            List.of("us", "us-east", "us-west").forEach(region -> folders.put(region, 250));
            List.of("us x", "us.1", "us%2Fx", "\uD83D\uDE00%3Ax").forEach(region -> folders.put(region, 20));
            List<String> keys = new ArrayList<>();
            folders.forEach((region, files) -> {
                for (int file = 0; file < files; file++) {
                    keys.add("warehouse/telemetry/events/region=%s/part-%04d.parquet".formatted(region, file));
                }
            });
            TestingLake.uploadAll(client, "lake", keys, NOT_EMPTY);
            List<String> expected = keys.stream().sorted(S3ObjectStore::compareKeys).toList();
            // the store holds exactly these keys (a plain listing, page after page), so any difference below is ours
            List<String> stored = client.listObjectsV2Paginator(request -> request.bucket("lake").prefix("warehouse/telemetry/events/")).contents().stream()
                    .map(object -> object.key())
                    .toList();
            assertThat(stored).containsExactlyElementsOf(expected);
            for (int pageSize : List.of(1000, 70)) {
                S3ObjectStore store = new S3ObjectStore(client, new S3Config().setListPageSize(pageSize), new S3Stats());
                LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
                SchemaTableName name = new SchemaTableName("telemetry", "events");
                LakeTable table = tables.getTable(name, tables.findTable(name, new S3RequestStats()).orElseThrow(), new S3RequestStats());
                assertThat(table.files()).as("page size %d", pageSize).extracting(file -> file.object().location().key()).containsExactlyElementsOf(expected);
                assertThat(table.files()).extracting(file -> file.partitionValues().values().iterator().next().orElseThrow()).contains("us/x", "\uD83D\uDE00:x", "us x", "us.1");
            }
        }
    }

    @Test
    void predicateOnPartitionsListsOnlyTheFoldersItSelects()
            throws Exception
    {
        try (TestingS3 s3 = TestingS3.start("listing");
                S3Client client = s3.client()) {
            // 3 days x 24 hours x 5 files, a day of odd folders beside them: a default partition, an escaped value, a
            // value that is no integer, a hidden folder and the key index's companion folder
            List<String> keys = new ArrayList<>();
            for (int day = 1; day <= 3; day++) {
                for (int hour = 0; hour < 24; hour++) {
                    for (int file = 0; file < 5; file++) {
                        keys.add("warehouse/telemetry/events/day=2026-03-%02d/hour=%d/part-%d.parquet".formatted(day, hour, file));
                    }
                }
            }
            List<String> odd = List.of(
                    "warehouse/telemetry/events/day=2026-03-02/hour=__HIVE_DEFAULT_PARTITION__/part-0.parquet",
                    "warehouse/telemetry/events/day=2026-03-02/hour=0x07/part-0.parquet",
                    "warehouse/telemetry/events/day=2026-03-02/.hour=7/part-0.parquet",
                    "warehouse/telemetry/events/_key_index/pointer");
            TestingLake.uploadAll(client, "lake", keys, NOT_EMPTY);
            TestingLake.uploadAll(client, "lake", odd, NOT_EMPTY);
            for (int pageSize : List.of(1000, 7)) {
                S3ObjectStore store = new S3ObjectStore(client, new S3Config().setListPageSize(pageSize), new S3Stats());
                LakeTables tables = new LakeTables(new LakeConfig().setLocation("s3://lake/warehouse/"), store, KeyIndexLocations.companionFolder(Optional.empty()));
                SchemaTableName name = new SchemaTableName("telemetry", "events");
                S3Location location = tables.findTable(name, new S3RequestStats()).orElseThrow();
                // the shape, from a listing of every file: hour is a varchar (0x07 is no integer), day a date
                LakeTable whole = tables.getTable(name, location, new S3RequestStats());
                assertThat(whole.partitionColumns()).containsExactly(new PartitionColumn("day", DATE), new PartitionColumn("hour", VARCHAR));
                // as if the table were too large to list whole for less: the walk itself is measured
                TableShape shape = new TableShape(List.of(), whole.partitionColumns(), 1_000_000);

                // one day, one hour: the table's days, that day's hours, that hour's files, and the companion folder
                S3RequestStats stats = new S3RequestStats();
                LakeTable hour = tables.listPartitions(name, location, shape,
                        Map.of("day", Domain.singleValue(DATE, LocalDate.of(2026, 3, 2).toEpochDay()), "hour", Domain.singleValue(VARCHAR, Slices.utf8Slice("7"))), stats);
                assertThat(hour.files()).extracting(file -> file.object().location().key())
                        .containsExactlyInAnyOrderElementsOf(keys.stream().filter(key -> key.contains("day=2026-03-02/hour=7/")).toList());
                assertThat(hour.partitionColumns()).isEqualTo(whole.partitionColumns());
                assertThat(hour.companionObjects()).extracting(ListedObject::key).containsExactly("warehouse/telemetry/events/_key_index/pointer");
                assertThat(stats.listRequests()).as("page size %d", pageSize).isEqualTo(pageSize == 1000 ? 4 : 1 + 4 + 1 + 1);

                // one day: its hours listed flat; the default partition and the odd value are that day's rows too
                stats = new S3RequestStats();
                LakeTable day = tables.listPartitions(name, location, shape, Map.of("day", Domain.singleValue(DATE, LocalDate.of(2026, 3, 2).toEpochDay())), stats);
                assertThat(day.files()).extracting(file -> file.object().location().key())
                        .containsExactlyInAnyOrderElementsOf(whole.files().stream().map(file -> file.object().location().key()).filter(key -> key.contains("day=2026-03-02/")).toList());
                assertThat(day.files()).hasSize(24 * 5 + 2);
                // at 7 keys a page: the days (1), then the day as any table of many pages is listed (its first page, its 27
                // folders in 4 pages, eight key ranges side by side in 23 pages), and the companion folder (1)
                assertThat(stats.listRequests()).as("page size %d", pageSize).isEqualTo(pageSize == 1000 ? 3 : 30);

                // NULL hours of a day; and NULL hours of any day: every day is entered, and only its NULL hours listed
                LakeTable nullHours = tables.listPartitions(name, location, shape,
                        Map.of("day", Domain.singleValue(DATE, LocalDate.of(2026, 3, 2).toEpochDay()), "hour", Domain.onlyNull(VARCHAR)), new S3RequestStats());
                assertThat(nullHours.files()).extracting(file -> file.object().location().key()).containsExactly(odd.getFirst());
                LakeTable anyDay = tables.listPartitions(name, location, shape, Map.of("hour", Domain.onlyNull(VARCHAR)), new S3RequestStats());
                assertThat(anyDay.files()).extracting(file -> file.object().location().key()).containsExactly(odd.getFirst());
                LakeTable twoDays = tables.listPartitions(name, location, shape,
                        Map.of("day", Domain.create(ValueSet.ofRanges(Range.greaterThanOrEqual(DATE, LocalDate.of(2026, 3, 2).toEpochDay())), false)), new S3RequestStats());
                assertThat(twoDays.files()).hasSize(2 * 24 * 5 + 2);

                // with the table's own size, a walk that would cost more LIST requests than its whole listing lists it
                // whole (at 1,000 keys a page the table is one page; at 7, 52 pages against 7 requests of the walk)
                stats = new S3RequestStats();
                TableShape actual = new TableShape(List.of(), whole.partitionColumns(), whole.files().size());
                LakeTable hourAgain = tables.listPartitions(name, location, actual,
                        Map.of("day", Domain.singleValue(DATE, LocalDate.of(2026, 3, 2).toEpochDay()), "hour", Domain.singleValue(VARCHAR, Slices.utf8Slice("7"))), stats);
                assertThat(stats.partitionListingFallbacks()).as("page size %d", pageSize).isEqualTo(pageSize == 1000 ? 1 : 0);
                assertThat(hourAgain.files().size()).isEqualTo(pageSize == 1000 ? whole.files().size() : 5);
            }
        }
    }
}
