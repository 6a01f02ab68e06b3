package io.parquetbloom.connector;

import com.google.inject.Binder;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.connector.functions.ParquetBloomFunctionProvider;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeFunctionProvider;
import io.parquetbloom.connector.functions.bloomprobe.BloomProbeProcessorProvider;
import io.parquetbloom.connector.parquet.ParquetBloomPageSourceProvider;
import io.parquetbloom.connector.procedure.CreateKeyIndexProcedure;
import io.parquetbloom.connector.procedure.DropKeyIndexProcedure;
import io.parquetbloom.connector.procedure.FlushMetadataCacheProcedure;
import io.parquetbloom.connector.procedure.KeyIndexBuildPageSinkProvider;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.parquetbloom.connector.procedure.RegisterTableProcedure;
import io.parquetbloom.connector.procedure.UnregisterTableProcedure;
import io.parquetbloom.connector.system.BloomFilterAdviceTable;
import io.parquetbloom.connector.system.BloomFiltersTable;
import io.parquetbloom.connector.system.KeyIndexTable;
import io.parquetbloom.connector.system.MetadataTableProvider;
import io.parquetbloom.connector.system.PropertiesTable;
import io.parquetbloom.delta.DeltaModule;
import io.parquetbloom.health.HealthModule;
import io.parquetbloom.iceberg.IcebergModule;
import io.parquetbloom.keyindex.KeyColumnReader;
import io.parquetbloom.keyindex.KeyIndexModule;
import io.parquetbloom.metadata.MetadataModule;
import io.parquetbloom.pruning.PruningModule;
import io.parquetbloom.s3.S3Module;
import io.parquetbloom.table.LakeModule;
import io.trino.spi.catalog.CatalogName;
import io.trino.spi.function.FunctionProvider;
import io.trino.spi.function.table.ConnectorTableFunction;
import io.trino.spi.procedure.Procedure;

import java.util.concurrent.ExecutorService;

import static com.google.inject.multibindings.Multibinder.newSetBinder;
import static io.airlift.bootstrap.ClosingBinder.closingBinder;
import static io.airlift.configuration.ConfigBinder.configBinder;
import static java.util.concurrent.Executors.newThreadPerTaskExecutor;

/**
 * The connector: the lower layers' modules, then the SPI's services, the catalog's threads, its procedures, table
 * functions and metadata tables.
 */
public class ParquetBloomModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        binder.install(new S3Module());
        binder.install(new MetadataModule());
        binder.install(new LakeModule());
        binder.install(new IcebergModule());
        binder.install(new DeltaModule());
        binder.install(new PruningModule());
        binder.install(new HealthModule());
        binder.install(new KeyIndexModule());

        configBinder(binder).bindConfig(ParquetBloomConfig.class);
        closingBinder(binder).registerExecutor(Key.get(ExecutorService.class, ForParquetBloomMetadata.class));
        closingBinder(binder).registerExecutor(Key.get(ExecutorService.class, ForParquetBloomColumnReads.class));
        binder.bind(ParquetBloomConnector.class).in(Scopes.SINGLETON);
        binder.bind(QueryCancellations.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomAccessControl.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomMetadataFactory.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomTransactionManager.class).in(Scopes.SINGLETON);
        binder.bind(TableStatisticsReader.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomPageSourceProvider.class).in(Scopes.SINGLETON);
        binder.bind(ParquetBloomPageSources.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexTableProcedures.class).in(Scopes.SINGLETON);
        binder.bind(KeyIndexBuildPageSinkProvider.class).in(Scopes.SINGLETON);
        // the key index reads the table's data through the connector's reader
        binder.bind(KeyColumnReader.class).to(ParquetBloomPageSourceProvider.class);
        binder.bind(ParquetBloomSessionProperties.class).in(Scopes.SINGLETON);
        binder.bind(MetadataCacheFlusher.class).in(Scopes.SINGLETON);

        binder.bind(BloomProbeProcessorProvider.class).in(Scopes.SINGLETON);
        binder.bind(FunctionProvider.class).to(ParquetBloomFunctionProvider.class).in(Scopes.SINGLETON);
        newSetBinder(binder, ConnectorTableFunction.class).addBinding().toProvider(BloomProbeFunctionProvider.class).in(Scopes.SINGLETON);

        Multibinder<Procedure> procedures = newSetBinder(binder, Procedure.class);
        procedures.addBinding().toProvider(FlushMetadataCacheProcedure.class).in(Scopes.SINGLETON);
        procedures.addBinding().toProvider(RegisterTableProcedure.class).in(Scopes.SINGLETON);
        procedures.addBinding().toProvider(UnregisterTableProcedure.class).in(Scopes.SINGLETON);
        procedures.addBinding().toProvider(CreateKeyIndexProcedure.class).in(Scopes.SINGLETON);
        procedures.addBinding().toProvider(DropKeyIndexProcedure.class).in(Scopes.SINGLETON);

        Multibinder<MetadataTableProvider> metadataTables = newSetBinder(binder, MetadataTableProvider.class);
        metadataTables.addBinding().to(BloomFiltersTable.Provider.class).in(Scopes.SINGLETON);
        metadataTables.addBinding().to(BloomFilterAdviceTable.Provider.class).in(Scopes.SINGLETON);
        metadataTables.addBinding().to(KeyIndexTable.Provider.class).in(Scopes.SINGLETON);
        metadataTables.addBinding().to(PropertiesTable.Provider.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Singleton
    @ForParquetBloomMetadata
    public static ExecutorService createMetadataExecutor(CatalogName catalogName)
    {
        return newThreadPerTaskExecutor(Thread.ofVirtual().name("parquet-bloom-metadata-%s-".formatted(catalogName), 0).factory());
    }

    @Provides
    @Singleton
    @ForParquetBloomColumnReads
    public static ExecutorService createColumnReadExecutor(CatalogName catalogName)
    {
        return newThreadPerTaskExecutor(Thread.ofVirtual().name("parquet-bloom-read-%s-".formatted(catalogName), 0).factory());
    }
}
