package io.parquetbloom.connector.system;

import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A {@code "<table>$<suffix>"} name, the way Hive and Iceberg name their metadata tables.
 *
 * @param table the table the metadata table describes
 */
public record MetadataTableName(SchemaTableName table, String suffix)
{
    public MetadataTableName
    {
        requireNonNull(table, "table is null");
        requireNonNull(suffix, "suffix is null");
    }

    public static boolean isMetadataTableName(SchemaTableName name)
    {
        return name.getTableName().indexOf('$') >= 0;
    }

    /**
     * @return empty for a plain table name
     */
    public static Optional<MetadataTableName> parse(SchemaTableName name)
    {
        String table = name.getTableName();
        int dollar = table.lastIndexOf('$');
        if (dollar <= 0) {
            return Optional.empty();
        }
        return Optional.of(new MetadataTableName(new SchemaTableName(name.getSchemaName(), table.substring(0, dollar)), table.substring(dollar + 1)));
    }
}
