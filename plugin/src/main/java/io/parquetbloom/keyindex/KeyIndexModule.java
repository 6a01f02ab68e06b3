package io.parquetbloom.keyindex;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.parquetbloom.table.CompanionFolder;
import io.parquetbloom.table.LakeConfig;

import static io.airlift.configuration.ConfigBinder.configBinder;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

/**
 * The table-level key index: its folder beside each table, its build, reader, compaction and publishing. It reads
 * the table's data through {@link KeyColumnReader}, which the connector's reader binds.
 */
public class KeyIndexModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(KeyIndexConfig.class);
        binder.bind(KeyIndexReader.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexCompactor.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexPublisher.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuildStats.class).in(Scopes.SINGLETON);
        binder.bind(SegmentBuilder.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuildPlans.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuilder.class).in(Scopes.SINGLETON);
        newExporter(binder).export(KeyIndexBuildStats.class).withGeneratedName();
    }

    @Provides
    @Singleton
    public static CompanionFolder createKeyIndexFolder(LakeConfig config)
    {
        return KeyIndexLocations.companionFolder(config.getKeyIndexLocation());
    }
}
