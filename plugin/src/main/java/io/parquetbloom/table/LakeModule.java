package io.parquetbloom.table;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * The lake's tables: where they are, their files, and their columns. The {@link CompanionFolder} is bound by its
 * owner (the key index); each table format read through its metadata adds its {@link FormatTables}.
 */
public class LakeModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(LakeConfig.class);
        binder.bind(TableRegistry.class).in(Scopes.SINGLETON);
        binder.bind(LakeTables.class).in(Scopes.SINGLETON);
        binder.bind(TableSchemaReader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetTypeMapping.class).in(Scopes.SINGLETON);
        binder.bind(FileColumnResolver.class).in(Scopes.SINGLETON);
        // each table format's room adds the reading of its tables
        newSetBinder(binder, FormatTables.class);
    }
}
