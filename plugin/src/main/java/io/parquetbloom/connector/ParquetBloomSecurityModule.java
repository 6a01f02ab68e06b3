package io.parquetbloom.connector;

import com.google.inject.Binder;
import com.google.inject.Scopes;
import io.airlift.configuration.AbstractConfigurationAwareModule;
import io.trino.plugin.base.security.AllowAllAccessControl;
import io.trino.plugin.base.security.FileBasedAccessControlModule;
import io.trino.spi.connector.ConnectorAccessControl;

import static io.airlift.configuration.ConditionalModule.conditionalModule;
import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * The rules {@link ParquetBloomAccessControl} forwards to: none of the catalog's own, or Trino's connector file-based
 * access control ({@code security=FILE}, {@code security.config-file}).
 */
public class ParquetBloomSecurityModule
        extends AbstractConfigurationAwareModule
{
    @Override
    protected void setup(Binder binder)
    {
        configBinder(binder).bindConfig(ParquetBloomSecurityConfig.class);
        install(conditionalModule(
                ParquetBloomSecurityConfig.class,
                config -> config.getSecuritySystem() == ParquetBloomSecurityConfig.SecuritySystem.FILE,
                new FileBasedAccessControlModule(),
                allowAll -> allowAll.bind(ConnectorAccessControl.class).to(AllowAllAccessControl.class).in(Scopes.SINGLETON)));
    }
}
