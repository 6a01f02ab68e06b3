package io.parquetbloom.connector.procedure;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.lang.invoke.MethodHandle;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.PERMISSION_DENIED;
import static java.lang.invoke.MethodHandles.lookup;
import static java.lang.invoke.MethodType.methodType;

/**
 * What the catalog's procedures share: the handle Trino calls, and the checks of their arguments, so that every
 * procedure names itself and the argument at fault the same way.
 */
final class Procedures
{
    private Procedures() {}

    /**
     * The public {@code void} method {@code name} of {@code procedure}, taking {@code parameters}.
     */
    static MethodHandle handle(Class<?> procedure, String name, Class<?>... parameters)
    {
        try {
            return lookup().findVirtual(procedure, name, methodType(void.class, parameters));
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static void checkRegistrationEnabled(boolean enabled, String procedure)
    {
        if (!enabled) {
            throw new TrinoException(PERMISSION_DENIED, "%s procedure is disabled: a catalog administrator turns it on with register-table-procedure.enabled=true (and register-table-procedure.allowed-locations for locations outside the catalog's location)".formatted(procedure));
        }
    }

    /**
     * The table a registration names: both names present, and no {@code $} (which names metadata tables).
     */
    static SchemaTableName tableName(String procedure, String schemaName, String tableName)
    {
        if (schemaName == null || schemaName.isEmpty()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: schema_name cannot be null or empty".formatted(procedure));
        }
        if (tableName == null || tableName.isEmpty()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: table_name cannot be null or empty".formatted(procedure));
        }
        if (tableName.indexOf('$') >= 0) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: table_name cannot contain '$' (it names metadata tables): %s".formatted(procedure, tableName));
        }
        return new SchemaTableName(schemaName, tableName);
    }

    /**
     * The table of a key index procedure, whose three arguments are all required.
     */
    static SchemaTableName keyIndexTable(String procedure, String schemaName, String tableName, String columnName)
    {
        if (schemaName == null || tableName == null || columnName == null) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s: schema_name, table_name and column_name are required".formatted(procedure));
        }
        return new SchemaTableName(schemaName, tableName);
    }
}
