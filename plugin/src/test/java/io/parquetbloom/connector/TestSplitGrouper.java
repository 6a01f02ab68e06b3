package io.parquetbloom.connector;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.json.ObjectMapperProvider;
import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.connector.ConnectorSplit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

final class TestSplitGrouper
{
    private static final List<Node> WORKERS = List.of(worker("a", 8081), worker("b", 8082), worker("c", 8083));

    @Test
    void groupsSmallSplitsPerWorkerAndKeepsEveryOneOnce()
    {
        List<ConnectorSplit> batch = splits(100, 1 << 20);
        List<ConnectorSplit> grouped = new SplitGrouper(WORKERS, 4).group(batch);

        List<ParquetBloomSplit> members = new ArrayList<>();
        for (ConnectorSplit split : grouped) {
            ParquetBloomSplitGroup group = (ParquetBloomSplitGroup) split;
            assertThat(group.splits()).hasSizeBetween(1, SplitGrouper.MAX_GROUP_SPLITS);
            HostAddress worker = group.getAddresses().getFirst();
            // every member is sent where the path alone would send it
            group.splits().forEach(member -> assertThat(new SplitGrouper(WORKERS, 4).workerOf(member.path()).getHostAndPort()).isEqualTo(worker));
            members.addAll(group.splits());
        }
        assertThat(members).containsExactlyInAnyOrderElementsOf(batch.stream().map(ParquetBloomSplit.class::cast).toList());
        // 100 files over 3 workers, at most 8 per group
        assertThat(grouped.size()).isBetween(13, 20);
    }

    @Test
    void aWorkerGivenFewFilesReadsThemInParallelGroups()
    {
        List<ConnectorSplit> batch = splits(3, 1 << 20);
        List<Node> oneWorker = List.of(worker("a", 8081));

        assertThat(new SplitGrouper(oneWorker, 4).group(batch))
                .hasSize(3)
                .allSatisfy(split -> assertThat(((ParquetBloomSplitGroup) split).splits()).hasSize(1));
        assertThat(new SplitGrouper(oneWorker, 1).group(batch))
                .singleElement()
                .satisfies(split -> assertThat(((ParquetBloomSplitGroup) split).splits()).hasSize(3));
    }

    @Test
    void largeSplitsPassThrough()
    {
        List<ConnectorSplit> batch = new ArrayList<>(splits(2, SplitGrouper.SMALL_SPLIT_BYTES + 1));
        batch.addAll(splits(2, 1024));

        List<ConnectorSplit> grouped = new SplitGrouper(List.of(worker("a", 8081)), 1).group(batch);

        assertThat(grouped).hasSize(3);
        assertThat(grouped.subList(0, 2)).containsExactlyElementsOf(batch.subList(0, 2));
        assertThat(((ParquetBloomSplitGroup) grouped.get(2)).splits()).containsExactlyElementsOf(batch.subList(2, 4).stream().map(ParquetBloomSplit.class::cast).toList());
    }

    @Test
    void withoutWorkersNothingIsGrouped()
    {
        List<ConnectorSplit> batch = splits(10, 1024);
        assertThat(new SplitGrouper(List.of(), 4).group(batch)).isEqualTo(batch);
    }

    @Test
    void aWorkerLeavingMovesOnlyItsFiles()
    {
        SplitGrouper three = new SplitGrouper(WORKERS, 4);
        SplitGrouper two = new SplitGrouper(WORKERS.subList(0, 2), 4);
        Map<String, Integer> moved = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            String path = "s3://bucket/table/file-%d.parquet".formatted(i);
            Node before = three.workerOf(path);
            if (!before.equals(WORKERS.get(2))) {
                assertThat(two.workerOf(path)).isEqualTo(before);
            }
            moved.merge(before.getNodeIdentifier(), 1, Integer::sum);
        }
        // and the files spread over all workers
        assertThat(moved).containsOnlyKeys("a", "b", "c").allSatisfy((_, count) -> assertThat(count).isGreaterThan(60));
    }

    @Test
    void aGroupTravelsToWorkersAsJson()
            throws Exception
    {
        ParquetBloomSplit member = new ParquetBloomSplit("s3://bucket/table/a.parquet", 100, "etag", 0, 100, Map.of("year", Optional.of("2026")), Optional.of(List.of(0, 2)), 7);
        ParquetBloomSplitGroup group = new ParquetBloomSplitGroup(List.of(member, (ParquetBloomSplit) splits(1, 10).getFirst()), List.of(HostAddress.fromParts("10.0.0.1", 8080)));
        ObjectMapper mapper = new ObjectMapperProvider().get();

        assertThat(mapper.readValue(mapper.writeValueAsString(group), ParquetBloomSplitGroup.class)).isEqualTo(group);
    }

    private static List<ConnectorSplit> splits(int count, long length)
    {
        return IntStream.range(0, count)
                .mapToObj(i -> (ConnectorSplit) new ParquetBloomSplit("s3://bucket/table/%d-%d.parquet".formatted(length, i), length, "etag", 0, length, Map.of(), Optional.empty(), 0))
                .toList();
    }

    private static Node worker(String id, int port)
    {
        return new Node()
        {
            @Override
            public String getHost()
            {
                return "127.0.0.1";
            }

            @Override
            public HostAddress getHostAndPort()
            {
                return HostAddress.fromParts("127.0.0.1", port);
            }

            @Override
            public String getNodeIdentifier()
            {
                return id;
            }

            @Override
            public String getVersion()
            {
                return "483";
            }

            @Override
            public boolean isCoordinator()
            {
                return false;
            }
        };
    }
}
