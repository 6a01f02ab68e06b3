package io.parquetbloom.connector;

import com.google.inject.Binder;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.parquetbloom.connector.functions.ParquetBloomFunctionProvider;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeFunctionProvider;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeProcessorProvider;
import io.parquetbloom.connector.keyindex.CreateKeyIndexProcedure;
import io.parquetbloom.connector.keyindex.DropKeyIndexProcedure;
import io.parquetbloom.connector.keyindex.KeyIndexBuildStats;
import io.parquetbloom.connector.keyindex.KeyIndexBuilder;
import io.parquetbloom.connector.parquet.ParquetBloomPageSourceProvider;
import io.parquetbloom.connector.procedure.FlushMetadataCacheProcedure;
import io.parquetbloom.connector.procedure.RegisterTableProcedure;
import io.parquetbloom.connector.procedure.UnregisterTableProcedure;
import io.parquetbloom.health.BloomProbe;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.HealthConfig;
import io.parquetbloom.health.QueryShareWindow;
import io.parquetbloom.keyindex.KeyIndexCompactor;
import io.parquetbloom.keyindex.KeyIndexConfig;
import io.parquetbloom.keyindex.KeyIndexReader;
import io.parquetbloom.metadata.BloomFilterCache;
import io.parquetbloom.metadata.DictionaryCache;
import io.parquetbloom.metadata.FooterCache;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.MetadataDiskStore;
import io.parquetbloom.metadata.MetadataDiskTier;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.pruning.NoMatchCache;
import io.parquetbloom.pruning.PruningConfig;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.s3.S3ClientProvider;
import io.parquetbloom.s3.S3Config;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3Stats;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.LakeConfig;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.ParquetTypeMapping;
import io.parquetbloom.table.TableRegistry;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.function.FunctionProvider;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.concurrent.ExecutorService;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.bootstrap.ClosingBinder.closingBinder;
import static io.airlift.configuration.ConfigBinder.configBinder;
import static java.util.concurrent.Executors.newThreadPerTaskExecutor;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

public class ParquetBloomModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(LakeConfig.class);
        configBinder(binder).bindConfig(MetadataConfig.class);
        configBinder(binder).bindConfig(PruningConfig.class);
        configBinder(binder).bindConfig(ParquetBloomConfig.class);
        configBinder(binder).bindConfig(S3Config.class);
        configBinder(binder).bindConfig(HealthConfig.class);
        configBinder(binder).bindConfig(KeyIndexConfig.class);

        // bound on its own so that the lifecycle manager sees it and closes the client with the catalog
        binder.bind(S3ClientProvider.class).in(Scopes.SINGLETON);
        binder.bind(S3Client.class).toProvider(S3ClientProvider.class).in(Scopes.SINGLETON);
        binder.bind(S3ObjectStore.class).in(Scopes.SINGLETON);
        binder.bind(S3Stats.class).in(Scopes.SINGLETON);
        newExporter(binder).export(S3Stats.class).withGeneratedName();
        binder.bind(TableRegistry.class).in(Scopes.SINGLETON);
        binder.bind(LakeTables.class).in(Scopes.SINGLETON);
        binder.bind(TableSchemaReader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetMetadataCache.class).in(Scopes.SINGLETON);
        newExporter(binder).export(ParquetMetadataCache.class).withGeneratedName();
        binder.bind(MetadataDiskStore.class).in(Scopes.SINGLETON);
        newExporter(binder).export(MetadataDiskStore.class).withGeneratedName();
        binder.bind(MetadataDiskTier.class).in(Scopes.SINGLETON);
        binder.bind(FooterCache.class).in(Scopes.SINGLETON);
        binder.bind(BloomFilterCache.class).in(Scopes.SINGLETON);
        binder.bind(DictionaryCache.class).in(Scopes.SINGLETON);
        binder.bind(NoMatchCache.class).in(Scopes.SINGLETON);
        binder.bind(ParquetMetadataReader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetTypeMapping.class).in(Scopes.SINGLETON);
        binder.bind(FileColumnResolver.class).in(Scopes.SINGLETON);
        binder.bind(RowGroupPruner.class).in(Scopes.SINGLETON);
        binder.bind(PruningTotals.class).in(Scopes.SINGLETON);
        newExporter(binder).export(PruningTotals.class).withGeneratedName();
        binder.bind(FilterHealthScanner.class).in(Scopes.SINGLETON);
        binder.bind(BloomProbe.class).in(Scopes.SINGLETON);
        binder.bind(QueryShareWindow.class).in(Scopes.SINGLETON);

        closingBinder(binder).registerExecutor(Key.get(ExecutorService.class, ForParquetBloomMetadata.class));
        closingBinder(binder).registerExecutor(Key.get(ExecutorService.class, ForParquetBloomColumnReads.class));
        binder.bind(ParquetBloomConnector.class).in(Scopes.SINGLETON);
        binder.bind(QueryCancellations.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomAccessControl.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomTransactionManager.class).in(Scopes.SINGLETON);
        binder.bind(TableStatisticsReader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomPageSourceProvider.class).in(Scopes.SINGLETON);
        // the key index build reads key columns as queries read them, through the SPI
        binder.bind(ConnectorPageSourceProvider.class).to(ParquetBloomPageSourceProvider.class);
        binder.bind(ParquetBloomSessionProperties.class).in(Scopes.SINGLETON);
        binder.bind(BloomProbeProcessorProvider.class).in(Scopes.SINGLETON);
        binder.bind(FunctionProvider.class).to(ParquetBloomFunctionProvider.class).in(Scopes.SINGLETON);
        newSetBinder(binder, ConnectorTableFunction.class).addBinding().toProvider(BloomProbeFunctionProvider.class).in(Scopes.SINGLETON);
        binder.bind(MetadataCacheFlusher.class).in(Scopes.SINGLETON);
        newSetBinder(binder, Procedure.class).addBinding().toProvider(FlushMetadataCacheProcedure.class).in(Scopes.SINGLETON);
        newSetBinder(binder, Procedure.class).addBinding().toProvider(RegisterTableProcedure.class).in(Scopes.SINGLETON);
        newSetBinder(binder, Procedure.class).addBinding().toProvider(UnregisterTableProcedure.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexReader.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexCompactor.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuilder.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuildStats.class).in(Scopes.SINGLETON);
        newExporter(binder).export(KeyIndexBuildStats.class).withGeneratedName();
        newSetBinder(binder, Procedure.class).addBinding().toProvider(CreateKeyIndexProcedure.class).in(Scopes.SINGLETON);
        newSetBinder(binder, Procedure.class).addBinding().toProvider(DropKeyIndexProcedure.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Singleton
    @ForParquetBloomMetadata
    public static ExecutorService createMetadataExecutor()
    {
        return newThreadPerTaskExecutor(Thread.ofVirtual().name("parquet-bloom-metadata-", 0).factory());
    }

    @Provides
    @Singleton
    @ForParquetBloomColumnReads
    public static ExecutorService createColumnReadExecutor()
    {
        return newThreadPerTaskExecutor(Thread.ofVirtual().name("parquet-bloom-read-", 0).factory());
    }
}
