package io.parquetbloom.connector.procedure;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeConfig;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.register_table(schema_name => 's', table_name => 't', table_location => 's3://…/')}:
 * names the Parquet files under any prefix as a table, as Trino's Iceberg and Delta Lake connectors name theirs, and
 * checked by access control the same way (as {@code CREATE TABLE}). The location is listed first: one that holds no
 * data files, belongs to a table format, or is in a bucket the catalog cannot read fails here, and nothing is recorded.
 */
public class RegisterTableProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle REGISTER = Procedures.handle(RegisterTableProcedure.class, "registerTable", ConnectorAccessControl.class, String.class, String.class, String.class);

    private final LakeTables lakeTables;
    private final boolean enabled;

    @Inject
    public RegisterTableProcedure(LakeTables lakeTables, LakeConfig config)
    {
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.enabled = config.isRegisterTableProcedureEnabled();
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "register_table",
                List.of(
                        new Procedure.Argument("SCHEMA_NAME", VARCHAR),
                        new Procedure.Argument("TABLE_NAME", VARCHAR),
                        new Procedure.Argument("TABLE_LOCATION", VARCHAR)),
                REGISTER.bindTo(this));
    }

    public void registerTable(ConnectorAccessControl accessControl, String schemaName, String tableName, String tableLocation)
    {
        Procedures.checkRegistrationEnabled(enabled, "register_table");
        SchemaTableName name = Procedures.tableName("register_table", schemaName, tableName);
        if (tableLocation == null || tableLocation.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "register_table: table_location cannot be null or empty");
        }
        S3Location location = parseLocation(tableLocation);
        accessControl.checkCanCreateTable(null, name, Map.of());
        S3RequestStats stats = new S3RequestStats();
        if (lakeTables.findTable(name, stats).isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "register_table: table %s already exists".formatted(name));
        }
        lakeTables.register(name, location, stats);
    }

    private static S3Location parseLocation(String tableLocation)
    {
        if (!tableLocation.matches("s3a?://[a-z0-9][a-z0-9.\\-_]{1,254}(/.*)?")) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "register_table: table_location must be s3://bucket/ or s3://bucket/prefix/, not '%s'".formatted(tableLocation));
        }
        return S3Location.parse(tableLocation).asPrefix();
    }
}
