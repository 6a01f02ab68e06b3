package io.parquetbloom.delta;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import jakarta.validation.constraints.Min;

/**
 * How Delta Lake tables are read.
 */
public class DeltaConfig
{
    private boolean enabled = true;
    private int snapshotCacheMaxEntries = 64;

    public boolean isEnabled()
    {
        return enabled;
    }

    @Config("delta.enabled")
    @ConfigDescription("Read a folder holding a Delta Lake table (_delta_log/) through its log: only its live files, deletion vectors applied, columns as its column mapping says; when false, such a folder is refused naming the format")
    public DeltaConfig setEnabled(boolean enabled)
    {
        this.enabled = enabled;
        return this;
    }

    @Min(0)
    public int getSnapshotCacheMaxEntries()
    {
        return snapshotCacheMaxEntries;
    }

    @Config("delta.snapshot-cache.max-entries")
    @ConfigDescription("Delta Lake table versions kept replayed in memory (its live files, schema and statistics): a query of a cached table lists only the log's commits after its version and reads only those; 0 replays the log for every query")
    public DeltaConfig setSnapshotCacheMaxEntries(int snapshotCacheMaxEntries)
    {
        this.snapshotCacheMaxEntries = snapshotCacheMaxEntries;
        return this;
    }
}
