package io.parquetbloom.connector.system;

import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

/**
 * The {@code "<table>$<suffix>"} metadata tables every lake table has, the way Hive and Iceberg name theirs.
 */
public enum MetadataTableType
{
    BLOOM_FILTERS("bloom_filters"),
    BLOOM_FILTER_ADVICE("bloom_filter_advice"),
    KEY_INDEX("key_index"),
    PROPERTIES("properties");

    public record Name(SchemaTableName table, MetadataTableType type) {}

    private final String suffix;

    MetadataTableType(String suffix)
    {
        this.suffix = suffix;
    }

    public static boolean isMetadataTableName(SchemaTableName name)
    {
        return name.getTableName().indexOf('$') >= 0;
    }

    /**
     * @return empty for a plain table name or an unknown suffix
     */
    public static Optional<Name> parse(SchemaTableName name)
    {
        String table = name.getTableName();
        int dollar = table.lastIndexOf('$');
        if (dollar <= 0) {
            return Optional.empty();
        }
        String suffix = table.substring(dollar + 1);
        for (MetadataTableType type : values()) {
            if (type.suffix.equals(suffix)) {
                return Optional.of(new Name(new SchemaTableName(name.getSchemaName(), table.substring(0, dollar)), type));
            }
        }
        return Optional.empty();
    }
}
