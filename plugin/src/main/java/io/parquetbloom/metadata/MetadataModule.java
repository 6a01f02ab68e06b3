package io.parquetbloom.metadata;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static io.airlift.configuration.ConfigBinder.configBinder;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

/**
 * Parquet metadata: the node's cache of footers, filters and dictionaries, its disk tier, and the reader in front.
 */
public class MetadataModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(MetadataConfig.class);
        binder.bind(ParquetMetadataCache.class).in(Scopes.SINGLETON);
        newExporter(binder).export(ParquetMetadataCache.class).withGeneratedName();
        binder.bind(MetadataDiskStore.class).in(Scopes.SINGLETON);
        newExporter(binder).export(MetadataDiskStore.class).withGeneratedName();
        binder.bind(MetadataDiskTier.class).in(Scopes.SINGLETON);
        binder.bind(FooterCache.class).in(Scopes.SINGLETON);
        binder.bind(BloomFilterCache.class).in(Scopes.SINGLETON);
        binder.bind(DictionaryCache.class).in(Scopes.SINGLETON);
        binder.bind(OffsetIndexLoader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetMetadataReader.class).in(Scopes.SINGLETON);
    }
}
