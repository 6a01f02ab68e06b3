package io.parquetbloom.health;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * Filter health: the scanner behind the health tables, the probe, and the window of recent lookups the advice uses.
 */
public class HealthModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(HealthConfig.class);
        binder.bind(FilterHealthScanner.class).in(Scopes.SINGLETON);
        binder.bind(BloomProbe.class).in(Scopes.SINGLETON);
        binder.bind(QueryShareWindow.class).in(Scopes.SINGLETON);
    }
}
