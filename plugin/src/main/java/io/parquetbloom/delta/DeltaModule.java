package io.parquetbloom.delta;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import io.parquetbloom.table.FormatTables;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * Delta Lake tables, read through their log: the {@link FormatTables} the lake's tables route them to.
 */
public class DeltaModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(DeltaConfig.class);
        binder.bind(DeltaTables.class).in(Scopes.SINGLETON);
        newSetBinder(binder, FormatTables.class).addBinding().to(DeltaTables.class);
    }
}
