package io.parquetbloom.connector.procedure;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.keyindex.KeyIndexBuilder;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.drop_key_index(schema_name, table_name, column_name)}: deletes the column's pointer,
 * then its segments; lookups take the per-file path from then on.
 */
public class DropKeyIndexProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle DROP = Procedures.handle(DropKeyIndexProcedure.class, "dropKeyIndex", ConnectorAccessControl.class, String.class, String.class, String.class);

    private final KeyIndexBuilder builder;

    @Inject
    public DropKeyIndexProcedure(KeyIndexBuilder builder)
    {
        this.builder = requireNonNull(builder, "builder is null");
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "drop_key_index",
                List.of(
                        new Procedure.Argument("SCHEMA_NAME", VARCHAR),
                        new Procedure.Argument("TABLE_NAME", VARCHAR),
                        new Procedure.Argument("COLUMN_NAME", VARCHAR)),
                DROP.bindTo(this));
    }

    public void dropKeyIndex(ConnectorAccessControl accessControl, String schemaName, String tableName, String columnName)
    {
        SchemaTableName table = Procedures.keyIndexTable("drop_key_index", schemaName, tableName, columnName);
        accessControl.checkCanInsertIntoTable(null, table);
        builder.drop(table, columnName);
    }
}
