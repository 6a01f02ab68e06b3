package io.parquetbloom.health;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * How much the row groups' [min, max] ranges of a column overlap: for each row group, the share of the other row
 * groups whose range intersects its own, averaged. Near 0 the column is clustered (sorted or partitioned by it) and
 * min/max statistics already skip almost every row group of a lookup; near 1 (random keys) only a filter can.
 */
public final class MinMaxOverlap<T>
{
    private final Comparator<T> comparator;
    private final Reservoir<Range<T>> ranges;

    private record Range<T>(T min, T max) {}

    public MinMaxOverlap(Comparator<T> comparator)
    {
        this(comparator, Integer.MAX_VALUE);
    }

    /**
     * @param sample ranges kept: beyond it the overlap is estimated from a uniform sample of the row groups
     */
    public MinMaxOverlap(Comparator<T> comparator, int sample)
    {
        this.comparator = requireNonNull(comparator, "comparator is null");
        this.ranges = new Reservoir<>(sample);
    }

    public void add(T min, T max)
    {
        ranges.add(new Range<>(requireNonNull(min, "min is null"), requireNonNull(max, "max is null")));
    }

    /**
     * Ranges added (not only those kept).
     */
    public long ranges()
    {
        return ranges.added();
    }

    /**
     * @return the mean share in [0, 1], empty with fewer than two ranges
     */
    public OptionalDouble overlap()
    {
        List<T> mins = ranges.values().stream().map(Range::min).toList();
        List<T> maxs = ranges.values().stream().map(Range::max).toList();
        int n = mins.size();
        if (n < 2) {
            return OptionalDouble.empty();
        }
        List<T> sortedMins = new ArrayList<>(mins);
        List<T> sortedMaxs = new ArrayList<>(maxs);
        sortedMins.sort(comparator);
        sortedMaxs.sort(comparator);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            // ranges j with min_j > max_i or max_j < min_i do not intersect range i; all others do, itself included
            long startingAfter = n - countAtMost(sortedMins, maxs.get(i));
            long endingBefore = countLessThan(sortedMaxs, mins.get(i));
            long intersecting = n - startingAfter - endingBefore - 1;
            sum += intersecting / (double) (n - 1);
        }
        return OptionalDouble.of(sum / n);
    }

    private long countAtMost(List<T> sorted, T value)
    {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (comparator.compare(sorted.get(mid), value) <= 0) {
                low = mid + 1;
            }
            else {
                high = mid;
            }
        }
        return low;
    }

    private long countLessThan(List<T> sorted, T value)
    {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (comparator.compare(sorted.get(mid), value) < 0) {
                low = mid + 1;
            }
            else {
                high = mid;
            }
        }
        return low;
    }
}
