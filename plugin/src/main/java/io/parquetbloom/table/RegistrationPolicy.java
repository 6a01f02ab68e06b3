package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.PERMISSION_DENIED;
import static java.util.Objects.requireNonNull;

/**
 * Where a registered table may be: inside {@code register-table-procedure.allowed-locations} (by default only inside
 * the catalog's {@code location}), checked when a table is registered and again whenever a registration is read, so
 * that narrowing the list takes effect on registrations made before. Access rules name tables, not locations: a
 * registration anywhere the catalog's credentials reach would be a way around them.
 */
final class RegistrationPolicy
{
    private final List<S3Location> allowed;
    private final boolean allowAliases;
    private final boolean anywhere;

    RegistrationPolicy(LakeConfig config)
    {
        requireNonNull(config, "config is null");
        List<String> locations = config.getRegisterTableAllowedLocations().isEmpty() ? List.of(config.getLocation()) : config.getRegisterTableAllowedLocations();
        this.anywhere = locations.contains(LakeConfig.ANY_LOCATION);
        this.allowed = locations.stream().filter(location -> !location.equals(LakeConfig.ANY_LOCATION)).map(location -> S3Location.parse(location).asPrefix()).toList();
        this.allowAliases = config.isRegisterTableAllowAliases();
    }

    boolean allowsAliases()
    {
        return allowAliases;
    }

    void checkAllowed(SchemaTableName name, S3Location location)
    {
        if (!anywhere && allowed.stream().noneMatch(prefix -> contains(prefix, location))) {
            throw new TrinoException(PERMISSION_DENIED, "Table %s: %s is outside the locations registered tables may be at (register-table-procedure.allowed-locations: %s)".formatted(
                    name, location.asPrefix(), allowed));
        }
    }

    /**
     * Refuses {@code .} and {@code ..} as names: stores that map keys to files (S3Proxy's filesystem backend, some
     * gateways) resolve them, so a registry or index key with such a segment would name another key.
     */
    static void checkName(String kind, String name)
    {
        if (name.equals(".") || name.equals("..")) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "'%s' cannot be a %s name".formatted(name, kind));
        }
    }

    /**
     * Refuses a location with an empty, {@code .} or {@code ..} folder: S3 keeps them as written, stores that map
     * keys to files resolve them, and an allow-list checked on the written form would not hold on the resolved one.
     */
    static void checkLocation(SchemaTableName name, S3Location location)
    {
        String key = location.asPrefix().key();
        if (key.isEmpty()) {
            return;
        }
        for (String segment : key.substring(0, key.length() - 1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "Table %s at %s: a registered location's folders cannot be empty, '.' or '..'".formatted(name, location));
            }
        }
    }

    /**
     * Whether {@code outer} is {@code inner} or one of its ancestors (both as folders).
     */
    static boolean contains(S3Location outer, S3Location inner)
    {
        return outer.bucket().equals(inner.bucket()) && inner.asPrefix().key().startsWith(outer.asPrefix().key());
    }

    /**
     * Whether one of the two folders is the other or inside it.
     */
    static boolean overlaps(S3Location left, S3Location right)
    {
        return contains(left, right) || contains(right, left);
    }
}
