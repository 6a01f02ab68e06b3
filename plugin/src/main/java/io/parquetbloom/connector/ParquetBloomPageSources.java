package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.parquetbloom.connector.parquet.ParquetBloomPageSourceProvider;
import io.parquetbloom.connector.procedure.KeyIndexBuildSplit;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The catalog's page sources: a table's scan, or a node's share of a key index build.
 */
public final class ParquetBloomPageSources
        implements ConnectorPageSourceProvider
{
    private final ParquetBloomPageSourceProvider scans;
    private final KeyIndexTableProcedures keyIndexProcedures;

    @Inject
    public ParquetBloomPageSources(ParquetBloomPageSourceProvider scans, KeyIndexTableProcedures keyIndexProcedures)
    {
        this.scans = requireNonNull(scans, "scans is null");
        this.keyIndexProcedures = requireNonNull(keyIndexProcedures, "keyIndexProcedures is null");
    }

    @Override
    public ConnectorPageSource createPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit split,
            ConnectorTableHandle table,
            Optional<ConnectorTableCredentials> tableCredentials,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter)
    {
        if (split instanceof KeyIndexBuildSplit build) {
            return keyIndexProcedures.pageSource(build);
        }
        return scans.createPageSource(transaction, session, split, table, tableCredentials, columns, dynamicFilter);
    }
}
