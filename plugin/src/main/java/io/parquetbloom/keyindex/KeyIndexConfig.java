package io.parquetbloom.keyindex;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MaxDataSize;
import io.airlift.units.MinDataSize;
import io.airlift.units.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.airlift.units.DataSize.Unit.GIGABYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;

/**
 * How table-level key indexes are used and built.
 */
public class KeyIndexConfig
{
    private boolean enabled = true;
    private DataSize buildMemory = DataSize.of(256, MEGABYTE);
    private String spillDirectory;
    private Duration orphanRetention = new Duration(1, TimeUnit.HOURS);
    private int maxSegments = 8;
    private DataSize uploadPartSize = DataSize.of(64, MEGABYTE);
    private DataSize maxLookupBytes = DataSize.of(1, GIGABYTE);

    public boolean isEnabled()
    {
        return enabled;
    }

    @Config("key-index.enabled")
    @ConfigDescription("Plan lookups on indexed columns from the table's key index (create_key_index) where it covers the listed files")
    public KeyIndexConfig setEnabled(boolean enabled)
    {
        this.enabled = enabled;
        return this;
    }

    @NotNull
    @MinDataSize("64kB")
    public DataSize getBuildMemory()
    {
        return buildMemory;
    }

    @Config("key-index.build-memory")
    @ConfigDescription("Memory a key index build sorts entries in before it spills sorted runs to key-index.spill-directory")
    public KeyIndexConfig setBuildMemory(DataSize buildMemory)
    {
        this.buildMemory = buildMemory;
        return this;
    }

    public Optional<String> getSpillDirectory()
    {
        return Optional.ofNullable(spillDirectory);
    }

    @Config("key-index.spill-directory")
    @ConfigDescription("Local directory for a key index build's sorted runs and the segment it uploads (default: java.io.tmpdir)")
    public KeyIndexConfig setSpillDirectory(String spillDirectory)
    {
        this.spillDirectory = spillDirectory;
        return this;
    }

    @NotNull
    @MinDuration("0s")
    public Duration getOrphanRetention()
    {
        return orphanRetention;
    }

    @Config("key-index.orphan-retention")
    @ConfigDescription("Segments no pointer names are deleted by a build once they are this old (a younger one may belong to a build still running)")
    public KeyIndexConfig setOrphanRetention(Duration orphanRetention)
    {
        this.orphanRetention = orphanRetention;
        return this;
    }

    @NotNull
    @MinDataSize("5MB")
    @MaxDataSize("5GB")
    public DataSize getUploadPartSize()
    {
        return uploadPartSize;
    }

    @Config("key-index.upload-part-size")
    @ConfigDescription("Segments larger than this are uploaded in parts of this size (S3 takes at most 5 GB in one PUT, and parts of at least 5 MB)")
    public KeyIndexConfig setUploadPartSize(DataSize uploadPartSize)
    {
        this.uploadPartSize = uploadPartSize;
        return this;
    }

    @Min(1)
    @Max(1000)
    public int getMaxSegments()
    {
        return maxSegments;
    }

    @Config("key-index.max-segments")
    @ConfigDescription("A refresh that would leave more segments than this merges them all into one (compaction, without reading Parquet)")
    public KeyIndexConfig setMaxSegments(int maxSegments)
    {
        this.maxSegments = maxSegments;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    public DataSize getMaxLookupBytes()
    {
        return maxLookupBytes;
    }

    @Config("key-index.max-lookup-bytes")
    @ConfigDescription("A lookup that would read more of the index than this (a long IN list against a large index) plans without the index instead; pages are read a window at a time whatever the total")
    public KeyIndexConfig setMaxLookupBytes(DataSize maxLookupBytes)
    {
        this.maxLookupBytes = maxLookupBytes;
        return this;
    }
}
