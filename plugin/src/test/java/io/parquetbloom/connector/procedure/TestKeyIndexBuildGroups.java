package io.parquetbloom.connector.procedure;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.table.LakeFile;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

final class TestKeyIndexBuildGroups
{
    @Test
    void everyFileIsReadOnceInGroupsOfAboutEqualBytes()
    {
        SplittableRandom random = new SplittableRandom(53);
        List<LakeFile> files = IntStream.range(0, 1_200).mapToObj(i -> file(i, 1_000_000 + random.nextInt(200_000_000))).toList();
        List<List<LakeFile>> groups = KeyIndexTableProcedures.groups(files, 7);
        assertThat(groups).hasSize(7);
        Set<String> seen = new HashSet<>();
        groups.forEach(group -> group.forEach(file -> assertThat(seen.add(file.relativePath())).as(file.relativePath()).isTrue()));
        assertThat(seen).hasSize(files.size());
        long[] bytes = groups.stream().mapToLong(group -> group.stream().mapToLong(file -> file.object().size()).sum()).toArray();
        long largestFile = files.stream().mapToLong(file -> file.object().size()).max().orElseThrow();
        // the greedy split leaves groups at most one file apart
        assertThat(Arrays.stream(bytes).max().orElseThrow() - Arrays.stream(bytes).min().orElseThrow()).isLessThanOrEqualTo(largestFile);
    }

    @Test
    void noMoreGroupsThanFiles()
    {
        assertThat(KeyIndexTableProcedures.groups(List.of(file(0, 10), file(1, 20)), 8)).hasSize(2).allSatisfy(group -> assertThat(group).hasSize(1));
        assertThat(KeyIndexTableProcedures.groups(List.of(), 8)).isEmpty();
    }

    private static LakeFile file(int i, long size)
    {
        return new LakeFile(new S3ObjectInfo(S3Location.parse("s3://lake/t/part-%05d.parquet".formatted(i)), size, "etag-" + i), "part-%05d.parquet".formatted(i), Map.of(), Instant.EPOCH, List.of());
    }
}
