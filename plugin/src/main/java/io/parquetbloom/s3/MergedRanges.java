package io.parquetbloom.s3;

import com.google.common.collect.ImmutableList;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Byte ranges of one object merged into fewer, larger GETs: S3 charges per request and answers a few more bytes in
 * little more time. Taken by offset, a range joins the current read while the gap before it is at most
 * {@code maxGap} and the read stays within {@code maxSize} bytes.
 */
public final class MergedRanges
{
    private MergedRanges() {}

    /**
     * One GET: {@code [start, end)} covers every member.
     */
    public record Read<T>(long start, long end, List<T> members)
    {
        public Read
        {
            members = ImmutableList.copyOf(members);
        }

        public long length()
        {
            return end - start;
        }
    }

    public static <T> List<Read<T>> merge(Collection<T> ranges, ToLongFunction<T> offset, ToLongFunction<T> end, long maxGap, long maxSize)
    {
        checkArgument(maxGap >= 0, "maxGap is negative");
        List<T> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(offset));
        ImmutableList.Builder<Read<T>> reads = ImmutableList.builder();
        List<T> members = new ArrayList<>();
        long start = 0;
        long readEnd = 0;
        for (T range : sorted) {
            long rangeStart = offset.applyAsLong(range);
            long rangeEnd = end.applyAsLong(range);
            if (!members.isEmpty() && rangeStart - readEnd <= maxGap && Math.max(readEnd, rangeEnd) - start <= maxSize) {
                readEnd = Math.max(readEnd, rangeEnd);
                members.add(range);
                continue;
            }
            if (!members.isEmpty()) {
                reads.add(new Read<>(start, readEnd, members));
            }
            members = new ArrayList<>(List.of(range));
            start = rangeStart;
            readEnd = rangeEnd;
        }
        if (!members.isEmpty()) {
            reads.add(new Read<>(start, readEnd, members));
        }
        return reads.build();
    }
}
