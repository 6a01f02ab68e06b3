package io.parquetbloom.iceberg;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.MinDataSize;
import jakarta.validation.constraints.NotNull;

import static io.airlift.units.DataSize.Unit.MEGABYTE;

/**
 * How Iceberg tables are read.
 */
public class IcebergConfig
{
    private boolean enabled = true;
    private DataSize fileCacheMaxSize = DataSize.of(64, MEGABYTE);

    public boolean isEnabled()
    {
        return enabled;
    }

    @Config("iceberg.enabled")
    @ConfigDescription("Read a folder holding an Iceberg table (metadata/*.metadata.json) through its metadata: only its live files, columns by field id; when false, such a folder is refused naming the format")
    public IcebergConfig setEnabled(boolean enabled)
    {
        this.enabled = enabled;
        return this;
    }

    @NotNull
    @MinDataSize("0B")
    public DataSize getFileCacheMaxSize()
    {
        return fileCacheMaxSize;
    }

    @Config("iceberg.file-cache.max-size")
    @ConfigDescription("Memory for the bytes of Iceberg metadata, manifest list and manifest files, kept by path (they are never rewritten); 0B turns the cache off")
    public IcebergConfig setFileCacheMaxSize(DataSize fileCacheMaxSize)
    {
        this.fileCacheMaxSize = fileCacheMaxSize;
        return this;
    }
}
