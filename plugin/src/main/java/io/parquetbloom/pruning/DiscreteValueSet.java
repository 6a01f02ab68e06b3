package io.parquetbloom.pruning;

import io.airlift.slice.Slice;

import java.util.Arrays;
import java.util.Collection;

import static java.util.Objects.requireNonNull;

/**
 * The values of a discrete domain, asked without allocating: byte strings by their bytes where they lie (a block's
 * raw slice, a Parquet page), integers as primitives. An open-addressing table keyed by a fingerprint of each value
 * (its length and first and last eight bytes; the integer itself), a candidate confirmed by comparing its bytes; the
 * engine's {@code HashSet<Slice>} hashed every value read with XXH64 and allocated a slice for it.
 */
public final class DiscreteValueSet
{
    private static final long EMPTY = Long.MIN_VALUE;

    private final Slice[] slices;
    private final long[] fingerprints;
    private final int[] indexes;
    private final int mask;
    private final boolean hasEmptyFingerprint;

    private DiscreteValueSet(Slice[] slices, long[] values)
    {
        this.slices = slices;
        int size = Integer.highestOneBit(Math.max(4, values.length * 4) - 1) << 1;
        this.mask = size - 1;
        this.fingerprints = new long[size];
        this.indexes = new int[size];
        Arrays.fill(fingerprints, EMPTY);
        boolean emptyFingerprint = false;
        for (int value = 0; value < values.length; value++) {
            if (values[value] == EMPTY) {
                // kept beside the table: EMPTY marks a free slot
                emptyFingerprint = true;
                continue;
            }
            int slot = slot(values[value]);
            while (fingerprints[slot] != EMPTY) {
                slot = (slot + 1) & mask;
            }
            fingerprints[slot] = values[value];
            indexes[slot] = value;
        }
        this.hasEmptyFingerprint = emptyFingerprint;
    }

    public static DiscreteValueSet ofSlices(Collection<Slice> values)
    {
        Slice[] slices = values.stream().map(value -> requireNonNull(value, "value is null")).distinct().toArray(Slice[]::new);
        long[] fingerprints = new long[slices.length];
        for (int i = 0; i < slices.length; i++) {
            fingerprints[i] = fingerprint(slices[i], 0, slices[i].length());
        }
        return new DiscreteValueSet(slices, fingerprints);
    }

    public static DiscreteValueSet ofLongs(Collection<Long> values)
    {
        return new DiscreteValueSet(null, values.stream().mapToLong(Long::longValue).distinct().toArray());
    }

    public boolean containsLong(long value)
    {
        if (value == EMPTY) {
            return hasEmptyFingerprint;
        }
        for (int slot = slot(value); fingerprints[slot] != EMPTY; slot = (slot + 1) & mask) {
            if (fingerprints[slot] == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the bytes {@code [offset, offset + length)} of {@code source} are one of the values.
     */
    public boolean containsBytes(Slice source, int offset, int length)
    {
        long fingerprint = fingerprint(source, offset, length);
        if (fingerprint == EMPTY) {
            return hasEmptyFingerprint && anyEquals(source, offset, length);
        }
        for (int slot = slot(fingerprint); fingerprints[slot] != EMPTY; slot = (slot + 1) & mask) {
            if (fingerprints[slot] == fingerprint) {
                Slice candidate = slices[indexes[slot]];
                if (candidate.length() == length && source.equals(offset, length, candidate, 0, length)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean anyEquals(Slice source, int offset, int length)
    {
        for (Slice candidate : slices) {
            if (candidate.length() == length && source.equals(offset, length, candidate, 0, length)) {
                return true;
            }
        }
        return false;
    }

    private int slot(long fingerprint)
    {
        // Murmur3's finaliser: fingerprints of keys with a common prefix still spread
        long hash = fingerprint;
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        return (int) hash & mask;
    }

    private static long fingerprint(Slice source, int offset, int length)
    {
        if (length >= Long.BYTES) {
            return source.getLong(offset) * 31 + source.getLong(offset + length - Long.BYTES) * 17 + length;
        }
        long bytes = 0;
        for (int i = 0; i < length; i++) {
            bytes = (bytes << 8) | (source.getByte(offset + i) & 0xFF);
        }
        return bytes * 31 + length;
    }
}
