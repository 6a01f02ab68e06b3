package io.parquetbloom.delta;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.type.TypeOperators;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Delta Lake project's own golden tables (written by Spark, copied under {@code src/test/resources/delta-golden/}
 * with their licence), replayed and their deletion vectors decoded: the live rows are those the tables' generator
 * left ({@code GoldenTables.scala}).
 */
final class TestDeltaGoldenTables
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void deletionVectorsOnDiskWithColumnMapping()
            throws Exception
    {
        // 50 rows in 10 partitions, then DELETE WHERE col1 = 0, 2, ..., 28: 15 deleted by vectors, one per DELETE
        Path table = golden("dv-with-columnmapping");
        DeltaSnapshot snapshot = replay(table, OptionalLong.empty());

        assertThat(snapshot.version()).isEqualTo(15);
        assertThat(snapshot.columnMappingMode()).isEqualTo("name");
        assertThat(snapshot.protocol().readerFeatures()).contains("deletionVectors", "columnMapping");
        assertThat(snapshot.metadata().partitionColumns()).containsExactly("part");
        // 20 files written; five lost every row and were removed
        assertThat(snapshot.files()).hasSize(15);
        assertThat(liveRows(table, snapshot)).isEqualTo(35);
        // partition values by physical name
        assertThat(snapshot.files().getFirst().partitionValues()).containsOnlyKeys("col-60c949ca-b8bc-4330-b931-b73fb4c60037");
        // as of the first DELETE: one row gone
        assertThat(liveRows(table, replay(table, OptionalLong.of(1)))).isEqualTo(49);
    }

    @Test
    void columnsByTheirPhysicalNamesUnderColumnMapping()
            throws Exception
    {
        DeltaSnapshot snapshot = replay(golden("dv-with-columnmapping"), OptionalLong.empty());
        List<DataColumn> columns = DeltaSchemas.columns("t", snapshot, new TypeOperators());

        assertThat(columns).extracting(DataColumn::name).containsExactly("part", "col1", "col2");
        assertThat(columns).extracting(DataColumn::type).containsExactly(INTEGER, INTEGER, VARCHAR);
        // name mode: matched by physical name, which the partition values use too
        assertThat(columns).allSatisfy(column -> {
            assertThat(column.fieldId()).isEmpty();
            assertThat(DeltaSchemas.physicalName(column)).startsWith("col-");
        });
        assertThat(snapshot.files().getFirst().partitionValues()).containsOnlyKeys(DeltaSchemas.physicalName(columns.getFirst()));
        // without column mapping, by name as the schema spells it (files, partition values and statistics do)
        assertThat(DeltaSchemas.columns("t", replay(golden("log-replay-dv-key-cases"), OptionalLong.empty()), new TypeOperators()))
                .singleElement()
                .satisfies(column -> {
                    assertThat(column.name()).isEqualTo("id");
                    assertThat(column.type()).isEqualTo(BIGINT);
                    assertThat(column.mappedNames()).contains(List.of("id"));
                });
    }

    @Test
    void addsAndRemovesReconciledOnPathAndDeletionVector()
            throws Exception
    {
        // 50 rows in one file, then DELETE WHERE id = 0, 7, 14: each replaces the file's vector with a larger one
        Path table = golden("log-replay-dv-key-cases");
        DeltaSnapshot snapshot = replay(table, OptionalLong.empty());

        assertThat(snapshot.files()).singleElement().satisfies(file -> assertThat(file.deletionVector().orElseThrow().cardinality()).isEqualTo(3));
        assertThat(liveRows(table, snapshot)).isEqualTo(47);
        for (int version = 0; version <= 3; version++) {
            assertThat(liveRows(table, replay(table, OptionalLong.of(version)))).isEqualTo(50 - version);
        }
    }

    @Test
    void aDamagedVectorFailsNamingIt()
            throws Exception
    {
        Path table = golden("log-replay-dv-key-cases");
        DeltaAction.Add file = replay(table, OptionalLong.empty()).files().getFirst();
        DeltaAction.DeletionVector vector = file.deletionVector().orElseThrow();
        byte[] stored = storedBytes(table, vector);
        stored[10] ^= 1;

        assertThatThrownBy(() -> DeltaDeletionVectors.fromFile(vector, file.path(), stored))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("of " + file.path() + " is damaged: its checksum does not match");
        DeltaAction.DeletionVector lying = new DeltaAction.DeletionVector(vector.storageType(), vector.pathOrInlineDv(), vector.offset(), vector.sizeInBytes(), 4);
        assertThatThrownBy(() -> DeltaDeletionVectors.fromFile(lying, file.path(), storedBytes(table, vector)))
                .hasMessageContaining("it deletes 3 rows where the log says 4");
    }

    @Test
    void aCheckpointInParquetReplaysAsItsCommits()
            throws Exception
    {
        Path table = golden("dv-with-columnmapping");
        DeltaSnapshot fromCommits = replay(table, OptionalLong.empty());
        DeltaSnapshot fromCheckpoint = read(table, OptionalLong.empty());

        assertThat(fromCheckpoint.version()).isEqualTo(15);
        assertThat(fromCheckpoint.files()).extracting(DeltaAction.Add::key).containsExactlyInAnyOrderElementsOf(fromCommits.files().stream().map(DeltaAction.Add::key).toList());
        assertThat(fromCheckpoint.metadata()).isEqualTo(fromCommits.metadata());
        assertThat(fromCheckpoint.protocol().readerFeatures()).containsExactlyInAnyOrderElementsOf(fromCommits.protocol().readerFeatures());
        assertThat(liveRows(table, fromCheckpoint)).isEqualTo(35);
        // as of the checkpoint's own version (ten DELETEs), the checkpoint alone
        assertThat(liveRows(table, read(table, OptionalLong.of(10)))).isEqualTo(40);
        assertThat(liveRows(table, replay(table, OptionalLong.of(10)))).isEqualTo(40);
    }

    @Test
    void aMultiPartCheckpoint()
            throws Exception
    {
        // range(1), then range(30) appended in 9 files; a checkpoint of version 1 in two parts
        Path table = golden("multi-part-checkpoint");
        DeltaSnapshot snapshot = read(table, OptionalLong.empty());

        assertThat(snapshot.version()).isEqualTo(1);
        assertThat(snapshot.files()).hasSize(10);
        assertThat(liveRows(table, snapshot)).isEqualTo(31);
    }

    @Test
    void aV2CheckpointWithSidecars()
            throws Exception
    {
        // range(10) in 4 files; a v2 checkpoint of version 2, in JSON or Parquet, its adds in two sidecars
        for (String name : List.of("v2-checkpoint-json", "v2-checkpoint-parquet")) {
            Path table = golden(name);
            DeltaSnapshot snapshot = read(table, OptionalLong.empty());

            assertThat(snapshot.version()).as(name).isEqualTo(2);
            assertThat(snapshot.protocol().readerFeatures()).as(name).contains("v2Checkpoint");
            assertThat(snapshot.files()).as(name).hasSize(4);
            assertThat(liveRows(table, snapshot)).as(name).isEqualTo(10);
            assertThat(liveRows(table, replay(table, OptionalLong.empty()))).as(name).isEqualTo(10);
        }
    }

    @Test
    void aDamagedCheckpointFailsNamingIt()
    {
        assertThatThrownBy(() -> DeltaCheckpointReader.read("_delta_log/00000000000000000010.checkpoint.parquet", new byte[] {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', '1'}))
                .isInstanceOf(TrinoException.class)
                .hasMessageStartingWith("Delta Lake checkpoint _delta_log/00000000000000000010.checkpoint.parquet cannot be read");
    }

    /**
     * As a table is read: the newest checkpoint and the commits after it.
     */
    private static DeltaSnapshot read(Path table, OptionalLong version)
            throws IOException
    {
        Path log = table.resolve("_delta_log");
        List<String> names;
        try (Stream<Path> files = Files.list(log)) {
            names = files.filter(Files::isRegularFile).map(path -> path.getFileName().toString()).toList();
        }
        return DeltaLogReader.read(table.toString(), names, version, name -> read(log.resolve(name)));
    }

    private static long liveRows(Path table, DeltaSnapshot snapshot)
            throws IOException
    {
        long rows = 0;
        for (DeltaAction.Add file : snapshot.files()) {
            long records = MAPPER.readTree(file.stats().orElseThrow()).get("numRecords").asLong();
            if (file.deletionVector().isEmpty()) {
                rows += records;
                continue;
            }
            DeltaAction.DeletionVector vector = file.deletionVector().get();
            LongPredicate deleted = vector.storageType().equals("i")
                    ? DeltaDeletionVectors.inline(vector, file.path())
                    : DeltaDeletionVectors.fromFile(vector, file.path(), storedBytes(table, vector));
            rows += LongStream.range(0, records).filter(position -> !deleted.test(position)).count();
        }
        return rows;
    }

    private static byte[] storedBytes(Path table, DeltaAction.DeletionVector vector)
            throws IOException
    {
        byte[] whole = Files.readAllBytes(table.resolve(DeltaDeletionVectors.file(vector).orElseThrow()));
        int offset = (int) vector.offset().orElseThrow();
        return Arrays.copyOfRange(whole, offset, offset + (int) DeltaDeletionVectors.stored(vector));
    }

    private static DeltaSnapshot replay(Path table, OptionalLong version)
            throws IOException
    {
        Path log = table.resolve("_delta_log");
        List<String> names;
        try (Stream<Path> files = Files.list(log)) {
            names = files.map(path -> path.getFileName().toString()).toList();
        }
        // the JSON commits only: every commit of these tables is still in the log
        List<String> commits = names.stream().filter(name -> name.matches("\\d{20}\\.json")).toList();
        DeltaLogSegment segment = DeltaLogSegment.of(table.toString(), commits, version);
        DeltaLogReplay replay = new DeltaLogReplay(table.toString());
        for (DeltaLogSegment.Commit commit : segment.commits()) {
            replay.commit(commit.version(), DeltaLogParser.parse(commit.file(), read(log.resolve(commit.file()))));
        }
        return replay.snapshot();
    }

    private static byte[] read(Path file)
    {
        try {
            return Files.readAllBytes(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path golden(String name)
            throws URISyntaxException
    {
        return Path.of(TestDeltaGoldenTables.class.getResource("/delta-golden/" + name).toURI());
    }
}
