package io.parquetbloom.health;

import io.parquetbloom.sbbf.BloomFilterMath;
import io.parquetbloom.sbbf.BloomFilterUnion;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Folds a column's row groups into a {@link ColumnHealth}, one partition at a time: a partition's union bitsets are
 * dropped as soon as its last file is in, so memory follows the files in flight, not the table.
 */
final class ColumnAccumulator
{
    // beyond this occupancy a union's estimate is too coarse to use; its row groups' sum stands in
    private static final double MAX_UNION_OCCUPANCY = 0.95;
    // row groups whose measures are kept per column; medians and overlap beyond it are estimates from a uniform sample
    static final int SAMPLE = 4_096;

    private final String column;
    private final String physicalType;
    private final Optional<String> logicalType;
    private int files;
    private int filesWithoutFilter;
    private long rowGroups;
    private long usable;
    private long dictionaryEncoded;
    private long unusable;
    private long filterBytes;
    // per row group measures are sampled: memory follows columns and partitions, not row groups
    private final Reservoir<Double> fpps = new Reservoir<>(SAMPLE);
    private final Reservoir<Double> rowGroupDistinctValues = new Reservoir<>(SAMPLE);
    private final List<Double> partitionDistinctValues = new ArrayList<>();
    private final Reservoir<Double> rowGroupFilterBytes = new Reservoir<>(SAMPLE);
    private double maxFpp = Double.NaN;
    private double maxRowGroupDistinctValues = Double.NaN;
    private long maxValuesPerPartition;
    private long maxValuesPerRowGroup;
    private final Map<String, PartitionState> partitions = new HashMap<>();
    private MinMaxOverlap<Object> overlap;
    private String overlapType;

    private static final class PartitionState
    {
        private final Map<Integer, BloomFilterUnion> unions = new HashMap<>();
        private final Map<Integer, Double> rowGroupSums = new HashMap<>();
        private long values;
    }

    ColumnAccumulator(String column, String physicalType, Optional<String> logicalType)
    {
        this.column = column;
        this.physicalType = physicalType;
        this.logicalType = logicalType;
    }

    void addFile(boolean everyRowGroupHasFilter)
    {
        files++;
        if (!everyRowGroupHasFilter) {
            filesWithoutFilter++;
        }
    }

    void addRowGroup(String partition, ChunkHealth chunk, long nonNullValues, Optional<SplitBlockBloomFilter> filter)
    {
        rowGroups++;
        maxValuesPerRowGroup = Math.max(maxValuesPerRowGroup, nonNullValues);
        PartitionState state = partitions.computeIfAbsent(partition, _ -> new PartitionState());
        state.values += nonNullValues;
        if (chunk.dictionaryEncoded()) {
            dictionaryEncoded++;
        }
        if (chunk.hasFilter() && !chunk.usable() && !(chunk.status() instanceof FilterStatus.NotCached)) {
            unusable++;
        }
        if (!chunk.usable() || filter.isEmpty()) {
            return;
        }
        usable++;
        chunk.filterBytes().ifPresent(bytes -> {
            filterBytes += bytes;
            rowGroupFilterBytes.add((double) bytes);
        });
        chunk.falsePositiveRate().ifPresent(fpp -> {
            fpps.add(fpp);
            maxFpp = Double.isNaN(maxFpp) ? fpp : Math.max(maxFpp, fpp);
        });
        double distinct = chunk.distinctValues().orElse(nonNullValues);
        rowGroupDistinctValues.add(distinct);
        maxRowGroupDistinctValues = Double.isNaN(maxRowGroupDistinctValues) ? distinct : Math.max(maxRowGroupDistinctValues, distinct);
        SplitBlockBloomFilter bits = filter.get();
        state.unions.computeIfAbsent(bits.sizeInBytes(), BloomFilterUnion::new).add(bits);
        state.rowGroupSums.merge(bits.sizeInBytes(), distinct, Double::sum);
    }

    @SuppressWarnings("unchecked")
    void addRange(String primitiveType, Comparator<?> comparator, Object min, Object max)
    {
        if (overlap == null) {
            overlap = new MinMaxOverlap<>((Comparator<Object>) comparator, SAMPLE);
            overlapType = primitiveType;
        }
        // a file that stores the column with another physical type cannot be compared with the others
        if (overlapType.equals(primitiveType)) {
            overlap.add(min, max);
        }
    }

    /**
     * All files of the partition are in: estimate its distinct values and drop its bitsets.
     */
    void finishPartition(String partition)
    {
        PartitionState state = partitions.remove(partition);
        if (state == null) {
            return;
        }
        maxValuesPerPartition = Math.max(maxValuesPerPartition, state.values);
        if (state.unions.isEmpty()) {
            return;
        }
        double estimate = 0;
        for (Map.Entry<Integer, BloomFilterUnion> entry : state.unions.entrySet()) {
            BloomFilterUnion union = entry.getValue();
            double occupancy = union.bitsSet() / (double) union.totalBits();
            double rowGroupSum = state.rowGroupSums.get(entry.getKey());
            estimate += occupancy <= MAX_UNION_OCCUPANCY ? Math.min(rowGroupSum, BloomFilterMath.estimateDistinctValues(union.bitsSet(), union.totalBits())) : rowGroupSum;
        }
        partitionDistinctValues.add(Math.min(estimate, state.values));
    }

    ColumnHealth build(long tableBytes)
    {
        for (String partition : List.copyOf(partitions.keySet())) {
            finishPartition(partition);
        }
        return new ColumnHealth(
                column,
                physicalType,
                logicalType,
                files,
                filesWithoutFilter,
                rowGroups,
                usable,
                unusable,
                dictionaryEncoded,
                median(fpps.values()),
                max(maxFpp),
                filterBytes,
                tableBytes,
                median(rowGroupDistinctValues.values()),
                max(maxRowGroupDistinctValues),
                median(partitionDistinctValues),
                max(partitionDistinctValues),
                maxValuesPerPartition,
                maxValuesPerRowGroup,
                median(rowGroupFilterBytes.values()),
                overlap());
    }

    private OptionalDouble overlap()
    {
        if (overlap == null) {
            return OptionalDouble.empty();
        }
        try {
            return overlap.overlap();
        }
        catch (RuntimeException e) {
            // statistics a comparator cannot order (a writer's odd min/max) say nothing about clustering
            return OptionalDouble.empty();
        }
    }

    private static OptionalDouble median(List<Double> values)
    {
        if (values.isEmpty()) {
            return OptionalDouble.empty();
        }
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return OptionalDouble.of(sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2);
    }

    private static OptionalDouble max(List<Double> values)
    {
        return values.stream().mapToDouble(Double::doubleValue).max();
    }

    private static OptionalDouble max(double value)
    {
        return Double.isNaN(value) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
