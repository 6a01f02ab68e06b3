package io.parquetbloom.health;

import io.parquetbloom.sbbf.BloomFilterMath;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static io.parquetbloom.health.ColumnAdvice.Verdict.ADD;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_CLUSTERED;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_LOW_CARDINALITY;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_RARELY_QUERIED;
import static io.parquetbloom.health.ColumnAdvice.Verdict.KEEP;
import static io.parquetbloom.health.ColumnAdvice.Verdict.RESIZE;

/**
 * The verdict on a column's filter. A filter pays off on a column with many distinct values per partition, that
 * lookups constrain often, and that is not clustered (where min/max statistics already skip row groups); it must be
 * sized for its row groups' distinct values at the target rate, and present in every file.
 */
public final class FilterAdvisor
{
    /**
     * Row groups' min/max ranges overlapping at most this share of the others: statistics skip 90% of them already.
     */
    public static final double CLUSTERED_OVERLAP = 0.1;
    // filters more than this far off their target rate or size are worth rewriting
    private static final double RESIZE_FACTOR = 2;

    private FilterAdvisor() {}

    public static ColumnAdvice advise(ColumnHealth health, QueryShareWindow.TableShare share, AdviceThresholds thresholds)
    {
        OptionalDouble queryShare = share.queries() == 0 ? OptionalDouble.empty() : OptionalDouble.of(share.share(health.column().toLowerCase(Locale.ROOT)));
        double targetBitsPerValue = BloomFilterMath.bitsPerValue(thresholds.targetFpp());
        long distinctValues = (long) Math.ceil(health.maxDistinctValuesPerRowGroup().orElse(health.maxValuesPerRowGroup()));
        Facts facts = new Facts(
                health,
                thresholds,
                new Advice(health, share.queries(), queryShare),
                queryShare,
                queryShare.isPresent()
                        ? "constrained by =, IN or a join in %s of the last %d queries on the table".formatted(percent(queryShare.getAsDouble()), share.queries())
                        : "no recent query on the table to measure how often lookups use it",
                health.minMaxOverlap().isPresent() ? "row groups' min/max ranges overlap %s of the others".formatted(percent(health.minMaxOverlap().getAsDouble())) : "no min/max statistics",
                health.minMaxOverlap().isPresent() && health.minMaxOverlap().getAsDouble() <= CLUSTERED_OVERLAP,
                queryShare.isPresent() && queryShare.getAsDouble() < thresholds.minQueryShare(),
                distinctValues,
                BloomFilterMath.optimalNumBytes(Math.max(1, distinctValues), thresholds.targetFpp(), true),
                WriterSettings.classicFppFor(targetBitsPerValue));
        return health.hasFilters() ? withFilters(facts) : withoutFilters(facts);
    }

    /**
     * What the advice rests on, worked out once.
     *
     * @param queries how often recent queries looked the column up, in words
     * @param overlap how far the row groups' min/max ranges overlap, in words
     * @param bytes the filter size that gives the target rate for {@code distinctValues}
     */
    private record Facts(ColumnHealth health, AdviceThresholds thresholds, Advice advice, OptionalDouble queryShare, String queries, String overlap, boolean clustered, boolean rarelyQueried, long distinctValues, long bytes, double writerFpp)
    {
        WriterSettings enable()
        {
            return WriterSettings.enable(health.column(), distinctValues, writerFpp, bytes);
        }
    }

    private static ColumnAdvice withoutFilters(Facts facts)
    {
        ColumnHealth health = facts.health();
        Advice advice = facts.advice();
        String unusable = health.rowGroupsWithUnusableFilter() > 0 ? " (%d row groups have a filter this connector cannot use)".formatted(health.rowGroupsWithUnusableFilter()) : "";
        if (facts.clustered()) {
            return advice.keep("no filter needed: " + facts.overlap() + ", statistics skip row groups already" + unusable);
        }
        if (health.rowGroupsDictionaryEncoded() == health.rowGroups()) {
            return advice.keep("no filter needed: every row group's chunk is entirely dictionary-encoded, and lookups skip row groups whose dictionary lacks the value (dictionary pruning)" + unusable);
        }
        if (health.maxValuesPerPartition() < facts.thresholds().minDistinctValues()) {
            return advice.keep("no filter needed: at most %d values per partition, below %d".formatted(health.maxValuesPerPartition(), facts.thresholds().minDistinctValues()) + unusable);
        }
        if (facts.queryShare().isEmpty() || facts.rarelyQueried()) {
            return advice.keep("no filter needed: " + facts.queries() + unusable);
        }
        String dictionaries = health.rowGroupsDictionaryEncoded() > 0 ? "; %d of %d row groups are entirely dictionary-encoded and pruned by their dictionaries".formatted(health.rowGroupsDictionaryEncoded(), health.rowGroups()) : "";
        return advice.verdict(ADD, "%s; up to %d values per partition (no filter to count distinct ones), %s: lookups read every row group%s%s"
                .formatted(facts.queries(), health.maxValuesPerPartition(), facts.overlap(), health.rowGroupsDictionaryEncoded() > 0 ? " without a dictionary" : "", unusable + dictionaries), facts.distinctValues(), facts.bytes(), facts.enable());
    }

    private static ColumnAdvice withFilters(Facts facts)
    {
        ColumnHealth health = facts.health();
        Advice advice = facts.advice();
        AdviceThresholds thresholds = facts.thresholds();
        WriterSettings disable = WriterSettings.disable(health.column());
        if (facts.clustered()) {
            return advice.drop(DROP_CLUSTERED, facts.overlap() + ": statistics skip row groups already, the filter bytes are wasted", disable);
        }
        OptionalDouble partitionDistinct = health.maxDistinctValuesPerPartition();
        if (partitionDistinct.isPresent() && partitionDistinct.getAsDouble() < thresholds.minDistinctValues()) {
            return advice.drop(DROP_LOW_CARDINALITY, "about %.0f distinct values in the largest partition, below %d: a lookup's value is in most row groups".formatted(partitionDistinct.getAsDouble(), thresholds.minDistinctValues()), disable);
        }
        if (facts.rarelyQueried()) {
            return advice.drop(DROP_RARELY_QUERIED, facts.queries() + ", below " + percent(thresholds.minQueryShare()), disable);
        }
        if (health.filesWithoutFilter() > 0) {
            return advice.verdict(ADD, "%d of %d files have no filter for the column (rewritten without it, by a compaction?): lookups read all their row groups"
                    .formatted(health.filesWithoutFilter(), health.files()), facts.distinctValues(), facts.bytes(), facts.enable());
        }
        double medianFpp = health.medianFpp().orElse(0);
        if (medianFpp > thresholds.targetFpp() * RESIZE_FACTOR) {
            return advice.verdict(RESIZE, "undersized: median false positive rate %s (worst %s), target %s; %s-byte filters for about %d distinct values per row group need %d"
                    .formatted(percent(medianFpp), percent(health.worstFpp().orElse(medianFpp)), percent(thresholds.targetFpp()), bytesText(health), facts.distinctValues(), facts.bytes()), facts.distinctValues(), facts.bytes(), facts.enable());
        }
        double filterBytes = health.filterBytesPerRowGroup().orElse(0);
        if (filterBytes > facts.bytes() * RESIZE_FACTOR) {
            return advice.verdict(RESIZE, "oversized: %s-byte filters where %d give the target %s for about %d distinct values per row group; filters are %s of the table's bytes"
                    .formatted(bytesText(health), facts.bytes(), percent(thresholds.targetFpp()), facts.distinctValues(), percent(health.filterByteShare())), facts.distinctValues(), facts.bytes(), facts.enable());
        }
        return advice.keep("sized for its values (median false positive rate %s), %s, %s".formatted(percent(medianFpp), facts.queries(), facts.overlap()));
    }

    private record Advice(ColumnHealth health, int queries, OptionalDouble share)
    {
        ColumnAdvice keep(String reason)
        {
            return new ColumnAdvice(health, queries, share, KEEP, reason, OptionalLong.empty(), OptionalLong.empty(), Optional.empty());
        }

        ColumnAdvice drop(ColumnAdvice.Verdict verdict, String reason, WriterSettings settings)
        {
            return new ColumnAdvice(health, queries, share, verdict, reason, OptionalLong.empty(), OptionalLong.empty(), Optional.of(settings));
        }

        ColumnAdvice verdict(ColumnAdvice.Verdict verdict, String reason, long distinctValues, long bytes, WriterSettings settings)
        {
            return new ColumnAdvice(health, queries, share, verdict, reason, OptionalLong.of(distinctValues), OptionalLong.of(bytes), Optional.of(settings));
        }
    }

    private static String bytesText(ColumnHealth health)
    {
        return "%.0f".formatted(health.filterBytesPerRowGroup().orElse(0));
    }

    private static String percent(double share)
    {
        return String.format(Locale.ROOT, "%.3g%%", share * 100);
    }
}
