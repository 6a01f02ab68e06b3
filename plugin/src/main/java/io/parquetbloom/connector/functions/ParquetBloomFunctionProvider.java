package io.parquetbloom.connector.functions;

import com.google.inject.Inject;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeHandle;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeProcessorProvider;
import io.trino.plugin.base.classloader.ClassLoaderSafeTableFunctionProcessorProvider;
import io.trino.spi.function.FunctionProvider;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.function.table.TableFunctionProcessorProvider;

import static java.util.Objects.requireNonNull;

/**
 * Hands each of the catalog's table functions the processor that runs it on the workers.
 */
public class ParquetBloomFunctionProvider
        implements FunctionProvider
{
    private final BloomProbeProcessorProvider bloomProbe;

    @Inject
    public ParquetBloomFunctionProvider(BloomProbeProcessorProvider bloomProbe)
    {
        this.bloomProbe = requireNonNull(bloomProbe, "bloomProbe is null");
    }

    @Override
    public TableFunctionProcessorProvider getTableFunctionProcessorProvider(ConnectorTableFunctionHandle functionHandle)
    {
        if (functionHandle instanceof BloomProbeHandle) {
            return new ClassLoaderSafeTableFunctionProcessorProvider(bloomProbe, getClass().getClassLoader());
        }
        throw new UnsupportedOperationException("Unsupported table function handle: " + functionHandle);
    }
}
