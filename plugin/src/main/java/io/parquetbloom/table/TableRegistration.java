package io.parquetbloom.table;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One registered table as its registry object stores it (JSON). {@code formatVersion} lets a later version of the
 * connector change the object without an older one misreading it: an older connector refuses a newer version.
 *
 * @param metadataFile the table format's metadata file the registration pins ({@code metadata_file_name}): written as
 * version {@value #PINNED_VERSION}, which a connector that would ignore the pin refuses, rather than read another file
 */
public record TableRegistration(int formatVersion, String schemaName, String tableName, String location, Optional<String> metadataFile)
{
    public static final int CURRENT_VERSION = 2;
    public static final int UNPINNED_VERSION = 1;
    public static final int PINNED_VERSION = 2;

    public static TableRegistration of(String schemaName, String tableName, String location, Optional<String> metadataFile)
    {
        return new TableRegistration(metadataFile.isPresent() ? PINNED_VERSION : UNPINNED_VERSION, schemaName, tableName, location, metadataFile);
    }

    @JsonCreator
    public TableRegistration(
            @JsonProperty("formatVersion") int formatVersion,
            @JsonProperty("schemaName") String schemaName,
            @JsonProperty("tableName") String tableName,
            @JsonProperty("location") String location,
            @JsonProperty("metadataFile") Optional<String> metadataFile)
    {
        this.metadataFile = metadataFile == null ? Optional.empty() : metadataFile;
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

    @Override
    @JsonProperty
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public Optional<String> metadataFile()
    {
        return metadataFile;
    }
}
