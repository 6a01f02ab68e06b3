package io.parquetbloom.connector;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;

import java.util.List;

/**
 * Entry point Trino loads from the plugin directory. The connector factory arrives with the connector issue;
 * until then the plugin loads and contributes nothing.
 */
public class ParquetBloomPlugin
        implements Plugin
{
    @Override
    public Iterable<ConnectorFactory> getConnectorFactories()
    {
        return List.of();
    }
}
