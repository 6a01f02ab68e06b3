package io.parquetbloom.delta;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.spi.TrinoException;
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
        List<String> commits = names.stream().filter(name -> name.endsWith(".json")).toList();
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
