package io.parquetbloom.connector.procedure;

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * The writers of a key index build. The engine hands a table procedure's writers only the rows of the table's
 * columns, never which file and row group a row came from, and an index entry names those: so each node's scan
 * writes its own segment where it reads the files ({@link KeyIndexBuildPageSource}), returns no rows, and these sinks
 * receive none. The connector writes no tables.
 */
public final class KeyIndexBuildPageSinkProvider
        implements ConnectorPageSinkProvider
{
    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        throw new TrinoException(NOT_SUPPORTED, "This connector does not create tables");
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        throw new TrinoException(NOT_SUPPORTED, "This connector does not insert");
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle, Optional<ConnectorTableCredentials> credentials, ConnectorPageSinkId pageSinkId)
    {
        checkArgument(tableExecuteHandle instanceof KeyIndexExecuteHandle handle && handle.procedure() == KeyIndexProcedure.CREATE_KEY_INDEX, "not a key index build: %s", tableExecuteHandle);
        return new BuildSink();
    }

    private static final class BuildSink
            implements ConnectorPageSink
    {
        @Override
        public CompletableFuture<?> appendPage(Page page)
        {
            checkState(page.getPositionCount() == 0, "a key index build's scan returns no rows");
            return NOT_BLOCKED;
        }

        @Override
        public CompletableFuture<Collection<Slice>> finish()
        {
            return CompletableFuture.completedFuture(List.of());
        }

        @Override
        public void abort() {}
    }
}
