package io.parquetbloom.connector;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MinDataSize;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static java.util.concurrent.TimeUnit.SECONDS;

/**
 * How a scan becomes splits. The other catalog properties live with their concern: {@code LakeConfig} (table
 * discovery), {@code MetadataConfig} (footers, filters, the cache), {@code PruningConfig}, {@code S3Config}.
 */
public class ParquetBloomConfig
{
    private DataSize maxSplitSize = DataSize.of(128, MEGABYTE);
    private Duration dynamicFilteringWaitTimeout = new Duration(10, SECONDS);
    private int splitReadAheadFiles = 4;

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

    @Min(0)
    @Max(32)
    public int getSplitReadAheadFiles()
    {
        return splitReadAheadFiles;
    }

    @Config("split.read-ahead-files")
    @ConfigDescription("Small files a reader opens ahead of the one it reads, so their GETs overlap S3's latency; the splits of small files are grouped per worker for it. 0 reads one file per split, one at a time")
    public ParquetBloomConfig setSplitReadAheadFiles(int splitReadAheadFiles)
    {
        this.splitReadAheadFiles = splitReadAheadFiles;
        return this;
    }
}
