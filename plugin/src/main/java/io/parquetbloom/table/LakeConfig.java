package io.parquetbloom.table;

import com.google.common.collect.ImmutableList;
import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.Duration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;

import java.util.List;
import java.util.Optional;

import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;

/**
 * Where the lake is, where registered tables are recorded, how long listings are trusted, and how a table's columns
 * follow its files.
 */
public class LakeConfig
{
    public static final String ANY_LOCATION = "*";
    private static final String LOCATION_PATTERN = "s3a?://[a-z0-9][a-z0-9.\\-_]{1,254}(/.*)?";

    private String location;
    private String tableRegistryLocation;
    private String keyIndexLocation;
    private boolean registerTableProcedureEnabled;
    private List<String> registerTableAllowedLocations = ImmutableList.of();
    private boolean registerTableAllowAliases;
    private boolean schemaUnionByName;
    private Duration listingCacheTtl = new Duration(0, SECONDS);
    private Duration sharedListingMaxAge = new Duration(10, SECONDS);
    private Duration schemaCacheTtl = new Duration(1, MINUTES);

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
        return location == null || location.matches(LOCATION_PATTERN);
    }

    public Optional<String> getTableRegistryLocation()
    {
        return Optional.ofNullable(tableRegistryLocation);
    }

    @Config("table-registry.location")
    @ConfigDescription("Where register_table records tables, s3://bucket/prefix/ (default: _parquet_bloom_registry/ under location); set it to keep the connector's writes out of a read-only lake")
    public LakeConfig setTableRegistryLocation(String tableRegistryLocation)
    {
        this.tableRegistryLocation = tableRegistryLocation;
        return this;
    }

    @AssertTrue(message = "table-registry.location must be s3://bucket/ or s3://bucket/prefix/")
    public boolean isTableRegistryLocationValid()
    {
        return tableRegistryLocation == null || tableRegistryLocation.matches(LOCATION_PATTERN);
    }

    public Optional<String> getKeyIndexLocation()
    {
        return Optional.ofNullable(keyIndexLocation);
    }

    @Config("key-index.location")
    @ConfigDescription("Where create_key_index keeps indexes, s3://bucket/prefix/<schema>/<table>/_key_index/ (default: each table's own _key_index/ folder); set it to keep the connector's writes out of a read-only lake")
    public LakeConfig setKeyIndexLocation(String keyIndexLocation)
    {
        this.keyIndexLocation = keyIndexLocation;
        return this;
    }

    @AssertTrue(message = "key-index.location must be s3://bucket/ or s3://bucket/prefix/")
    public boolean isKeyIndexLocationValid()
    {
        return keyIndexLocation == null || keyIndexLocation.matches(LOCATION_PATTERN);
    }

    public boolean isRegisterTableProcedureEnabled()
    {
        return registerTableProcedureEnabled;
    }

    @Config("register-table-procedure.enabled")
    @ConfigDescription("Allow CALL system.register_table and system.unregister_table, and CREATE SCHEMA and DROP SCHEMA of the schemas registered tables are in (each still checked by access control). Off by default, as in Trino's Iceberg and Delta Lake connectors: a registration gives a second name to whatever it points to")
    public LakeConfig setRegisterTableProcedureEnabled(boolean registerTableProcedureEnabled)
    {
        this.registerTableProcedureEnabled = registerTableProcedureEnabled;
        return this;
    }

    @NotNull
    public List<String> getRegisterTableAllowedLocations()
    {
        return registerTableAllowedLocations;
    }

    @Config("register-table-procedure.allowed-locations")
    @ConfigDescription("Comma-separated s3:// prefixes a registered table may be at (default: only below location), or * for anywhere the catalog's credentials reach; a registration elsewhere is refused, and one already recorded elsewhere is not read")
    public LakeConfig setRegisterTableAllowedLocations(List<String> registerTableAllowedLocations)
    {
        this.registerTableAllowedLocations = ImmutableList.copyOf(registerTableAllowedLocations);
        return this;
    }

    @AssertTrue(message = "register-table-procedure.allowed-locations must be s3://bucket/ or s3://bucket/prefix/ locations")
    public boolean isRegisterTableAllowedLocationsValid()
    {
        return registerTableAllowedLocations.stream().allMatch(allowed -> allowed.equals(ANY_LOCATION) || allowed.matches(LOCATION_PATTERN));
    }

    public boolean isRegisterTableAllowAliases()
    {
        return registerTableAllowAliases;
    }

    @Config("register-table-procedure.allow-aliases")
    @ConfigDescription("Allow a registration at, inside or containing another table's location (a second name for its files, which access rules on the first name do not cover)")
    public LakeConfig setRegisterTableAllowAliases(boolean registerTableAllowAliases)
    {
        this.registerTableAllowAliases = registerTableAllowAliases;
        return this;
    }

    public boolean isSchemaUnionByName()
    {
        return schemaUnionByName;
    }

    @Config("schema.union-by-name")
    @ConfigDescription("A table's columns are the union of every file's columns by name (reads every footer), rather than the columns of its newest file")
    public LakeConfig setSchemaUnionByName(boolean schemaUnionByName)
    {
        this.schemaUnionByName = schemaUnionByName;
        return this;
    }

    @NotNull
    public Duration getListingCacheTtl()
    {
        return listingCacheTtl;
    }

    @NotNull
    public Duration getSchemaCacheTtl()
    {
        return schemaCacheTtl;
    }

    @Config("metadata.schema-cache-ttl")
    @ConfigDescription("How long a table's columns (the newest file's, and its partition folders with their types) are reused across queries before all its files are listed again; a query whose predicate selects partitions then lists only those (0s: list the whole table on every query)")
    public LakeConfig setSchemaCacheTtl(Duration schemaCacheTtl)
    {
        this.schemaCacheTtl = schemaCacheTtl;
        return this;
    }

    @NotNull
    public Duration getSharedListingMaxAge()
    {
        return sharedListingMaxAge;
    }

    @Config("metadata.shared-listing-max-age")
    @ConfigDescription("A query submitted before a listing of its table began uses that listing, if it began at most this long ago, instead of listing the table again: S3 lists every object written before a listing begins, so the query still sees every file written before it was submitted. Under load most queries waited in Trino's queue and share one listing (0s: every query lists)")
    public LakeConfig setSharedListingMaxAge(Duration sharedListingMaxAge)
    {
        this.sharedListingMaxAge = sharedListingMaxAge;
        return this;
    }

    @Config("metadata.listing-cache-ttl")
    @ConfigDescription("How long a table's file listing is reused across queries (0s: list on every query, so new files are seen at once)")
    public LakeConfig setListingCacheTtl(Duration listingCacheTtl)
    {
        this.listingCacheTtl = listingCacheTtl;
        return this;
    }
}
