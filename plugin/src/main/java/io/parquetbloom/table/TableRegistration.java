package io.parquetbloom.table;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import static java.util.Objects.requireNonNull;

/**
 * One registered table as its registry object stores it (JSON). {@code formatVersion} lets a later version of the
 * connector change the object without an older one misreading it: an older connector refuses a newer version.
 */
public record TableRegistration(int formatVersion, String schemaName, String tableName, String location)
{
    public static final int CURRENT_VERSION = 1;

    @JsonCreator
    public TableRegistration(
            @JsonProperty("formatVersion") int formatVersion,
            @JsonProperty("schemaName") String schemaName,
            @JsonProperty("tableName") String tableName,
            @JsonProperty("location") String location)
    {
        this.formatVersion = formatVersion;
        this.schemaName = requireNonNull(schemaName, "schemaName is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.location = requireNonNull(location, "location is null");
    }

    @Override
    @JsonProperty
    public int formatVersion()
    {
        return formatVersion;
    }

    @Override
    @JsonProperty
    public String schemaName()
    {
        return schemaName;
    }

    @Override
    @JsonProperty
    public String tableName()
    {
        return tableName;
    }

    @Override
    @JsonProperty
    public String location()
    {
        return location;
    }
}
