package io.parquetbloom.connector.system;

import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;

import java.util.concurrent.Executor;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What a metadata table of one transaction is made from.
 *
 * @param name the metadata table's own name, {@code "<table>$<suffix>"}
 * @param table the table it describes
 * @param lakeTable the table's listing, made when the table is first read (once per transaction)
 * @param executor the transaction's share of the catalog's metadata threads
 * @param stats where the transaction counts its S3 requests
 */
public record MetadataTableRequest(ConnectorSession session, SchemaTableName name, SchemaTableName table, Supplier<LakeTable> lakeTable, Executor executor, S3RequestStats stats)
{
    public MetadataTableRequest
    {
        requireNonNull(session, "session is null");
        requireNonNull(name, "name is null");
        requireNonNull(table, "table is null");
        requireNonNull(lakeTable, "lakeTable is null");
        requireNonNull(executor, "executor is null");
        requireNonNull(stats, "stats is null");
    }
}
