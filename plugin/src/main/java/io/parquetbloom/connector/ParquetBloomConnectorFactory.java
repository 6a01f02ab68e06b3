package io.parquetbloom.connector;

import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.airlift.log.Logger;
import io.parquetbloom.sbbf.BlockProbes;
import io.trino.plugin.base.ConnectorContextModule;
import io.trino.plugin.base.jmx.ConnectorObjectNameGeneratorModule;
import io.trino.plugin.base.jmx.MBeanServerModule;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import org.weakref.jmx.guice.MBeanModule;

import java.util.Map;

import static io.trino.plugin.base.Versions.checkStrictSpiVersionMatch;
import static java.util.Objects.requireNonNull;

public class ParquetBloomConnectorFactory
        implements ConnectorFactory
{
    private static final Logger log = Logger.get(ParquetBloomConnectorFactory.class);

    @Override
    public String getName()
    {
        return "parquet_bloom";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        requireNonNull(config, "config is null");
        checkStrictSpiVersionMatch(context, this);

        Bootstrap app = new Bootstrap(
                "io.trino.bootstrap.catalog." + catalogName,
                new JsonModule(),
                new ConnectorContextModule(catalogName, context),
                new MBeanModule(),
                new MBeanServerModule(),
                // no underscore in the domain: Trino's OpenMetrics endpoint cannot serve such names
                new ConnectorObjectNameGeneratorModule("io.parquetbloom", "trino.plugin.parquetbloom"),
                new ParquetBloomModule(),
                new ParquetBloomSecurityModule());

        Injector injector = app
                .doNotInitializeLogging()
                .disableSystemProperties()
                .setRequiredConfigurationProperties(config)
                .initialize();

        BlockProbes.Selection probe = BlockProbes.selection();
        log.info("Catalog %s: bloom filter probe %s (%s)", catalogName, probe.probe().name(), probe.reason());
        return injector.getInstance(ParquetBloomConnector.class);
    }
}
