package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.airlift.units.DataSize;
import io.parquetbloom.health.AdviceThresholds;
import io.parquetbloom.health.HealthConfig;
import io.parquetbloom.keyindex.KeyIndexConfig;
import io.parquetbloom.pruning.PruningConfig;
import io.parquetbloom.table.LakeConfig;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.plugin.base.session.PropertyMetadataUtil.dataSizeProperty;
import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static io.trino.spi.session.PropertyMetadata.doubleProperty;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.session.PropertyMetadata.longProperty;

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
    public static final String DICTIONARY_PRUNING_ENABLED = "dictionary_pruning_enabled";
    public static final String DICTIONARY_PRUNING_MAX_ENTRIES = "dictionary_pruning_max_entries";
    public static final String DICTIONARY_PRUNING_SMALL_FILE_THRESHOLD = "dictionary_pruning_small_file_threshold";
    public static final String ADVICE_MIN_DISTINCT_VALUES = "bloom_filter_advice_min_distinct_values";
    public static final String ADVICE_MIN_QUERY_SHARE = "bloom_filter_advice_min_query_share";
    public static final String ADVICE_TARGET_FPP = "bloom_filter_advice_target_fpp";
    public static final String KEY_INDEX_ENABLED = "key_index_enabled";
    public static final String PAGE_READS_ENABLED = "page_reads_enabled";
    public static final String SCHEMA_UNION_BY_NAME = "schema_union_by_name";
    public static final String SPLIT_READ_AHEAD_FILES = "split_read_ahead_files";

    private final List<PropertyMetadata<?>> sessionProperties;

    @Inject
    public ParquetBloomSessionProperties(PruningConfig config, HealthConfig healthConfig, KeyIndexConfig keyIndexConfig, LakeConfig lakeConfig, ParquetBloomConfig connectorConfig)
    {
        sessionProperties = ImmutableList.of(
                booleanProperty(SCHEMA_UNION_BY_NAME, "A table's columns are the union of every file's columns by name, rather than its newest file's", lakeConfig.isSchemaUnionByName(), false),
                booleanProperty(BLOOM_FILTER_ENABLED, "Prune row groups with Parquet bloom filters", config.isBloomFilterEnabled(), false),
                booleanProperty(STATISTICS_PRUNING_ENABLED, "Prune row groups with min/max statistics", config.isStatisticsPruningEnabled(), false),
                integerProperty(BLOOM_FILTER_MAX_VALUES, "Most values of one column to probe bloom filters with", config.getBloomFilterMaxValues(), value -> {
                    if (value < 1) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be positive: %s".formatted(BLOOM_FILTER_MAX_VALUES, value));
                    }
                }, false),
                booleanProperty(NO_MATCH_CACHE_ENABLED, "Skip row groups earlier reads found to hold no row of the same column predicate", config.isNoMatchCacheEnabled(), false),
                booleanProperty(DICTIONARY_PRUNING_ENABLED, "Prune row groups by the dictionaries of entirely dictionary-encoded column chunks", config.isDictionaryPruningEnabled(), false),
                integerProperty(DICTIONARY_PRUNING_MAX_ENTRIES, "Largest dictionary (entries) read to prune a row group", config.getDictionaryPruningMaxEntries(), value -> {
                    if (value < 1) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be positive: %s".formatted(DICTIONARY_PRUNING_MAX_ENTRIES, value));
                    }
                }, false),
                booleanProperty(PAGE_READS_ENABLED, "Read row groups that may hold few wanted rows by pages, located by each column's offset index", config.isPageReadsEnabled(), false),
                integerProperty(SPLIT_READ_AHEAD_FILES, "Small files a reader opens ahead of the one it reads; 0 reads one file per split", connectorConfig.getSplitReadAheadFiles(), value -> {
                    if (value < 0 || value > 32) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be between 0 and 32: %s".formatted(SPLIT_READ_AHEAD_FILES, value));
                    }
                }, false),
                booleanProperty(KEY_INDEX_ENABLED, "Plan lookups on indexed columns from the table's key index where it covers the listed files", keyIndexConfig.isEnabled(), false),
                dataSizeProperty(DICTIONARY_PRUNING_SMALL_FILE_THRESHOLD, "With dictionary pruning, files of at most this size are read whole for pruning", config.getDictionaryPruningSmallFileThreshold(), false),
                longProperty(ADVICE_MIN_DISTINCT_VALUES, "Distinct values per partition from which a column is worth a bloom filter", healthConfig.getMinDistinctValues(), value -> {
                    if (value < 1) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be positive: %s".formatted(ADVICE_MIN_DISTINCT_VALUES, value));
                    }
                }, false),
                doubleProperty(ADVICE_MIN_QUERY_SHARE, "Share (0 to 1) of a table's recent queries that must constrain a column for its bloom filter to pay off", healthConfig.getMinQueryShare(), value -> {
                    if (!(value >= 0 && value <= 1)) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be between 0 and 1: %s".formatted(ADVICE_MIN_QUERY_SHARE, value));
                    }
                }, false),
                doubleProperty(ADVICE_TARGET_FPP, "False positive rate the bloom filter advice sizes filters for", healthConfig.getTargetFpp(), value -> {
                    if (!(value > 0 && value <= 0.5)) {
                        throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be above 0 and at most 0.5: %s".formatted(ADVICE_TARGET_FPP, value));
                    }
                }, false));
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

    public static boolean isSchemaUnionByName(ConnectorSession session)
    {
        return session.getProperty(SCHEMA_UNION_BY_NAME, Boolean.class);
    }

    public static int getSplitReadAheadFiles(ConnectorSession session)
    {
        return session.getProperty(SPLIT_READ_AHEAD_FILES, Integer.class);
    }

    public static boolean isKeyIndexEnabled(ConnectorSession session)
    {
        return session.getProperty(KEY_INDEX_ENABLED, Boolean.class);
    }

    public static boolean isPageReadsEnabled(ConnectorSession session)
    {
        return session.getProperty(PAGE_READS_ENABLED, Boolean.class);
    }

    public static boolean isNoMatchCacheEnabled(ConnectorSession session)
    {
        return session.getProperty(NO_MATCH_CACHE_ENABLED, Boolean.class);
    }

    public static AdviceThresholds getAdviceThresholds(ConnectorSession session)
    {
        return new AdviceThresholds(
                session.getProperty(ADVICE_MIN_DISTINCT_VALUES, Long.class),
                session.getProperty(ADVICE_MIN_QUERY_SHARE, Double.class),
                session.getProperty(ADVICE_TARGET_FPP, Double.class));
    }

    public static int getBloomFilterMaxValues(ConnectorSession session)
    {
        return session.getProperty(BLOOM_FILTER_MAX_VALUES, Integer.class);
    }

    public static boolean isDictionaryPruningEnabled(ConnectorSession session)
    {
        return session.getProperty(DICTIONARY_PRUNING_ENABLED, Boolean.class);
    }

    public static int getDictionaryPruningMaxEntries(ConnectorSession session)
    {
        return session.getProperty(DICTIONARY_PRUNING_MAX_ENTRIES, Integer.class);
    }

    public static long getDictionaryPruningSmallFileThreshold(ConnectorSession session)
    {
        return session.getProperty(DICTIONARY_PRUNING_SMALL_FILE_THRESHOLD, DataSize.class).toBytes();
    }
}
