package io.parquetbloom.connector.procedure;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.connector.QueryCancellations;
import io.parquetbloom.keyindex.KeyIndexBuilder;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.create_key_index(schema_name, table_name, column_name)}: builds the column's
 * table-level key index, or refreshes it with a segment for the files added or rewritten since (see
 * {@link KeyIndexBuilder}). Running it again on an unchanged table reads no Parquet.
 */
public class CreateKeyIndexProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle CREATE = Procedures.handle(CreateKeyIndexProcedure.class, "createKeyIndex", ConnectorSession.class, ConnectorAccessControl.class, String.class, String.class, String.class);

    private final KeyIndexBuilder builder;
    private final QueryCancellations cancellations;

    @Inject
    public CreateKeyIndexProcedure(KeyIndexBuilder builder, QueryCancellations cancellations)
    {
        this.builder = requireNonNull(builder, "builder is null");
        this.cancellations = requireNonNull(cancellations, "cancellations is null");
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "create_key_index",
                List.of(
                        new Procedure.Argument("SCHEMA_NAME", VARCHAR),
                        new Procedure.Argument("TABLE_NAME", VARCHAR),
                        new Procedure.Argument("COLUMN_NAME", VARCHAR)),
                CREATE.bindTo(this));
    }

    public void createKeyIndex(ConnectorSession session, ConnectorAccessControl accessControl, String schemaName, String tableName, String columnName)
    {
        SchemaTableName table = Procedures.keyIndexTable("create_key_index", schemaName, tableName, columnName);
        // the index is written into the table's folder: who may not write to the table may not build it
        // (the check also tells the connector which transaction this query runs in, whose rollback stops the build)
        accessControl.checkCanInsertIntoTable(null, table);
        builder.build(table, columnName, cancellations.cancelled(session.getQueryId()));
    }
}
