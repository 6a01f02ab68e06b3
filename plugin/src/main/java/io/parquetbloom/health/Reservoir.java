package io.parquetbloom.health;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A uniform sample of at most {@code capacity} of the values added (Vitter's algorithm R), so that per-row-group
 * measures (medians, min/max overlap) of a table of any number of row groups hold a bounded number of values; exact
 * while fewer than {@code capacity} were added. Seeded, so the same table gives the same advice.
 */
final class Reservoir<T>
{
    private final int capacity;
    private final List<T> sample = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(0x5eed);
    private long added;

    Reservoir(int capacity)
    {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    void add(T value)
    {
        added++;
        if (sample.size() < capacity) {
            sample.add(value);
            return;
        }
        long slot = random.nextLong(added);
        if (slot < capacity) {
            sample.set((int) slot, value);
        }
    }

    /**
     * The sampled values, in no particular order.
     */
    List<T> values()
    {
        return sample;
    }

    long added()
    {
        return added;
    }
}
