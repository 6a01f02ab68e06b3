package io.parquetbloom.pruning;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The set answers as a {@code HashSet} of the same values does, for byte strings of every length (shorter and longer
 * than a fingerprint's eight bytes, sharing prefixes and suffixes) asked where they lie inside larger slices, and for
 * integers including the one the table marks free slots with.
 */
final class TestDiscreteValueSet
{
    @Test
    void byteStringsAnswerAsAHashSet()
    {
        SplittableRandom random = new SplittableRandom(42);
        for (int trial = 0; trial < 200; trial++) {
            List<Slice> values = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(40); i++) {
                values.add(randomSlice(random));
            }
            Set<Slice> expected = new HashSet<>(values);
            DiscreteValueSet set = DiscreteValueSet.ofSlices(values);
            for (int probe = 0; probe < 200; probe++) {
                Slice value = probe % 3 == 0 ? values.get(random.nextInt(values.size())) : randomSlice(random);
                // asked where it lies inside a larger slice, as in a page
                byte[] page = new byte[value.length() + 11];
                random.nextBytes(page);
                value.getBytes(0, page, 5, value.length());
                assertThat(set.containsBytes(Slices.wrappedBuffer(page), 5, value.length())).as("%s in %s", value, values).isEqualTo(expected.contains(value));
            }
        }
    }

    @Test
    void longsAnswerAsAHashSet()
    {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(40); i++) {
                values.add(randomLong(random));
            }
            Set<Long> expected = new HashSet<>(values);
            DiscreteValueSet set = DiscreteValueSet.ofLongs(values);
            for (int probe = 0; probe < 200; probe++) {
                long value = probe % 3 == 0 ? values.get(random.nextInt(values.size())) : randomLong(random);
                assertThat(set.containsLong(value)).isEqualTo(expected.contains(value));
            }
        }
    }

    private static Slice randomSlice(SplittableRandom random)
    {
        // a small alphabet and shared prefixes, so that fingerprints and lengths collide
        int length = random.nextInt(20);
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i < 9 ? 'k' : 'a' + random.nextInt(3));
        }
        return Slices.wrappedBuffer(bytes);
    }

    private static long randomLong(SplittableRandom random)
    {
        return switch (random.nextInt(4)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> random.nextInt(10);
            default -> random.nextLong();
        };
    }
}
