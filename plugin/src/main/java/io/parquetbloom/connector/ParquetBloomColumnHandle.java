package io.parquetbloom.connector;

import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * A column of a lake table: a top-level field of the Parquet schema (matched by name, case-insensitively, or by
 * field id where a table format gives one), a partition column from {@code key=value} folders, or a hidden column
 * ({@link HiddenColumn}: which file a row came from).
 *
 * @param mappedNames the names a file written without field ids may give the column, by the table format's name
 * mapping (see {@code TableSchemaReader.DataColumn})
 * @param hidden a {@link HiddenColumn}: one value per file, from its listing, never read from the file
 * @param physicalType the column's type as files name its struct fields, where they differ (see
 * {@code TableSchemaReader.DataColumn})
 */
public record ParquetBloomColumnHandle(String name, Type type, boolean partitionKey, OptionalInt fieldId, Optional<List<String>> mappedNames, boolean hidden, Optional<Type> physicalType)
        implements ColumnHandle
{
    public ParquetBloomColumnHandle
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(fieldId, "fieldId is null");
        mappedNames = requireNonNull(mappedNames, "mappedNames is null").map(List::copyOf);
        requireNonNull(physicalType, "physicalType is null");
    }

    public ParquetBloomColumnHandle(String name, Type type, boolean partitionKey, OptionalInt fieldId, Optional<List<String>> mappedNames, boolean hidden)
    {
        this(name, type, partitionKey, fieldId, mappedNames, hidden, Optional.empty());
    }

    /**
     * A data column of a table's files.
     */
    public static ParquetBloomColumnHandle dataColumn(TableSchemaReader.DataColumn column)
    {
        return new ParquetBloomColumnHandle(column.name(), column.type(), false, column.fieldId(), column.mappedNames(), false, column.physicalType());
    }

    /**
     * The type to read the column's files as: its own, or with the files' names of its struct fields (the values are
     * the same, field by field).
     */
    public Type readType()
    {
        return physicalType.orElse(type);
    }

    /**
     * A data or partition column.
     */
    public ParquetBloomColumnHandle(String name, Type type, boolean partitionKey, OptionalInt fieldId)
    {
        this(name, type, partitionKey, fieldId, Optional.empty(), false);
    }

    /**
     * A column matched to files by name: a folder table's.
     */
    public ParquetBloomColumnHandle(String name, Type type, boolean partitionKey)
    {
        this(name, type, partitionKey, OptionalInt.empty());
    }

    /**
     * Whether the column's value is one per file, from the listing (a partition or hidden column), never read.
     */
    public boolean fromListing()
    {
        return partitionKey || hidden;
    }

    public ColumnMetadata toColumnMetadata()
    {
        return ColumnMetadata.builder()
                .setName(name)
                .setType(type)
                .setExtraInfo(partitionKey ? Optional.of("partition key") : Optional.empty())
                .setHidden(hidden)
                .build();
    }
}
