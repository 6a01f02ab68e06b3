package io.parquetbloom.connector.system;

import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code "<table>$properties"}: where the table is and how it was found (registered or by the folder layout), where
 * its registration is kept, and what its columns follow; one {@code key, value} row each, as Hive's and Iceberg's
 * {@code $properties} tables have.
 */
public class PropertiesTable
        implements SystemTable
{
    private static final List<ColumnMetadata> COLUMNS = List.of(
            new ColumnMetadata("key", VARCHAR),
            new ColumnMetadata("value", VARCHAR));

    private final ConnectorTableMetadata metadata;
    private final Supplier<Map<String, String>> properties;

    public PropertiesTable(SchemaTableName name, Supplier<Map<String, String>> properties)
    {
        this.metadata = new ConnectorTableMetadata(requireNonNull(name, "name is null"), COLUMNS);
        this.properties = requireNonNull(properties, "properties is null");
    }

    @Override
    public Distribution getDistribution()
    {
        return Distribution.SINGLE_COORDINATOR;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata()
    {
        return metadata;
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transaction, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(COLUMNS);
        properties.get().forEach(rows::addRow);
        return rows.build().cursor();
    }
}
