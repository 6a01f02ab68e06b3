package io.parquetbloom.pruning;

import java.util.List;

/**
 * Which row groups of a file one pruning call decides about.
 */
public sealed interface RowGroupScope
{
    RowGroupScope WHOLE_FILE = new ByteRange(0, Long.MAX_VALUE);

    /**
     * The row groups whose first byte lies in {@code [start, start + length)}: a split of a file nobody pruned yet.
     */
    record ByteRange(long start, long length)
            implements RowGroupScope {}

    /**
     * Row groups the coordinator already chose with the same plan: only what this node learned since (no-match
     * facts) is applied, without I/O.
     */
    record Planned(List<Integer> rowGroups)
            implements RowGroupScope
    {
        public Planned
        {
            rowGroups = List.copyOf(rowGroups);
        }
    }
}
