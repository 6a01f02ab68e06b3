package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.connector.procedure.KeyIndexTableProcedures;
import io.parquetbloom.connector.system.MetadataTableProvider;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.table.LakeTables;
import io.parquetbloom.table.TableSchemaReader;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import static com.google.common.collect.ImmutableMap.toImmutableMap;
import static java.util.Objects.requireNonNull;

/**
 * Makes the {@link ParquetBloomMetadata} of each transaction, each with its own share ({@code metadata.concurrency})
 * of the catalog's metadata threads.
 */
public class ParquetBloomMetadataFactory
{
    private final LakeTables lakeTables;
    private final TableSchemaReader schemaReader;
    private final ExecutorService executor;
    private final int concurrency;
    private final TableStatisticsReader statisticsReader;
    private final Map<String, MetadataTableProvider> metadataTables;
    private final KeyIndexTableProcedures keyIndexProcedures;

    @Inject
    public ParquetBloomMetadataFactory(
            LakeTables lakeTables,
            TableSchemaReader schemaReader,
            @ForParquetBloomMetadata ExecutorService executor,
            MetadataConfig config,
            TableStatisticsReader statisticsReader,
            Set<MetadataTableProvider> metadataTables,
            KeyIndexTableProcedures keyIndexProcedures)
    {
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.concurrency = config.getMetadataConcurrency();
        this.statisticsReader = requireNonNull(statisticsReader, "statisticsReader is null");
        this.keyIndexProcedures = requireNonNull(keyIndexProcedures, "keyIndexProcedures is null");
        this.metadataTables = metadataTables.stream().collect(toImmutableMap(MetadataTableProvider::suffix, provider -> provider));
    }

    public ParquetBloomMetadata create()
    {
        return new ParquetBloomMetadata(lakeTables, schemaReader, new BoundedExecutor(executor, concurrency), statisticsReader, metadataTables, keyIndexProcedures);
    }
}
