package io.parquetbloom.metadata;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.MaxDataSize;
import io.airlift.units.MinDataSize;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;

import static io.airlift.units.DataSize.Unit.GIGABYTE;
import static io.airlift.units.DataSize.Unit.KILOBYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

/**
 * How footers and bloom filters are read and how much of them each node keeps.
 */
public class MetadataConfig
{
    private DataSize footerReadSize = DataSize.of(64, KILOBYTE);
    private DataSize metadataCacheMaxSize = DataSize.of(256, MEGABYTE);
    private int metadataConcurrency = 128;
    private String metadataCacheDiskDirectory;
    private DataSize metadataCacheDiskMaxSize = DataSize.of(10, GIGABYTE);

    @NotNull
    @MinDataSize("8B")
    @MaxDataSize("16MB")
    public DataSize getFooterReadSize()
    {
        return footerReadSize;
    }

    @Config("footer.read-size")
    @ConfigDescription("Size of the first tail read of a file; a second read happens only when the footer is larger")
    public MetadataConfig setFooterReadSize(DataSize footerReadSize)
    {
        this.footerReadSize = footerReadSize;
        return this;
    }

    @NotNull
    public DataSize getMetadataCacheMaxSize()
    {
        return metadataCacheMaxSize;
    }

    @Config("metadata-cache.max-size")
    @ConfigDescription("Memory for footers, bloom filters, dictionaries and no-match facts cached across queries on each node (0 disables the cache)")
    public MetadataConfig setMetadataCacheMaxSize(DataSize metadataCacheMaxSize)
    {
        this.metadataCacheMaxSize = metadataCacheMaxSize;
        return this;
    }

    public Optional<String> getMetadataCacheDiskDirectory()
    {
        return Optional.ofNullable(metadataCacheDiskDirectory);
    }

    @Config("metadata-cache.disk.directory")
    @ConfigDescription("Local directory for a second tier of footers and bloom filters below the memory cache, kept across restarts (unset: no disk tier)")
    public MetadataConfig setMetadataCacheDiskDirectory(String metadataCacheDiskDirectory)
    {
        this.metadataCacheDiskDirectory = metadataCacheDiskDirectory;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    public DataSize getMetadataCacheDiskMaxSize()
    {
        return metadataCacheDiskMaxSize;
    }

    @Config("metadata-cache.disk.max-size")
    @ConfigDescription("Disk space the disk tier may use in metadata-cache.disk.directory; least recently used entries are evicted beyond it")
    public MetadataConfig setMetadataCacheDiskMaxSize(DataSize metadataCacheDiskMaxSize)
    {
        this.metadataCacheDiskMaxSize = metadataCacheDiskMaxSize;
        return this;
    }

    @Min(1)
    @Max(1024)
    public int getMetadataConcurrency()
    {
        return metadataConcurrency;
    }

    @Config("metadata.concurrency")
    @ConfigDescription("Files whose footers and filters the coordinator reads at the same time for one query when it prunes files before splitting")
    public MetadataConfig setMetadataConcurrency(int metadataConcurrency)
    {
        this.metadataConcurrency = metadataConcurrency;
        return this;
    }
}
