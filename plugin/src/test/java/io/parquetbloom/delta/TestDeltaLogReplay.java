package io.parquetbloom.delta;

import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

final class TestDeltaLogReplay
{
    private static final String PROTOCOL = "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\",\"columnMapping\"],\"writerFeatures\":[\"deletionVectors\",\"columnMapping\"]}}";
    private static final String METADATA = "{\"metaData\":{\"id\":\"t-1\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[]}\",\"partitionColumns\":[\"region\"],\"configuration\":{\"delta.columnMapping.mode\":\"name\"},\"createdTime\":1700000000000}}";

    @Test
    void theLiveFilesAreTheLatestAddOfEachPathAndDeletionVector()
    {
        DeltaSnapshot snapshot = new DeltaLogReplay("s3://lake/t/")
                .commit(0, parse(PROTOCOL, METADATA, add("a.parquet", "eu"), add("b.parquet", "us"), commitInfo(1000)))
                .commit(1, parse(remove("a.parquet"), add("c.parquet", null), commitInfo(2000)))
                // a deletion vector added to b: removed without one, re-added with one
                .commit(2, parse(remove("b.parquet"), addWithVector("b.parquet", "u", "ab^-aqEH.-t@S}K{vb[*k^", 1), commitInfo(3000)))
                // a re-added path
                .commit(3, parse(add("a.parquet", "eu"), commitInfo(4000)))
                .snapshot();

        assertThat(snapshot.version()).isEqualTo(3);
        assertThat(snapshot.committedAt()).hasValue(4000);
        assertThat(snapshot.columnMappingMode()).isEqualTo("name");
        assertThat(snapshot.metadata().partitionColumns()).containsExactly("region");
        assertThat(snapshot.files()).extracting(DeltaAction.Add::path).containsExactlyInAnyOrder("a.parquet", "b.parquet", "c.parquet");
        DeltaAction.Add b = snapshot.files().stream().filter(file -> file.path().equals("b.parquet")).findFirst().orElseThrow();
        assertThat(b.deletionVector()).hasValueSatisfying(vector -> {
            assertThat(vector.storageType()).isEqualTo("u");
            assertThat(vector.cardinality()).isEqualTo(1);
            assertThat(vector.offset()).hasValue(1);
        });
        DeltaAction.Add c = snapshot.files().stream().filter(file -> file.path().equals("c.parquet")).findFirst().orElseThrow();
        assertThat(c.partitionValues()).containsEntry("region", Optional.empty());
        assertThat(c.stats()).hasValue("{\"numRecords\":10}");
    }

    @Test
    void aRemoveOfAnotherDeletionVectorLeavesTheFileLive()
    {
        DeltaSnapshot snapshot = new DeltaLogReplay("t")
                .commit(0, parse(PROTOCOL, METADATA, addWithVector("a.parquet", "i", "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 2)))
                .commit(1, parse(remove("a.parquet")))
                .snapshot();

        assertThat(snapshot.files()).extracting(DeltaAction.Add::path).containsExactly("a.parquet");
    }

    @Test
    void aCheckpointStartsTheReplayAndCommitsFollowIt()
    {
        DeltaSnapshot snapshot = new DeltaLogReplay("t")
                .checkpoint(10, parse(PROTOCOL, METADATA, add("a.parquet", "eu"), add("b.parquet", "eu")))
                .commit(11, parse(remove("a.parquet")))
                .snapshot();

        assertThat(snapshot.version()).isEqualTo(11);
        assertThat(snapshot.files()).extracting(DeltaAction.Add::path).containsExactly("b.parquet");
        assertThatThrownBy(() -> new DeltaLogReplay("t").checkpoint(10, parse(PROTOCOL, METADATA)).commit(12, parse(remove("a.parquet"))))
                .isInstanceOf(TrinoException.class)
                .hasMessage("Delta Lake table t: its log has no commit 11 between 10 and 12");
    }

    @Test
    void aReaderFeatureNotImplementedFailsNamingIt()
    {
        String protocol = "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\",\"catalogManaged\",\"collations\"]}}";
        assertThatThrownBy(() -> new DeltaLogReplay("s3://lake/t/").commit(0, parse(protocol, METADATA)).snapshot())
                .isInstanceOf(TrinoException.class)
                .hasMessage("Delta Lake table s3://lake/t/ uses reader features this connector does not implement: catalogManaged, collations");
        String future = "{\"protocol\":{\"minReaderVersion\":4,\"minWriterVersion\":7}}";
        assertThatThrownBy(() -> new DeltaLogReplay("t").commit(0, parse(future, METADATA)).snapshot())
                .hasMessage("Delta Lake table t needs reader version 4; this connector reads versions 1 to 3");
        // version 1 and 2 tables have no reader features
        assertThat(new DeltaLogReplay("t").commit(0, parse("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}", METADATA)).snapshot().protocol().minReaderVersion()).isEqualTo(1);
    }

    @Test
    void aDamagedLineFailsNamingTheFileAndLine()
    {
        assertThatThrownBy(() -> DeltaLogParser.parse("_delta_log/00000000000000000003.json", (PROTOCOL + "\n{\"add\":{\"path\":\"a\"").getBytes(UTF_8)))
                .isInstanceOf(TrinoException.class)
                .hasMessageStartingWith("Delta Lake log file _delta_log/00000000000000000003.json, line 2, cannot be read");
        assertThatThrownBy(() -> DeltaLogParser.parse("c.json", "{\"add\":{\"path\":\"a\",\"dataChange\":true}}".getBytes(UTF_8)))
                .hasMessageContaining("required field 'size'");
        // actions that change no file's liveness are skipped
        assertThat(DeltaLogParser.parse("c.json", "{\"txn\":{\"appId\":\"x\",\"version\":3}}\n\n{\"domainMetadata\":{\"domain\":\"d\"}}".getBytes(UTF_8))).isEmpty();
    }

    @Test
    void aLogWithoutProtocolOrMetadataIsRefused()
    {
        assertThatThrownBy(() -> new DeltaLogReplay("t").commit(0, parse(METADATA)).snapshot())
                .hasMessage("Delta Lake table t: its log as of version 0 has no protocol action");
        assertThatThrownBy(() -> new DeltaLogReplay("t").snapshot())
                .hasMessage("Delta Lake table t has no commit in its log");
    }

    @Test
    void theSegmentIsTheNewestCompleteCheckpointAndTheCommitsAfterIt()
    {
        List<String> names = List.of(
                "00000000000000000000.json", "00000000000000000001.json", "00000000000000000002.json", "00000000000000000003.json",
                "00000000000000000004.json", "00000000000000000005.json", "00000000000000000006.json",
                "00000000000000000002.checkpoint.parquet",
                // a multi-part checkpoint of version 4, complete
                "00000000000000000004.checkpoint.0000000001.0000000002.parquet", "00000000000000000004.checkpoint.0000000002.0000000002.parquet",
                // one of version 5 missing a part
                "00000000000000000005.checkpoint.0000000001.0000000002.parquet",
                "_last_checkpoint", "00000000000000000003.crc");

        DeltaLogSegment newest = DeltaLogSegment.of("t", names, OptionalLong.empty());
        assertThat(newest.version()).isEqualTo(6);
        assertThat(newest.checkpoint().orElseThrow().files()).containsExactly("00000000000000000004.checkpoint.0000000001.0000000002.parquet", "00000000000000000004.checkpoint.0000000002.0000000002.parquet");
        assertThat(newest.commits()).extracting(DeltaLogSegment.Commit::version).containsExactly(5L, 6L);

        DeltaLogSegment three = DeltaLogSegment.of("t", names, OptionalLong.of(3));
        assertThat(three.checkpoint().orElseThrow().files()).containsExactly("00000000000000000002.checkpoint.parquet");
        assertThat(three.commits()).extracting(DeltaLogSegment.Commit::version).containsExactly(3L);

        DeltaLogSegment one = DeltaLogSegment.of("t", names, OptionalLong.of(1));
        assertThat(one.checkpoint()).isEmpty();
        assertThat(one.commits()).extracting(DeltaLogSegment.Commit::version).containsExactly(0L, 1L);

        // a v2 checkpoint, and commits before it cleaned up
        DeltaLogSegment v2 = DeltaLogSegment.of("t", List.of("00000000000000000007.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json", "00000000000000000008.json"), OptionalLong.empty());
        assertThat(v2.checkpoint().orElseThrow().version()).isEqualTo(7);
        assertThat(v2.commits()).extracting(DeltaLogSegment.Commit::version).containsExactly(8L);
        assertThatThrownBy(() -> DeltaLogSegment.of("t", List.of("00000000000000000008.json"), OptionalLong.empty()))
                .isInstanceOf(TrinoException.class)
                .hasMessage("Delta Lake table t: its log has no commit 0 (version 8, and no checkpoint before it)");
    }

    private static List<DeltaAction> parse(String... lines)
    {
        return DeltaLogParser.parse("test.json", String.join("\n", lines).getBytes(UTF_8));
    }

    private static String add(String path, String region)
    {
        String value = region == null ? "null" : "\"" + region + "\"";
        return "{\"add\":{\"path\":\"%s\",\"partitionValues\":{\"region\":%s},\"size\":100,\"modificationTime\":1,\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":10}\"}}".formatted(path, value);
    }

    private static String addWithVector(String path, String storageType, String pathOrInline, long cardinality)
    {
        String offset = storageType.equals("i") ? "" : ",\"offset\":1";
        return "{\"add\":{\"path\":\"%s\",\"partitionValues\":{},\"size\":100,\"modificationTime\":1,\"dataChange\":true,\"deletionVector\":{\"storageType\":\"%s\",\"pathOrInlineDv\":\"%s\"%s,\"sizeInBytes\":36,\"cardinality\":%d}}}"
                .formatted(path, storageType, pathOrInline, offset, cardinality);
    }

    private static String remove(String path)
    {
        return "{\"remove\":{\"path\":\"%s\",\"deletionTimestamp\":5,\"dataChange\":true}}".formatted(path);
    }

    private static String commitInfo(long timestamp)
    {
        return "{\"commitInfo\":{\"timestamp\":%d,\"operation\":\"WRITE\"}}".formatted(timestamp);
    }
}
