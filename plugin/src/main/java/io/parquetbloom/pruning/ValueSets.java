package io.parquetbloom.pruning;

import io.trino.spi.predicate.SortedRangeSet;
import io.trino.spi.predicate.ValueSet;

/**
 * Sizes of predicate value sets, asked per split and row group: an IN list of thousands of values must not be listed
 * each time to be counted.
 */
final class ValueSets
{
    private ValueSets() {}

    /**
     * The ranges a sorted set holds (its single values, where it is discrete), or the values of another discrete set;
     * 0 for another set that is not discrete.
     */
    static int listedValues(ValueSet values)
    {
        if (values instanceof SortedRangeSet ranges) {
            return ranges.getRangeCount();
        }
        return values.isDiscreteSet() ? values.getDiscreteSet().size() : 0;
    }
}
