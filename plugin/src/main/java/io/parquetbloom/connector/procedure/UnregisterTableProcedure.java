package io.parquetbloom.connector.procedure;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeConfig;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.unregister_table(schema_name => 's', table_name => 't')}: forgets a registered table,
 * checked as {@code DROP TABLE}. Its files, and a key index kept with them, stay where they are.
 */
public class UnregisterTableProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle UNREGISTER = Procedures.handle(UnregisterTableProcedure.class, "unregisterTable", ConnectorAccessControl.class, String.class, String.class);

    private final LakeTables lakeTables;
    private final boolean enabled;

    @Inject
    public UnregisterTableProcedure(LakeTables lakeTables, LakeConfig config)
    {
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.enabled = config.isRegisterTableProcedureEnabled();
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "unregister_table",
                List.of(
                        new Procedure.Argument("SCHEMA_NAME", VARCHAR),
                        new Procedure.Argument("TABLE_NAME", VARCHAR)),
                UNREGISTER.bindTo(this));
    }

    public void unregisterTable(ConnectorAccessControl accessControl, String schemaName, String tableName)
    {
        Procedures.checkRegistrationEnabled(enabled, "unregister_table");
        SchemaTableName name = Procedures.tableName("unregister_table", schemaName, tableName);
        accessControl.checkCanDropTable(null, name);
        if (!lakeTables.unregister(name, new S3RequestStats())) {
            throw new TableNotFoundException(name, "Table %s is not a registered table (a table found by the folder layout goes away when its folder does)".formatted(name));
        }
    }
}
