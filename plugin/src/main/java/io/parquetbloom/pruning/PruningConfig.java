package io.parquetbloom.pruning;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.MaxDataSize;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import static io.airlift.units.DataSize.Unit.MEGABYTE;

/**
 * Which row-group pruning paths are on by default; each has a session property of the same name.
 */
public class PruningConfig
{
    private boolean bloomFilterEnabled = true;
    private boolean statisticsPruningEnabled = true;
    private boolean noMatchCacheEnabled = true;
    private int bloomFilterMaxValues = 100_000;
    private boolean dictionaryPruningEnabled = true;
    private boolean pageReadsEnabled = true;
    private int dictionaryPruningMaxEntries = 32_768;
    private DataSize dictionaryPruningSmallFileThreshold = DataSize.of(3, MEGABYTE);

    public boolean isBloomFilterEnabled()
    {
        return bloomFilterEnabled;
    }

    @Config("bloom-filter.enabled")
    @ConfigDescription("Skip row groups whose Parquet bloom filters exclude every value of an equality, IN or dynamic filter")
    public PruningConfig setBloomFilterEnabled(boolean bloomFilterEnabled)
    {
        this.bloomFilterEnabled = bloomFilterEnabled;
        return this;
    }

    public boolean isStatisticsPruningEnabled()
    {
        return statisticsPruningEnabled;
    }

    @Config("statistics-pruning.enabled")
    @ConfigDescription("Skip row groups whose min/max/null-count statistics exclude the predicate")
    public PruningConfig setStatisticsPruningEnabled(boolean statisticsPruningEnabled)
    {
        this.statisticsPruningEnabled = statisticsPruningEnabled;
        return this;
    }

    public boolean isNoMatchCacheEnabled()
    {
        return noMatchCacheEnabled;
    }

    @Config("no-match-cache.enabled")
    @ConfigDescription("Remember row groups that were read and held no row of a column's predicate (bloom filter false positives), and skip them when the same predicate comes again")
    public PruningConfig setNoMatchCacheEnabled(boolean noMatchCacheEnabled)
    {
        this.noMatchCacheEnabled = noMatchCacheEnabled;
        return this;
    }

    @Min(1)
    @Max(10_000_000)
    public int getBloomFilterMaxValues()
    {
        return bloomFilterMaxValues;
    }

    @Config("bloom-filter.max-values")
    @ConfigDescription("Most values of one column (IN list or dynamic filter) to probe bloom filters with; larger sets skip bloom pruning for that column")
    public PruningConfig setBloomFilterMaxValues(int bloomFilterMaxValues)
    {
        this.bloomFilterMaxValues = bloomFilterMaxValues;
        return this;
    }

    public boolean isDictionaryPruningEnabled()
    {
        return dictionaryPruningEnabled;
    }

    @Config("dictionary-pruning.enabled")
    @ConfigDescription("Skip row groups whose column chunk is entirely dictionary-encoded and whose dictionary holds no value of an equality, IN or dynamic filter")
    public PruningConfig setDictionaryPruningEnabled(boolean dictionaryPruningEnabled)
    {
        this.dictionaryPruningEnabled = dictionaryPruningEnabled;
        return this;
    }

    public boolean isPageReadsEnabled()
    {
        return pageReadsEnabled;
    }

    @Config("page-reads.enabled")
    @ConfigDescription("Read a row group that may hold few wanted rows by pages: its filter columns first, then of the other columns only the pages (by their offset index) that hold matching rows")
    public PruningConfig setPageReadsEnabled(boolean pageReadsEnabled)
    {
        this.pageReadsEnabled = pageReadsEnabled;
        return this;
    }

    @Min(1)
    @Max(1_000_000)
    public int getDictionaryPruningMaxEntries()
    {
        return dictionaryPruningMaxEntries;
    }

    @Config("dictionary-pruning.max-entries")
    @ConfigDescription("Largest dictionary (entries) read to prune a row group; larger dictionaries are not used")
    public PruningConfig setDictionaryPruningMaxEntries(int dictionaryPruningMaxEntries)
    {
        this.dictionaryPruningMaxEntries = dictionaryPruningMaxEntries;
        return this;
    }

    @NotNull
    @MaxDataSize("1GB")
    public DataSize getDictionaryPruningSmallFileThreshold()
    {
        return dictionaryPruningSmallFileThreshold;
    }

    @Config("dictionary-pruning.small-file-threshold")
    @ConfigDescription("With dictionary pruning on, a file of at most this size is read whole when its footer is read for pruning, so that its dictionaries come with the same GET (as Trino's Parquet reader reads small files)")
    public PruningConfig setDictionaryPruningSmallFileThreshold(DataSize dictionaryPruningSmallFileThreshold)
    {
        this.dictionaryPruningSmallFileThreshold = dictionaryPruningSmallFileThreshold;
        return this;
    }
}
