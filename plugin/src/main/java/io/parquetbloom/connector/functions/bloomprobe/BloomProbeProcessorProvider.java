package io.parquetbloom.connector.functions.bloomprobe;

import com.google.inject.Inject;
import io.airlift.concurrent.BoundedExecutor;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.connector.PruningPlans;
import io.parquetbloom.health.BloomProbe;
import io.parquetbloom.health.BloomProbeRow;
import io.parquetbloom.health.InOrderWindow;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.Page;
import io.trino.spi.PageBuilder;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.function.table.Descriptor;
import io.trino.spi.function.table.TableFunctionProcessorProvider;
import io.trino.spi.function.table.TableFunctionProcessorState;
import io.trino.spi.function.table.TableFunctionSplitProcessor;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.spi.function.table.TableFunctionProcessorState.Finished.FINISHED;
import static io.trino.spi.function.table.TableFunctionProcessorState.Processed.produced;
import static java.util.Objects.requireNonNull;

/**
 * Runs {@code bloom_probe} on the node its split goes to: the table is listed there and every file planned with the
 * query's own pruner and plan, through that node's caches.
 */
public class BloomProbeProcessorProvider
        implements TableFunctionProcessorProvider
{
    private static final int ROWS_PER_PAGE = 4_096;

    private final LakeTables lakeTables;
    private final BloomProbe probe;
    private final ExecutorService executor;
    private final int concurrency;

    @Inject
    public BloomProbeProcessorProvider(LakeTables lakeTables, BloomProbe probe, @ForParquetBloomMetadata ExecutorService executor, MetadataConfig config)
    {
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
        this.probe = requireNonNull(probe, "probe is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.concurrency = config.getMetadataConcurrency();
    }

    @Override
    public TableFunctionSplitProcessor getSplitProcessor(ConnectorSession session, ConnectorTableFunctionHandle handle, Optional<ConnectorTableCredentials> tableCredentials, ConnectorSplit split)
    {
        BloomProbeHandle probeHandle = (BloomProbeHandle) handle;
        return new TableFunctionSplitProcessor()
        {
            private InOrderWindow<LakeFile, List<BloomProbeRow>> files;

            @Override
            public TableFunctionProcessorState process()
            {
                if (files == null) {
                    files = run(session, probeHandle);
                }
                // a page of a few files' rows at a time, never the whole table's
                List<BloomProbeRow> rows = new ArrayList<>();
                while (files.hasNext() && rows.size() < ROWS_PER_PAGE) {
                    rows.addAll(files.next());
                }
                if (rows.isEmpty()) {
                    files.close();
                    return FINISHED;
                }
                return produced(toPage(rows));
            }
        };
    }

    private InOrderWindow<LakeFile, List<BloomProbeRow>> run(ConnectorSession session, BloomProbeHandle handle)
    {
        SchemaTableName name = handle.schemaTableName();
        ReadStats stats = new ReadStats();
        S3Location folder = lakeTables.findTable(name, stats.requests())
                .orElseThrow(() -> new TableNotFoundException(name, "bloom_probe: table %s not found".formatted(name)));
        LakeTable table = lakeTables.getTable(name, folder, stats.requests());
        ParquetBloomColumnHandle column = handle.column();
        Object value = BloomProbeValues.toNativeValue(column.name(), column.type(), handle.value());
        TupleDomain<ParquetBloomColumnHandle> constraint = TupleDomain.withColumnDomains(Map.of(column, Domain.singleValue(column.type(), value)));
        return probe.probe(table, column.name(), options -> PruningPlans.create(name, options, constraint), PruningPlans.options(session),
                new BoundedExecutor(executor, concurrency), stats);
    }

    private static Page toPage(List<BloomProbeRow> rows)
    {
        List<Type> types = BloomProbeFunction.COLUMNS.getFields().stream().map(Descriptor.Field::getType).map(Optional::orElseThrow).toList();
        PageBuilder page = new PageBuilder(rows.size(), types);
        for (BloomProbeRow row : rows) {
            page.declarePosition();
            write(page, types, 0, row.file());
            write(page, types, 1, row.partition().orElse(null));
            write(page, types, 2, row.rowGroup().isPresent() ? (long) row.rowGroup().getAsInt() : null);
            write(page, types, 3, row.rowCount().isPresent() ? row.rowCount().getAsLong() : null);
            write(page, types, 4, row.statistics().orElse(null));
            write(page, types, 5, row.bloomFilter().orElse(null));
            write(page, types, 6, row.dictionary().orElse(null));
            write(page, types, 7, row.noMatchCache().orElse(null));
            write(page, types, 8, row.read());
            write(page, types, 9, row.skippedBy().orElse(null));
        }
        return page.build();
    }

    private static void write(PageBuilder page, List<Type> types, int channel, Object value)
    {
        BlockBuilder block = page.getBlockBuilder(channel);
        if (value == null) {
            block.appendNull();
            return;
        }
        Type type = types.get(channel);
        switch (value) {
            case String text -> type.writeSlice(block, utf8Slice(text));
            case Long number -> type.writeLong(block, number);
            case Boolean flag -> type.writeBoolean(block, flag);
            default -> throw new IllegalArgumentException("unexpected value " + value);
        }
    }
}
