package io.parquetbloom.testing;

import io.parquetbloom.metadata.BloomFilterCache;
import io.parquetbloom.metadata.DictionaryCache;
import io.parquetbloom.metadata.FooterCache;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.MetadataDiskStore;
import io.parquetbloom.metadata.MetadataDiskTier;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.pruning.NoMatchCache;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.ParquetTypeMapping;

/**
 * The metadata and pruning objects a catalog binds, wired over one object store, for unit tests.
 */
public record TestingMetadata(ParquetMetadataCache budget, ParquetMetadataReader reader, NoMatchCache noMatchCache, FileColumnResolver resolver, RowGroupPruner pruner)
{
    public static TestingMetadata create(S3ObjectStore store)
    {
        return create(store, new MetadataConfig());
    }

    public static TestingMetadata create(S3ObjectStore store, MetadataConfig config)
    {
        ParquetMetadataCache budget = new ParquetMetadataCache(config);
        ParquetMetadataReader reader = new ParquetMetadataReader(store, new FooterCache(budget), new BloomFilterCache(budget), new DictionaryCache(budget), new MetadataDiskTier(new MetadataDiskStore(config)), config);
        NoMatchCache noMatchCache = new NoMatchCache(budget);
        FileColumnResolver resolver = new FileColumnResolver(new ParquetTypeMapping(new FlatTypeManager()));
        return new TestingMetadata(budget, reader, noMatchCache, resolver, new RowGroupPruner(reader, noMatchCache, resolver));
    }
}
