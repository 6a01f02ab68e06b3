package io.parquetbloom.pruning;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static io.airlift.configuration.ConfigBinder.configBinder;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

/**
 * Row-group pruning, the one path coordinator and workers share, and what it remembers (the no-match cache).
 */
public class PruningModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(PruningConfig.class);
        binder.bind(NoMatchCache.class).in(Scopes.SINGLETON);
        binder.bind(DomainValueMatchers.class).in(Scopes.SINGLETON);
        binder.bind(RowGroupPruner.class).in(Scopes.SINGLETON);
        binder.bind(PruningTotals.class).in(Scopes.SINGLETON);
        newExporter(binder).export(PruningTotals.class).withGeneratedName();
    }
}
