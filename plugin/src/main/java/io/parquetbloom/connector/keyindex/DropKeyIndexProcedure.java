package io.parquetbloom.connector.keyindex;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;

import static io.parquetbloom.connector.keyindex.CreateKeyIndexProcedure.table;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.invoke.MethodHandles.lookup;
import static java.lang.invoke.MethodType.methodType;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.drop_key_index(schema_name, table_name, column_name)}: deletes the column's pointer,
 * then its segments; lookups take the per-file path from then on.
 */
public class DropKeyIndexProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle DROP;

    static {
        try {
            DROP = lookup().findVirtual(DropKeyIndexProcedure.class, "dropKeyIndex", methodType(void.class, ConnectorAccessControl.class, String.class, String.class, String.class));
        }
        catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

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
        SchemaTableName table = table("drop_key_index", schemaName, tableName, columnName);
        accessControl.checkCanInsertIntoTable(null, table);
        builder.drop(table, columnName);
    }
}
