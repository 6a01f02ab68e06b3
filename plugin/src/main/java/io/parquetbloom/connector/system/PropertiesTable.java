package io.parquetbloom.connector.system;

import com.google.inject.Inject;
import io.parquetbloom.keyindex.KeyIndexPointers;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.table.FormatSnapshot;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static io.parquetbloom.connector.ParquetBloomSessionProperties.isSchemaUnionByName;
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

    /**
     * {@code "<table>$properties"}: where the table is, how it was found, and where its key indexes live.
     */
    public static final class Provider
            implements MetadataTableProvider
    {
        private final LakeTables lakeTables;

        @Inject
        public Provider(LakeTables lakeTables)
        {
            this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        }

        @Override
        public String suffix()
        {
            return "properties";
        }

        @Override
        public SystemTable create(MetadataTableRequest request)
        {
            return new PropertiesTable(request.name(), () -> properties(request));
        }

        private Map<String, String> properties(MetadataTableRequest request)
        {
            LakeTable table = request.lakeTable().get();
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put("location", table.location().toString());
            Optional<S3Location> registered = lakeTables.registeredLocation(request.table(), request.stats());
            properties.put("registered", Boolean.toString(registered.isPresent()));
            properties.put("registry", lakeTables.registryLocation().toString());
            properties.put("data_files", Integer.toString(table.files().size()));
            if (table.snapshot().isPresent()) {
                // a table format's version read: its metadata gives the files and the columns
                FormatSnapshot snapshot = table.snapshot().get();
                properties.put("format", snapshot.format().displayName());
                properties.putAll(snapshot.properties());
                properties.put("columns_from", snapshot.format().displayName() + " metadata (by field id)");
            }
            else {
                table.newestFile().ifPresent(file -> properties.put("newest_file", file.object().location().toString()));
                properties.put("columns_from", isSchemaUnionByName(request.session()) ? "union of every file's columns by name" : "newest file");
            }
            properties.put("key_index_location", table.companionFolder().toString());
            properties.put("key_index_ignored_objects", Integer.toString(KeyIndexPointers.of(table).ignored()));
            return properties;
        }
    }
}
