package io.parquetbloom.keyindex;

import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SchemaTableName;

/**
 * The port through which the key index reads a table's data: the connector's reader serves it, so every value the
 * index hashes is exactly the value a query reads (the same column resolution by name or field id, type mapping and
 * conversions).
 */
public interface KeyColumnReader
{
    /**
     * The values of a data column in one row group of a file, read as a query reads them but without pruning, in one
     * channel. The GETs are counted in {@code requests}.
     */
    ConnectorPageSource readRowGroup(S3ObjectInfo file, SchemaTableName table, TableSchemaReader.DataColumn column, int rowGroup, S3RequestStats requests);
}
