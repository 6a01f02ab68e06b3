package io.parquetbloom.health;

/**
 * What a column must show to deserve a bloom filter, and the false positive rate to size it for.
 */
public record AdviceThresholds(long minDistinctValues, double minQueryShare, double targetFpp)
{
    public AdviceThresholds
    {
        if (minDistinctValues < 1) {
            throw new IllegalArgumentException("minDistinctValues must be positive: " + minDistinctValues);
        }
        if (!(minQueryShare >= 0 && minQueryShare <= 1)) {
            throw new IllegalArgumentException("minQueryShare must be within [0, 1]: " + minQueryShare);
        }
        if (!(targetFpp > 0 && targetFpp <= 0.5)) {
            throw new IllegalArgumentException("targetFpp must be within (0, 0.5]: " + targetFpp);
        }
    }

    public static AdviceThresholds of(HealthConfig config)
    {
        return new AdviceThresholds(config.getMinDistinctValues(), config.getMinQueryShare(), config.getTargetFpp());
    }
}
