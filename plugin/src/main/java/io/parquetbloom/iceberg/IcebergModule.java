package io.parquetbloom.iceberg;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import io.parquetbloom.table.FormatTables;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * Iceberg tables, read through their own metadata: the {@link FormatTables} the lake's tables route them to.
 */
public class IcebergModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(IcebergConfig.class);
        binder.bind(IcebergFileCache.class).in(Scopes.SINGLETON);
        binder.bind(IcebergTables.class).in(Scopes.SINGLETON);
        newSetBinder(binder, FormatTables.class).addBinding().to(IcebergTables.class);
    }
}
