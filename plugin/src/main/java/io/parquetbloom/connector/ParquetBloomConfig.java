package io.parquetbloom.connector;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MaxDataSize;
import io.airlift.units.MinDataSize;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import static io.airlift.units.DataSize.Unit.KILOBYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.SECONDS;

public class ParquetBloomConfig
{
    private String location;
    private boolean bloomFilterEnabled = true;
    private boolean statisticsPruningEnabled = true;
    private boolean noMatchCacheEnabled = true;
    private int bloomFilterMaxValues = 100_000;
    private DataSize footerReadSize = DataSize.of(64, KILOBYTE);
    private DataSize maxSplitSize = DataSize.of(128, MEGABYTE);
    private Duration dynamicFilteringWaitTimeout = new Duration(10, SECONDS);
    private DataSize metadataCacheMaxSize = DataSize.of(256, MEGABYTE);
    private int metadataConcurrency = 16;
    private Duration listingCacheTtl = new Duration(0, SECONDS);

    @NotNull
    public String getLocation()
    {
        return location;
    }

    @Config("location")
    @ConfigDescription("Root of the lake, s3://bucket/prefix/: schemas are its first-level prefixes, tables the second-level ones")
    public ParquetBloomConfig setLocation(String location)
    {
        this.location = location;
        return this;
    }

    @AssertTrue(message = "location must be s3://bucket/ or s3://bucket/prefix/")
    public boolean isLocationValid()
    {
        return location == null || location.matches("s3a?://[a-z0-9][a-z0-9.\\-_]{1,254}(/.*)?");
    }

    public boolean isBloomFilterEnabled()
    {
        return bloomFilterEnabled;
    }

    @Config("bloom-filter.enabled")
    @ConfigDescription("Skip row groups whose Parquet bloom filters exclude every value of an equality, IN or dynamic filter")
    public ParquetBloomConfig setBloomFilterEnabled(boolean bloomFilterEnabled)
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
    public ParquetBloomConfig setStatisticsPruningEnabled(boolean statisticsPruningEnabled)
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
    public ParquetBloomConfig setNoMatchCacheEnabled(boolean noMatchCacheEnabled)
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
    public ParquetBloomConfig setBloomFilterMaxValues(int bloomFilterMaxValues)
    {
        this.bloomFilterMaxValues = bloomFilterMaxValues;
        return this;
    }

    @NotNull
    @MinDataSize("8B")
    @MaxDataSize("16MB")
    public DataSize getFooterReadSize()
    {
        return footerReadSize;
    }

    @Config("footer.read-size")
    @ConfigDescription("Size of the first tail read of a file; a second read happens only when the footer is larger")
    public ParquetBloomConfig setFooterReadSize(DataSize footerReadSize)
    {
        this.footerReadSize = footerReadSize;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    public DataSize getMaxSplitSize()
    {
        return maxSplitSize;
    }

    @Config("split.max-size")
    @ConfigDescription("Files larger than this are split on row-group boundaries")
    public ParquetBloomConfig setMaxSplitSize(DataSize maxSplitSize)
    {
        this.maxSplitSize = maxSplitSize;
        return this;
    }

    @NotNull
    public Duration getDynamicFilteringWaitTimeout()
    {
        return dynamicFilteringWaitTimeout;
    }

    @Config("dynamic-filtering.wait-timeout")
    @ConfigDescription("How long split generation waits for a join's dynamic filter, so its keys can prune row groups")
    public ParquetBloomConfig setDynamicFilteringWaitTimeout(Duration dynamicFilteringWaitTimeout)
    {
        this.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        return this;
    }

    @NotNull
    public DataSize getMetadataCacheMaxSize()
    {
        return metadataCacheMaxSize;
    }

    @Config("metadata-cache.max-size")
    @ConfigDescription("Memory for footers and bloom filters cached across queries on each node (0 disables the cache)")
    public ParquetBloomConfig setMetadataCacheMaxSize(DataSize metadataCacheMaxSize)
    {
        this.metadataCacheMaxSize = metadataCacheMaxSize;
        return this;
    }

    @Min(1)
    @Max(256)
    public int getMetadataConcurrency()
    {
        return metadataConcurrency;
    }

    @Config("metadata.concurrency")
    @ConfigDescription("Files whose footers and filters the coordinator reads at the same time for one query when it prunes files before splitting")
    public ParquetBloomConfig setMetadataConcurrency(int metadataConcurrency)
    {
        this.metadataConcurrency = metadataConcurrency;
        return this;
    }

    @NotNull
    public Duration getListingCacheTtl()
    {
        return listingCacheTtl;
    }

    @Config("metadata.listing-cache-ttl")
    @ConfigDescription("How long a table's file listing is reused across queries (0s: list on every query, so new files are seen at once)")
    public ParquetBloomConfig setListingCacheTtl(Duration listingCacheTtl)
    {
        this.listingCacheTtl = listingCacheTtl;
        return this;
    }
}
