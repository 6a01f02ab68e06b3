package io.parquetbloom.connector;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.parquetbloom.connector.procedure.KeyIndexBuildPageSinkProvider;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.function.FunctionProvider;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

public class ParquetBloomConnector
        implements Connector
{
    private final LifeCycleManager lifeCycleManager;
    private final ParquetBloomTransactionManager transactionManager;
    private final ParquetBloomSplitManager splitManager;
    private final ParquetBloomPageSources pageSourceProvider;
    private final KeyIndexBuildPageSinkProvider pageSinkProvider;
    private final ParquetBloomSessionProperties sessionProperties;
    private final Set<ConnectorTableFunction> tableFunctions;
    private final FunctionProvider functionProvider;
    private final Set<Procedure> procedures;
    private final ParquetBloomAccessControl accessControl;
    private final QueryCancellations cancellations;

    @Inject
    public ParquetBloomConnector(
            LifeCycleManager lifeCycleManager,
            ParquetBloomTransactionManager transactionManager,
            ParquetBloomSplitManager splitManager,
            ParquetBloomPageSources pageSourceProvider,
            KeyIndexBuildPageSinkProvider pageSinkProvider,
            ParquetBloomSessionProperties sessionProperties,
            Set<ConnectorTableFunction> tableFunctions,
            FunctionProvider functionProvider,
            Set<Procedure> procedures,
            ParquetBloomAccessControl accessControl,
            QueryCancellations cancellations)
    {
        this.accessControl = requireNonNull(accessControl, "accessControl is null");
        this.cancellations = requireNonNull(cancellations, "cancellations is null");
        this.procedures = ImmutableSet.copyOf(requireNonNull(procedures, "procedures is null"));
        this.tableFunctions = ImmutableSet.copyOf(requireNonNull(tableFunctions, "tableFunctions is null"));
        this.functionProvider = requireNonNull(functionProvider, "functionProvider is null");
        this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
        this.splitManager = requireNonNull(splitManager, "splitManager is null");
        this.pageSourceProvider = requireNonNull(pageSourceProvider, "pageSourceProvider is null");
        this.pageSinkProvider = requireNonNull(pageSinkProvider, "pageSinkProvider is null");
        this.sessionProperties = requireNonNull(sessionProperties, "sessionProperties is null");
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        return transactionManager.begin();
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transactionHandle)
    {
        return transactionManager.get(transactionHandle);
    }

    @Override
    public void commit(ConnectorTransactionHandle transactionHandle)
    {
        cancellations.ended(transactionHandle, false);
        transactionManager.end(transactionHandle);
    }

    @Override
    public void rollback(ConnectorTransactionHandle transactionHandle)
    {
        // a cancelled or timed-out query's transaction: a procedure still running for it stops
        cancellations.ended(transactionHandle, true);
        transactionManager.end(transactionHandle);
    }

    @Override
    public ConnectorAccessControl getAccessControl()
    {
        return accessControl;
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider()
    {
        return pageSourceProvider;
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider()
    {
        return pageSinkProvider;
    }

    @Override
    public Set<TableProcedureMetadata> getTableProcedures()
    {
        return KeyIndexTableProcedures.procedures();
    }

    @Override
    public List<PropertyMetadata<?>> getSessionProperties()
    {
        return sessionProperties.getSessionProperties();
    }

    @Override
    public List<PropertyMetadata<?>> getTableProperties()
    {
        return ParquetBloomTableProperties.properties();
    }

    @Override
    public Set<Procedure> getProcedures()
    {
        return procedures;
    }

    @Override
    public Set<ConnectorTableFunction> getTableFunctions()
    {
        return tableFunctions;
    }

    @Override
    public Optional<FunctionProvider> getFunctionProvider()
    {
        return Optional.of(functionProvider);
    }

    @Override
    public void shutdown()
    {
        lifeCycleManager.stop();
    }
}
