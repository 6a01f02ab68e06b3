package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.parquetbloom.pruning.PruningConfig;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.integerProperty;

/**
 * Session properties mirroring the catalog properties ({@code bloom-filter.enabled} becomes
 * {@code bloom_filter_enabled}); defaults come from the catalog.
 */
public final class ParquetBloomSessionProperties
{
    public static final String BLOOM_FILTER_ENABLED = "bloom_filter_enabled";
    public static final String STATISTICS_PRUNING_ENABLED = "statistics_pruning_enabled";
    public static final String BLOOM_FILTER_MAX_VALUES = "bloom_filter_max_values";
    public static final String NO_MATCH_CACHE_ENABLED = "no_match_cache_enabled";

    private final List<PropertyMetadata<?>> sessionProperties;

    @Inject
    public ParquetBloomSessionProperties(PruningConfig config)
    {
        sessionProperties = ImmutableList.of(
                booleanProperty(BLOOM_FILTER_ENABLED, "Prune row groups with Parquet bloom filters", config.isBloomFilterEnabled(), false),
                booleanProperty(STATISTICS_PRUNING_ENABLED, "Prune row groups with min/max statistics", config.isStatisticsPruningEnabled(), false),
                integerProperty(BLOOM_FILTER_MAX_VALUES, "Most values of one column to probe bloom filters with", config.getBloomFilterMaxValues(), value -> {
                    if (value < 1) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be positive: %s".formatted(BLOOM_FILTER_MAX_VALUES, value));
                    }
                }, false),
                booleanProperty(NO_MATCH_CACHE_ENABLED, "Skip row groups earlier reads found to hold no row of the same column predicate", config.isNoMatchCacheEnabled(), false));
    }

    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties;
    }

    public static boolean isBloomFilterEnabled(ConnectorSession session)
    {
        return session.getProperty(BLOOM_FILTER_ENABLED, Boolean.class);
    }

    public static boolean isStatisticsPruningEnabled(ConnectorSession session)
    {
        return session.getProperty(STATISTICS_PRUNING_ENABLED, Boolean.class);
    }

    public static boolean isNoMatchCacheEnabled(ConnectorSession session)
    {
        return session.getProperty(NO_MATCH_CACHE_ENABLED, Boolean.class);
    }

    public static int getBloomFilterMaxValues(ConnectorSession session)
    {
        return session.getProperty(BLOOM_FILTER_MAX_VALUES, Integer.class);
    }
}
