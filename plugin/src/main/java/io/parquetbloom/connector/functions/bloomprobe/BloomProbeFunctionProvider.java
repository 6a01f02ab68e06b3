package io.parquetbloom.connector.functions.bloomprobe;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.connector.ParquetBloomTransactionManager;
import io.trino.plugin.base.classloader.ClassLoaderSafeConnectorTableFunction;
import io.trino.spi.function.table.ConnectorTableFunction;

import static java.util.Objects.requireNonNull;

public class BloomProbeFunctionProvider
        implements Provider<ConnectorTableFunction>
{
    private final ParquetBloomTransactionManager transactionManager;

    @Inject
    public BloomProbeFunctionProvider(ParquetBloomTransactionManager transactionManager)
    {
        this.transactionManager = requireNonNull(transactionManager, "transactionManager is null");
    }

    @Override
    public ConnectorTableFunction get()
    {
        return new ClassLoaderSafeConnectorTableFunction(new BloomProbeFunction(transactionManager), getClass().getClassLoader());
    }
}
