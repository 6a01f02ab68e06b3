package io.parquetbloom.connector.system;

import io.trino.spi.connector.SystemTable;

/**
 * One kind of {@code "<table>$<suffix>"} metadata table; the kinds are a Guice set, so a new one is a class and a
 * binding.
 */
public interface MetadataTableProvider
{
    String suffix();

    SystemTable create(MetadataTableRequest request);
}
