package io.parquetbloom.health;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The thresholds of {@code "t$bloom_filter_advice"} (each has a session property of the same name) and the size of the
 * coordinator's window of recent queries it measures query share in.
 */
public class HealthConfig
{
    private long minDistinctValues = 50_000;
    private double minQueryShare = 0.3;
    private double targetFpp = 0.01;
    private int queryWindow = 1_000;

    @Min(1)
    public long getMinDistinctValues()
    {
        return minDistinctValues;
    }

    @Config("bloom-filter-advice.min-distinct-values")
    @ConfigDescription("Distinct values per partition from which a column is worth a bloom filter")
    public HealthConfig setMinDistinctValues(long minDistinctValues)
    {
        this.minDistinctValues = minDistinctValues;
        return this;
    }

    // explicit messages: the validator cannot interpolate the annotations' default ones
    @DecimalMin(value = "0.0", message = "must be at least 0.0")
    @DecimalMax(value = "1.0", message = "must be at most 1.0")
    public double getMinQueryShare()
    {
        return minQueryShare;
    }

    @Config("bloom-filter-advice.min-query-share")
    @ConfigDescription("Share (0 to 1) of the recent queries on a table that must constrain a column by =, IN or a join for its filter to pay off")
    public HealthConfig setMinQueryShare(double minQueryShare)
    {
        this.minQueryShare = minQueryShare;
        return this;
    }

    @DecimalMin(value = "0.0", inclusive = false, message = "must be above 0.0")
    @DecimalMax(value = "0.5", message = "must be at most 0.5")
    public double getTargetFpp()
    {
        return targetFpp;
    }

    @Config("bloom-filter-advice.target-fpp")
    @ConfigDescription("False positive rate the advice sizes filters for (exact SBBF rate, not the classic formula's)")
    public HealthConfig setTargetFpp(double targetFpp)
    {
        this.targetFpp = targetFpp;
        return this;
    }

    @Min(1)
    @Max(1_000_000)
    public int getQueryWindow()
    {
        return queryWindow;
    }

    @Config("bloom-filter-advice.query-window")
    @ConfigDescription("Recent queries of this catalog the coordinator keeps to measure which columns lookups constrain")
    public HealthConfig setQueryWindow(int queryWindow)
    {
        this.queryWindow = queryWindow;
        return this;
    }
}
