package io.parquetbloom.connector;

import io.airlift.slice.Slices;
import io.airlift.slice.XxHash64;
import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.connector.ConnectorSplit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.lang.Math.ceilDiv;
import static java.util.Objects.requireNonNull;

/**
 * Groups the splits of a batch that read little into {@link ParquetBloomSplitGroup}s. Trino runs a few leaf drivers per
 * core and a driver waits for each GET it makes, so a table of many small files is read at two or three GETs in flight
 * on a small worker, whatever the connector: S3's latency, not bytes or CPU, sets the pace (an IN list over 1,200 files
 * of 1 MB took as long as 1,200 GETs at about 2.5 in flight, in our reader and in Trino's Iceberg connector alike). A
 * group's reader opens its next files while it reads one, so each driver keeps several GETs in flight.
 * <p>
 * Each small split goes to one worker chosen by its file's path (rendezvous hashing over the workers), in a group with
 * that worker's other files of the batch: a file is read on the same worker in every query and finds its metadata cached
 * there, as an ungrouped split's affinity key sends it. A split that reads much passes through as it is.
 */
final class SplitGrouper
{
    /**
     * Most splits in one group: enough to keep the reader's look-ahead busy, few enough that a batch still spreads
     * over the engine's drivers.
     */
    static final int MAX_GROUP_SPLITS = 8;

    /**
     * Largest read a split may make to be grouped: below it a GET's latency weighs as much as its transfer.
     */
    static final long SMALL_SPLIT_BYTES = 8L << 20;

    private final List<Node> workers;
    private final int minGroupsPerWorker;

    /**
     * @param minGroupsPerWorker the groups a worker gets at least, where it has as many small splits: its leaf drivers
     * decode in parallel, so a worker given few files reads each in a group of its own (as ungrouped)
     */
    SplitGrouper(List<Node> workers, int minGroupsPerWorker)
    {
        this.workers = List.copyOf(requireNonNull(workers, "workers is null"));
        this.minGroupsPerWorker = Math.max(1, minGroupsPerWorker);
    }

    List<ConnectorSplit> group(List<ConnectorSplit> batch)
    {
        if (workers.isEmpty()) {
            return batch;
        }
        List<ConnectorSplit> result = new ArrayList<>();
        Map<Node, List<ParquetBloomSplit>> byWorker = new LinkedHashMap<>();
        for (ConnectorSplit split : batch) {
            if (split instanceof ParquetBloomSplit file && file.length() <= SMALL_SPLIT_BYTES) {
                byWorker.computeIfAbsent(workerOf(file.path()), _ -> new ArrayList<>()).add(file);
            }
            else {
                result.add(split);
            }
        }
        byWorker.forEach((worker, files) -> addGroups(result, worker.getHostAndPort(), files));
        return result;
    }

    /**
     * The worker's splits in near-equal groups of at most {@value #MAX_GROUP_SPLITS}, and at least
     * {@code minGroupsPerWorker} groups where there are as many splits.
     */
    private void addGroups(List<ConnectorSplit> result, HostAddress worker, List<ParquetBloomSplit> files)
    {
        int groups = Math.max(ceilDiv(files.size(), MAX_GROUP_SPLITS), Math.min(files.size(), minGroupsPerWorker));
        int from = 0;
        for (int group = 0; group < groups; group++) {
            int to = from + ceilDiv(files.size() - from, groups - group);
            result.add(new ParquetBloomSplitGroup(files.subList(from, to), List.of(worker)));
            from = to;
        }
    }

    /**
     * The worker with the highest hash of its identifier and the path: adding or removing a worker moves only the
     * files it wins or held.
     */
    Node workerOf(String path)
    {
        Node best = null;
        long bestScore = 0;
        for (Node worker : workers) {
            long score = XxHash64.hash(Slices.utf8Slice(worker.getNodeIdentifier() + "\n" + path));
            if (best == null || Long.compareUnsigned(score, bestScore) > 0) {
                best = worker;
                bestScore = score;
            }
        }
        return best;
    }
}
