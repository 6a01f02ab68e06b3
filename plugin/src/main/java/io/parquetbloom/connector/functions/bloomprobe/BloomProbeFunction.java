package io.parquetbloom.connector.functions.bloomprobe;

import io.airlift.slice.Slice;
import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.connector.ParquetBloomMetadata;
import io.parquetbloom.connector.ParquetBloomTableHandle;
import io.parquetbloom.connector.ParquetBloomTransactionManager;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnSchema;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.function.table.AbstractConnectorTableFunction;
import io.trino.spi.function.table.Argument;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.ReturnTypeSpecification;
import io.trino.spi.function.table.ScalarArgument;
import io.trino.spi.function.table.ScalarArgumentSpecification;
import io.trino.spi.function.table.TableFunctionAnalysis;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.COLUMN_NOT_FOUND;
import static io.trino.spi.StandardErrorCode.INVALID_FUNCTION_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code TABLE(<catalog>.system.bloom_probe(schema_name => ..., table_name => ..., column_name => ..., value => ...))}:
 * per file and row group, what statistics, the bloom filter and the no-match cache say of {@code column = value},
 * and whether a lookup with this session's settings reads the row group.
 */
public class BloomProbeFunction
        extends AbstractConnectorTableFunction
{
    static final Descriptor COLUMNS = new Descriptor(List.of(
            new Descriptor.Field("file_path", Optional.of(VARCHAR)),
            new Descriptor.Field("partition", Optional.of(VARCHAR)),
            new Descriptor.Field("row_group", Optional.of(INTEGER)),
            new Descriptor.Field("row_count", Optional.of(BIGINT)),
            new Descriptor.Field("statistics", Optional.of(VARCHAR)),
            new Descriptor.Field("bloom_filter", Optional.of(VARCHAR)),
            new Descriptor.Field("dictionary", Optional.of(VARCHAR)),
            new Descriptor.Field("no_match_cache", Optional.of(VARCHAR)),
            new Descriptor.Field("read", Optional.of(BOOLEAN)),
            new Descriptor.Field("skipped_by", Optional.of(VARCHAR))));

    private final ParquetBloomTransactionManager transactionManager;

    public BloomProbeFunction(ParquetBloomTransactionManager transactionManager)
    {
        super("system", "bloom_probe",
                List.of(varchar("SCHEMA_NAME"), varchar("TABLE_NAME"), varchar("COLUMN_NAME"), varchar("VALUE")),
                new ReturnTypeSpecification.DescribedTable(COLUMNS),
                "Explains a lookup: per row group, what statistics, the bloom filter and the no-match cache say of column = value, and whether a query reads it");
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
    }

    private static ScalarArgumentSpecification varchar(String name)
    {
        return ScalarArgumentSpecification.builder().name(name).type(VARCHAR).build();
    }

    @Override
    public TableFunctionAnalysis analyze(ConnectorSession session, ConnectorTransactionHandle transaction, Map<String, Argument> arguments, ConnectorAccessControl accessControl)
    {
        String schema = text(arguments, "SCHEMA_NAME").toLowerCase(Locale.ROOT);
        String table = text(arguments, "TABLE_NAME").toLowerCase(Locale.ROOT);
        String columnName = text(arguments, "COLUMN_NAME").toLowerCase(Locale.ROOT);
        String value = text(arguments, "VALUE");
        SchemaTableName name = new SchemaTableName(schema, table);
        ParquetBloomMetadata metadata = transactionManager.get(transaction);
        ParquetBloomTableHandle handle = (ParquetBloomTableHandle) metadata.getTableHandle(session, name, Optional.empty(), Optional.empty());
        if (handle == null) {
            throw new TableNotFoundException(name, "bloom_probe: table %s not found".formatted(name));
        }
        accessControl.checkCanSelectFromColumns(null, name, Optional.empty(), Set.of(columnName));
        ColumnHandle column = metadata.getColumnHandles(session, handle).get(columnName);
        if (column == null) {
            throw new TrinoException(COLUMN_NOT_FOUND, "bloom_probe: table %s has no column %s".formatted(name, columnName));
        }
        ParquetBloomColumnHandle columnHandle = (ParquetBloomColumnHandle) column;
        if (columnHandle.hidden()) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "bloom_probe: %s of %s is a hidden column, one value per file from its listing: no file has a bloom filter of it".formatted(columnName, name));
        }
        refuseFilteredOrMasked(accessControl, name, columnHandle);
        // fails here, on the coordinator, with the column and type named
        BloomProbeValues.toNativeValue(columnName, columnHandle.type(), value);
        return TableFunctionAnalysis.builder()
                .handle(new BloomProbeHandle(schema, table, columnHandle, value))
                .build();
    }

    /**
     * A probe tells, per row group, whether a value is there (a dictionary's verdict is exact): on a table with a row
     * filter, or a column with a mask, for this user it would reveal what they hide. Refused, as Trino refuses
     * features that would bypass them.
     */
    private static void refuseFilteredOrMasked(ConnectorAccessControl accessControl, SchemaTableName name, ParquetBloomColumnHandle column)
    {
        boolean filtered;
        boolean masked;
        try {
            filtered = !accessControl.getRowFilters(null, name).isEmpty();
        }
        catch (TrinoException e) {
            // the engine's access control answers "not supported" when there is one
            filtered = true;
        }
        try {
            masked = !accessControl.getColumnMasks(null, name, List.of(ColumnSchema.builder().setName(column.name()).setType(column.type()).build())).isEmpty();
        }
        catch (TrinoException e) {
            masked = true;
        }
        if (filtered) {
            throw new TrinoException(NOT_SUPPORTED, "bloom_probe: table %s has a row filter for this user; a probe would tell which rows it hides".formatted(name));
        }
        if (masked) {
            throw new TrinoException(NOT_SUPPORTED, "bloom_probe: column %s of %s has a mask for this user; a probe would tell the values it hides".formatted(column.name(), name));
        }
    }

    private static String text(Map<String, Argument> arguments, String name)
    {
        Object value = ((ScalarArgument) arguments.get(name)).getValue();
        if (value == null) {
            throw new TrinoException(INVALID_FUNCTION_ARGUMENT, "bloom_probe: %s must not be null".formatted(name.toLowerCase(Locale.ROOT)));
        }
        return ((Slice) value).toStringUtf8();
    }
}
