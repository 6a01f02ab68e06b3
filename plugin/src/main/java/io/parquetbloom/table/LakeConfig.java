package io.parquetbloom.table;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.Duration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import static java.util.concurrent.TimeUnit.SECONDS;

/**
 * Where the lake is and how long its listings are trusted.
 */
public class LakeConfig
{
    private String location;
    private Duration listingCacheTtl = new Duration(0, SECONDS);

    @NotNull
    public String getLocation()
    {
        return location;
    }

    @Config("location")
    @ConfigDescription("Root of the lake, s3://bucket/prefix/: schemas are its first-level prefixes, tables the second-level ones")
    public LakeConfig setLocation(String location)
    {
        this.location = location;
        return this;
    }

    @AssertTrue(message = "location must be s3://bucket/ or s3://bucket/prefix/")
    public boolean isLocationValid()
    {
        return location == null || location.matches("s3a?://[a-z0-9][a-z0-9.\\-_]{1,254}(/.*)?");
    }

    @NotNull
    public Duration getListingCacheTtl()
    {
        return listingCacheTtl;
    }

    @Config("metadata.listing-cache-ttl")
    @ConfigDescription("How long a table's file listing is reused across queries (0s: list on every query, so new files are seen at once)")
    public LakeConfig setListingCacheTtl(Duration listingCacheTtl)
    {
        this.listingCacheTtl = listingCacheTtl;
        return this;
    }
}
