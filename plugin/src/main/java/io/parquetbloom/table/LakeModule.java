package io.parquetbloom.table;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static io.airlift.configuration.ConfigBinder.configBinder;

/**
 * The lake's tables: where they are, their files, and their columns. The {@link CompanionFolder} is bound by its
 * owner (the key index).
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
    }
}
