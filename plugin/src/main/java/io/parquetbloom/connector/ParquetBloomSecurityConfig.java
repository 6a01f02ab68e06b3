package io.parquetbloom.connector;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import jakarta.validation.constraints.NotNull;

/**
 * The catalog's own access control, as Trino's Hive, Iceberg and Delta Lake connectors have one
 * ({@code hive.security} and the like), below the server's system access control.
 */
public class ParquetBloomSecurityConfig
{
    public enum SecuritySystem
    {
        /** Only the server's system access control decides. */
        ALLOW_ALL,
        /** The rules of {@code security.config-file} as well (Trino's connector file-based access control). */
        FILE,
    }

    private SecuritySystem securitySystem = SecuritySystem.ALLOW_ALL;

    @NotNull
    public SecuritySystem getSecuritySystem()
    {
        return securitySystem;
    }

    @Config("security")
    @ConfigDescription("The catalog's own access control: ALLOW_ALL (only the server's system access control decides) or FILE (the rules of security.config-file as well); a metadata table (\"t$properties\") is checked by them as its table t")
    public ParquetBloomSecurityConfig setSecuritySystem(SecuritySystem securitySystem)
    {
        this.securitySystem = securitySystem;
        return this;
    }
}
