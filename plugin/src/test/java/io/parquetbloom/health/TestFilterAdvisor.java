package io.parquetbloom.health;

import io.parquetbloom.sbbf.BloomFilterMath;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import static io.parquetbloom.health.ColumnAdvice.Verdict.ADD;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_CLUSTERED;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_LOW_CARDINALITY;
import static io.parquetbloom.health.ColumnAdvice.Verdict.DROP_RARELY_QUERIED;
import static io.parquetbloom.health.ColumnAdvice.Verdict.KEEP;
import static io.parquetbloom.health.ColumnAdvice.Verdict.RESIZE;
import static org.assertj.core.api.Assertions.assertThat;

final class TestFilterAdvisor
{
    private static final AdviceThresholds DEFAULTS = AdviceThresholds.of(new HealthConfig());
    private static final QueryShareWindow.TableShare LOOKED_UP = new QueryShareWindow.TableShare(10, Map.of("device_id", 8));
    private static final QueryShareWindow.TableShare RARELY = new QueryShareWindow.TableShare(10, Map.of("device_id", 1));
    private static final QueryShareWindow.TableShare NO_QUERIES = new QueryShareWindow.TableShare(0, Map.of());

    /**
     * 100 files of one row group, 2 partitions of 500,000 unique keys, 10,000 per row group; 16 KiB filters (an exact
     * FPP of about 0.25% at 10,000 values: within the 1% target, and not twice the size it needs).
     */
    private static ColumnHealth wellSized()
    {
        double fpp = BloomFilterMath.falsePositiveProbability(16_384, 10_000);
        return new ColumnHealth("device_id", "BYTE_ARRAY", Optional.of("STRING"), 100, 0, 100, 100, 0, 0,
                OptionalDouble.of(fpp), OptionalDouble.of(fpp), 100 * 16_384L, 100_000_000L,
                OptionalDouble.of(10_000), OptionalDouble.of(10_000), OptionalDouble.of(500_000), OptionalDouble.of(500_000),
                500_000, 10_000, OptionalDouble.of(16_384), OptionalDouble.of(0.98));
    }

    @Test
    void wellSizedFilterOfALookedUpKeyIsKept()
    {
        ColumnAdvice advice = FilterAdvisor.advise(wellSized(), LOOKED_UP, DEFAULTS);
        assertThat(advice.verdict()).isEqualTo(KEEP);
        assertThat(advice.queryShare()).hasValue(0.8);
        assertThat(advice.settings()).isEmpty();
    }

    @Test
    void clusteredColumnNeedsNoFilter()
    {
        ColumnHealth sorted = withOverlap(wellSized(), 0.02);
        ColumnAdvice advice = FilterAdvisor.advise(sorted, LOOKED_UP, DEFAULTS);
        assertThat(advice.verdict()).isEqualTo(DROP_CLUSTERED);
        assertThat(advice.settings().orElseThrow().parquetJava()).isEqualTo("parquet.bloom.filter.enabled#device_id=false");
        assertThat(advice.settings().orElseThrow().iceberg()).isEqualTo("write.parquet.bloom-filter-enabled.column.device_id=false");
    }

    @Test
    void lowCardinalityColumnNeedsNoFilter()
    {
        ColumnHealth health = wellSized();
        ColumnHealth countries = new ColumnHealth(health.column(), health.physicalType(), health.logicalType(), health.files(), 0, health.rowGroups(), health.rowGroupsWithUsableFilter(), 0, 0,
                health.medianFpp(), health.worstFpp(), health.filterBytes(), health.tableBytes(),
                OptionalDouble.of(200), OptionalDouble.of(200), OptionalDouble.of(240), OptionalDouble.of(250),
                500_000, 10_000, health.filterBytesPerRowGroup(), health.minMaxOverlap());
        assertThat(FilterAdvisor.advise(countries, LOOKED_UP, DEFAULTS).verdict()).isEqualTo(DROP_LOW_CARDINALITY);
        // the threshold is the caller's
        assertThat(FilterAdvisor.advise(countries, LOOKED_UP, new AdviceThresholds(100, 0.3, 0.01)).verdict()).isNotEqualTo(DROP_LOW_CARDINALITY);
    }

    @Test
    void rarelyQueriedColumnNeedsNoFilterButAnUnknownShareDropsNothing()
    {
        assertThat(FilterAdvisor.advise(wellSized(), RARELY, DEFAULTS).verdict()).isEqualTo(DROP_RARELY_QUERIED);
        ColumnAdvice unknown = FilterAdvisor.advise(wellSized(), NO_QUERIES, DEFAULTS);
        assertThat(unknown.verdict()).isEqualTo(KEEP);
        assertThat(unknown.queryShare()).isEmpty();
    }

    @Test
    void undersizedFilterIsResizedForItsDistinctValues()
    {
        ColumnHealth health = wellSized();
        double fpp = BloomFilterMath.falsePositiveProbability(2_048, 10_000);
        ColumnHealth undersized = new ColumnHealth(health.column(), health.physicalType(), health.logicalType(), health.files(), 0, health.rowGroups(), health.rowGroupsWithUsableFilter(), 0, 0,
                OptionalDouble.of(fpp), OptionalDouble.of(fpp), 100 * 2_048L, health.tableBytes(),
                health.distinctValuesPerRowGroup(), health.maxDistinctValuesPerRowGroup(), health.distinctValuesPerPartition(), health.maxDistinctValuesPerPartition(),
                500_000, 10_000, OptionalDouble.of(2_048), health.minMaxOverlap());
        ColumnAdvice advice = FilterAdvisor.advise(undersized, LOOKED_UP, DEFAULTS);
        assertThat(advice.verdict()).isEqualTo(RESIZE);
        long bytes = BloomFilterMath.optimalNumBytes(10_000, 0.01, true);
        assertThat(advice.recommendedBytes()).hasValue(bytes);
        assertThat(advice.recommendedDistinctValues()).hasValue(10_000);
        // writers size with the classic formula: the rate they are given makes them allocate what the exact one needs
        double writerFpp = WriterSettings.classicFppFor(BloomFilterMath.bitsPerValue(0.01));
        assertThat(writerFpp).isLessThan(0.01);
        double classicBits = -10_000 * Math.log(writerFpp) / (Math.log(2) * Math.log(2));
        assertThat(classicBits).isGreaterThanOrEqualTo(10_000 * BloomFilterMath.bitsPerValue(0.01) * 0.99);
        assertThat(advice.settings().orElseThrow().parquetJava()).contains("parquet.bloom.filter.expected.ndv#device_id=10000");
        assertThat(advice.settings().orElseThrow().pyarrow()).startsWith("bloom_filter_options={'device_id': {'ndv': 10000, 'fpp': ");
        assertThat(advice.settings().orElseThrow().iceberg()).endsWith("write.parquet.bloom-filter-max-bytes=" + bytes);
    }

    @Test
    void oversizedFilterIsResizedDown()
    {
        ColumnHealth health = wellSized();
        ColumnHealth oversized = new ColumnHealth(health.column(), health.physicalType(), health.logicalType(), health.files(), 0, health.rowGroups(), health.rowGroupsWithUsableFilter(), 0, 0,
                OptionalDouble.of(0), OptionalDouble.of(0), 100 * 1_048_576L, health.tableBytes(),
                health.distinctValuesPerRowGroup(), health.maxDistinctValuesPerRowGroup(), health.distinctValuesPerPartition(), health.maxDistinctValuesPerPartition(),
                500_000, 10_000, OptionalDouble.of(1_048_576), health.minMaxOverlap());
        ColumnAdvice advice = FilterAdvisor.advise(oversized, LOOKED_UP, DEFAULTS);
        assertThat(advice.verdict()).isEqualTo(RESIZE);
        assertThat(advice.reason()).startsWith("oversized");
    }

    @Test
    void filesWithoutFilterAfterACompactionAreReported()
    {
        ColumnHealth health = wellSized();
        ColumnHealth drifted = new ColumnHealth(health.column(), health.physicalType(), health.logicalType(), 110, 10, 110, 100, 0, 0,
                health.medianFpp(), health.worstFpp(), health.filterBytes(), health.tableBytes(),
                health.distinctValuesPerRowGroup(), health.maxDistinctValuesPerRowGroup(), health.distinctValuesPerPartition(), health.maxDistinctValuesPerPartition(),
                500_000, 10_000, health.filterBytesPerRowGroup(), health.minMaxOverlap());
        ColumnAdvice advice = FilterAdvisor.advise(drifted, LOOKED_UP, DEFAULTS);
        assertThat(advice.verdict()).isEqualTo(ADD);
        assertThat(advice.reason()).startsWith("10 of 110 files have no filter");
    }

    @Test
    void unfilteredColumnGetsAFilterOnlyWhenLookupsUseIt()
    {
        ColumnHealth unfiltered = new ColumnHealth("device_id", "BYTE_ARRAY", Optional.of("STRING"), 100, 100, 100, 0, 0, 0,
                OptionalDouble.empty(), OptionalDouble.empty(), 0, 100_000_000L,
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                500_000, 10_000, OptionalDouble.empty(), OptionalDouble.of(0.97));
        ColumnAdvice add = FilterAdvisor.advise(unfiltered, LOOKED_UP, DEFAULTS);
        assertThat(add.verdict()).isEqualTo(ADD);
        // without a filter the distinct values are unknown: sized for every value of the largest row group
        assertThat(add.recommendedDistinctValues()).hasValue(10_000);
        assertThat(FilterAdvisor.advise(unfiltered, RARELY, DEFAULTS).verdict()).isEqualTo(KEEP);
        assertThat(FilterAdvisor.advise(unfiltered, NO_QUERIES, DEFAULTS).verdict()).isEqualTo(KEEP);
        assertThat(FilterAdvisor.advise(withOverlap(unfiltered, 0.01), LOOKED_UP, DEFAULTS).verdict()).isEqualTo(KEEP);
    }

    @Test
    void dictionaryEncodedColumnNeedsNoFilter()
    {
        // every chunk entirely dictionary-encoded (parquet-java and Trino write no filter there): dictionaries prune
        ColumnHealth dictionaries = new ColumnHealth("device_id", "BYTE_ARRAY", Optional.of("STRING"), 100, 0, 100, 0, 0, 100,
                OptionalDouble.empty(), OptionalDouble.empty(), 0, 100_000_000L,
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                500_000, 10_000, OptionalDouble.empty(), OptionalDouble.of(0.97));
        ColumnAdvice keep = FilterAdvisor.advise(dictionaries, LOOKED_UP, DEFAULTS);
        assertThat(keep.verdict()).isEqualTo(KEEP);
        assertThat(keep.reason()).contains("entirely dictionary-encoded");
        // some row groups fell back to PLAIN: those need a filter, and the advice says how many do not
        ColumnHealth partly = new ColumnHealth("device_id", "BYTE_ARRAY", Optional.of("STRING"), 100, 40, 100, 0, 0, 60,
                OptionalDouble.empty(), OptionalDouble.empty(), 0, 100_000_000L,
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                500_000, 10_000, OptionalDouble.empty(), OptionalDouble.of(0.97));
        ColumnAdvice add = FilterAdvisor.advise(partly, LOOKED_UP, DEFAULTS);
        assertThat(add.verdict()).isEqualTo(ADD);
        assertThat(add.reason()).contains("60 of 100 row groups are entirely dictionary-encoded");
    }

    private static ColumnHealth withOverlap(ColumnHealth health, double overlap)
    {
        return new ColumnHealth(health.column(), health.physicalType(), health.logicalType(), health.files(), health.filesWithoutFilter(), health.rowGroups(),
                health.rowGroupsWithUsableFilter(), health.rowGroupsWithUnusableFilter(), health.rowGroupsDictionaryEncoded(), health.medianFpp(), health.worstFpp(), health.filterBytes(), health.tableBytes(),
                health.distinctValuesPerRowGroup(), health.maxDistinctValuesPerRowGroup(), health.distinctValuesPerPartition(), health.maxDistinctValuesPerPartition(),
                health.maxValuesPerPartition(), health.maxValuesPerRowGroup(), health.filterBytesPerRowGroup(), OptionalDouble.of(overlap));
    }
}
