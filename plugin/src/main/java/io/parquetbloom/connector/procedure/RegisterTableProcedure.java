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
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.register_table(schema_name => 's', table_name => 't', table_location => 's3://…/')}:
 * names the Parquet files under any prefix as a table, as Trino's Iceberg and Delta Lake connectors name theirs, and
 * checked by access control the same way (as {@code CREATE TABLE}). The location is listed first: one that holds no
 * data files, belongs to a table format, or is in a bucket the catalog cannot read fails here, and nothing is recorded.
 * For an Iceberg table, {@code metadata_file_name} pins the metadata file read (a name in its {@code metadata/}
 * folder, as Trino's Iceberg connector takes it), instead of the newest one found there.
 */
public class RegisterTableProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle REGISTER = Procedures.handle(RegisterTableProcedure.class, "registerTable", ConnectorAccessControl.class, String.class, String.class, String.class, String.class);
    // <version>-<uuid>.metadata.json and v<version>.metadata.json, gzipped or not: a name, never a path
    private static final String METADATA_FILE_NAME = "[A-Za-z0-9][A-Za-z0-9._-]*\\.metadata\\.json(\\.gz)?";

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
                        new Procedure.Argument("TABLE_LOCATION", VARCHAR),
                        new Procedure.Argument("METADATA_FILE_NAME", VARCHAR, false, null)),
                REGISTER.bindTo(this));
    }

    public void registerTable(ConnectorAccessControl accessControl, String schemaName, String tableName, String tableLocation, String metadataFileName)
    {
        Procedures.checkRegistrationEnabled(enabled, "register_table");
        SchemaTableName name = Procedures.tableName("register_table", schemaName, tableName);
        if (tableLocation == null || tableLocation.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "register_table: table_location cannot be null or empty");
        }
        S3Location location = parseLocation(tableLocation);
        Optional<String> metadataFile = Optional.ofNullable(metadataFileName);
        if (metadataFile.isPresent() && !metadataFile.get().matches(METADATA_FILE_NAME)) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "register_table: metadata_file_name must be the name of a metadata file in the table's metadata/ folder (such as 00003-<uuid>.metadata.json), not '%s'".formatted(metadataFileName));
        }
        accessControl.checkCanCreateTable(null, name, Map.of());
        S3RequestStats stats = new S3RequestStats();
        if (lakeTables.findTable(name, stats).isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "register_table: table %s already exists".formatted(name));
        }
        lakeTables.register(name, location, metadataFile, stats);
    }

    private static S3Location parseLocation(String tableLocation)
    {
        if (!tableLocation.matches("s3a?://[a-z0-9][a-z0-9.\\-_]{1,254}(/.*)?")) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "register_table: table_location must be s3://bucket/ or s3://bucket/prefix/, not '%s'".formatted(tableLocation));
        }
        return S3Location.parse(tableLocation).asPrefix();
    }
}
