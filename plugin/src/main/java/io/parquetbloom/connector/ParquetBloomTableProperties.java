package io.parquetbloom.connector;

import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.spi.session.PropertyMetadata.stringProperty;

/**
 * Table properties, shown by {@code SHOW CREATE TABLE}: where a table's files are. Tables are never created through
 * SQL here, so the property is only ever read.
 */
public final class ParquetBloomTableProperties
{
    public static final String LOCATION = "location";

    private static final List<PropertyMetadata<?>> PROPERTIES = List.of(
            stringProperty(LOCATION, "S3 prefix of the table's files: registered with register_table, or found by the folder layout", null, false));

    private ParquetBloomTableProperties() {}

    public static List<PropertyMetadata<?>> properties()
    {
        return PROPERTIES;
    }
}
