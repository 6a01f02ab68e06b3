package io.parquetbloom.connector;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;

import java.util.List;

/**
 * Entry point Trino loads from the plugin directory: contributes the {@code parquet_bloom} connector.
 */
public class ParquetBloomPlugin
        implements Plugin
{
    @Override
    public Iterable<ConnectorFactory> getConnectorFactories()
    {
        return List.of(new ParquetBloomConnectorFactory());
    }
}
