package io.parquetbloom.connector.procedure;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.parquetbloom.ForParquetBloomMetadata;
import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.connector.ParquetBloomTableHandle;
import io.parquetbloom.keyindex.BuildCancellation;
import io.parquetbloom.keyindex.KeyIndexBuildPlans;
import io.parquetbloom.keyindex.KeyIndexBuildStats;
import io.parquetbloom.keyindex.KeyIndexBuilder;
import io.parquetbloom.keyindex.KeyIndexConfig;
import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.keyindex.KeyIndexPublisher;
import io.parquetbloom.keyindex.KeyIndexReader;
import io.parquetbloom.keyindex.KeyIndexUnusableException;
import io.parquetbloom.keyindex.SegmentBuilder;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.trino.spi.NodeManager;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.BeginTableExecuteResult;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.TableProcedureMetadata;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_KEY_INDEX_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.connector.TableProcedureExecutionMode.coordinatorOnly;
import static io.trino.spi.connector.TableProcedureExecutionMode.distributedWithFilteringAndRepartitioning;
import static io.trino.spi.session.PropertyMetadata.stringProperty;
import static java.util.Objects.requireNonNull;

/**
 * The key index as table procedures, as Trino's Iceberg connector runs {@code OPTIMIZE}:
 * {@code ALTER TABLE t EXECUTE create_key_index(column => 'c')} is planned on the coordinator (which files no
 * segment covers), read by the cluster (each node's split reads its share of those files once and writes one segment),
 * and published by the coordinator with the pointer's compare-and-swap. Its progress (splits done, bytes read),
 * memory, cancellation and {@code query_max_run_time} are the engine's. {@code drop_key_index} runs on the
 * coordinator.
 */
public class KeyIndexTableProcedures
{
    private static final Logger log = Logger.get(KeyIndexTableProcedures.class);
    private static final String COLUMN = "column";

    private final KeyIndexBuilder builder;
    private final SegmentBuilder segmentBuilder;
    private final KeyIndexReader indexReader;
    private final KeyIndexPublisher publisher;
    private final KeyIndexBuildPlans plans;
    private final KeyIndexBuildStats buildStats;
    private final NodeManager nodeManager;
    private final ExecutorService executor;
    private final long buildMemoryBytes;

    @Inject
    public KeyIndexTableProcedures(
            KeyIndexBuilder builder,
            SegmentBuilder segmentBuilder,
            KeyIndexReader indexReader,
            KeyIndexPublisher publisher,
            KeyIndexBuildPlans plans,
            KeyIndexBuildStats buildStats,
            NodeManager nodeManager,
            @ForParquetBloomMetadata ExecutorService executor,
            KeyIndexConfig config)
    {
        this.builder = requireNonNull(builder, "builder is null");
        this.segmentBuilder = requireNonNull(segmentBuilder, "segmentBuilder is null");
        this.indexReader = requireNonNull(indexReader, "indexReader is null");
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.plans = requireNonNull(plans, "plans is null");
        this.buildStats = requireNonNull(buildStats, "buildStats is null");
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.buildMemoryBytes = config.getBuildMemory().toBytes();
    }

    public static Set<TableProcedureMetadata> procedures()
    {
        return Set.of(
                new TableProcedureMetadata(KeyIndexProcedure.CREATE_KEY_INDEX.name(), distributedWithFilteringAndRepartitioning(), List.of(columnProperty())),
                new TableProcedureMetadata(KeyIndexProcedure.DROP_KEY_INDEX.name(), coordinatorOnly(), List.of(columnProperty())));
    }

    private static io.trino.spi.session.PropertyMetadata<String> columnProperty()
    {
        return stringProperty(COLUMN, "The column whose key index is built or dropped", null, false);
    }

    public Optional<ConnectorTableExecuteHandle> handleFor(ParquetBloomTableHandle table, String procedureName, Map<String, Object> properties, RetryMode retryMode)
    {
        KeyIndexProcedure procedure;
        try {
            procedure = KeyIndexProcedure.valueOf(procedureName.toUpperCase(Locale.ROOT));
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(NOT_SUPPORTED, "Unknown table procedure: " + procedureName);
        }
        if (retryMode != RetryMode.NO_RETRIES && procedure == KeyIndexProcedure.CREATE_KEY_INDEX) {
            // a retried split writes its segment again under the same name, which the attempt it replaces may delete
            throw new TrinoException(NOT_SUPPORTED, "create_key_index does not run with a retry policy; run it with the session property retry_policy = 'NONE'");
        }
        if (table.snapshotId().isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "%s indexes a table as it is now, not as of a version".formatted(procedure.name().toLowerCase(Locale.ROOT)));
        }
        String column = (String) properties.get(COLUMN);
        if (column == null || column.isBlank()) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "%s needs the column to index: %s(column => 'c')".formatted(procedure.name().toLowerCase(Locale.ROOT), procedure.name().toLowerCase(Locale.ROOT)));
        }
        return Optional.of(new KeyIndexExecuteHandle(procedure, table.schemaName(), table.tableName(), column.toLowerCase(Locale.ROOT), Optional.empty()));
    }

    /**
     * Plans the build: lists the table, reads the index as it is, and chooses the files to read. Where the index is
     * new, the type it hashes in is the first file's that stores the column readably (one footer read here).
     */
    public BeginTableExecuteResult<ConnectorTableExecuteHandle, ConnectorTableHandle> begin(KeyIndexExecuteHandle handle, ParquetBloomTableHandle source)
    {
        if (!source.constraint().isAll()) {
            throw new TrinoException(NOT_SUPPORTED, "create_key_index indexes every file of the table: it takes no WHERE clause");
        }
        buildStats.built();
        S3RequestStats stats = new S3RequestStats();
        KeyIndexBuilder.BuildPlan plan = builder.plan(handle.schemaTableName(), handle.column(), stats);
        if (plan.knownType().isEmpty() && !plan.toRead().isEmpty()) {
            BuildCancellation never = BuildCancellation.never(handle.schemaTableName(), plan.column().name());
            plan = plan.withKnownType(segmentBuilder.indexTypeOf(handle.schemaTableName(), plan.column(), plan.toRead(), never, stats));
        }
        String buildId = plans.register(plan);
        return new BeginTableExecuteResult<>(handle.withBuildId(buildId), source.withKeyIndexBuild(buildId));
    }

    /**
     * The build's splits: its files in as many groups of about equal bytes as the cluster has nodes, each group a
     * segment. The segments' names are reported to {@link #finish}.
     */
    public ConnectorSplitSource splits(ParquetBloomTableHandle table)
    {
        String buildId = table.keyIndexBuild().orElseThrow();
        KeyIndexBuilder.BuildPlan plan = plans.get(buildId)
                .orElseThrow(() -> new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "The key index build of %s is not planned on this coordinator".formatted(table.schemaTableName())));
        List<List<LakeFile>> groups = groups(plan.toRead(), Math.max(1, nodeManager.getRequiredWorkerNodes().size()));
        List<ConnectorSplit> splits = new ArrayList<>();
        List<Object> segments = new ArrayList<>();
        ParquetBloomColumnHandle column = ParquetBloomColumnHandle.dataColumn(plan.column());
        for (List<LakeFile> group : groups) {
            String name = SegmentBuilder.SegmentSpec.newName();
            List<KeyIndexBuildSplit.BuildFile> files = group.stream().map(KeyIndexBuildSplit.BuildFile::of).toList();
            splits.add(new KeyIndexBuildSplit(buildId, table.schemaName(), table.tableName(), plan.table().companionFolder().toString(), column, files, name, plan.knownType(), plan.indexedEntries(), groups.size()));
            segments.add(name);
        }
        plans.recordSegments(buildId, segments.stream().map(String.class::cast).toList());
        log.info("Key index build %s of %s.%s: %d files in %d splits", buildId, table.schemaTableName(), column.name(), plan.toRead().size(), splits.size());
        return new FixedSplitSource(splits, segments);
    }

    /**
     * Files in groups of about equal bytes: each next largest file to the group with the fewest bytes.
     */
    static List<List<LakeFile>> groups(List<LakeFile> files, int maxGroups)
    {
        int count = Math.min(files.size(), maxGroups);
        List<List<LakeFile>> groups = new ArrayList<>();
        long[] bytes = new long[count];
        for (int i = 0; i < count; i++) {
            groups.add(new ArrayList<>());
        }
        List<LakeFile> bySize = files.stream().sorted(Comparator.comparingLong((LakeFile file) -> file.object().size()).reversed()).toList();
        for (LakeFile file : bySize) {
            int smallest = 0;
            for (int i = 1; i < count; i++) {
                if (bytes[i] < bytes[smallest]) {
                    smallest = i;
                }
            }
            groups.get(smallest).add(file);
            bytes[smallest] += file.object().size();
        }
        return groups;
    }

    public ConnectorPageSource pageSource(KeyIndexBuildSplit split)
    {
        String indexed = KeyIndexLocations.indexedColumn(split.dataColumn());
        return new KeyIndexBuildPageSource(split, segmentBuilder, executor, buildMemoryBytes,
                segment -> publisher.deleteSegment(S3Location.parse(split.indexes()), indexed, segment.reference(), new S3RequestStats()));
    }

    /**
     * Publishes the segments the build's splits wrote: each described by its trailer (no table data is read here).
     */
    public Map<String, Long> finish(KeyIndexExecuteHandle handle, List<Object> splitsInfo)
    {
        String buildId = handle.buildId().orElseThrow();
        KeyIndexBuilder.BuildPlan plan = plans.remove(buildId)
                .orElseThrow(() -> new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "The key index build of %s is not planned on this coordinator".formatted(handle.schemaTableName())));
        S3RequestStats stats = new S3RequestStats();
        List<String> names = splitsInfo.stream().map(String.class::cast).toList();
        List<SegmentBuilder.NewSegment> segments;
        try {
            segments = indexReader.describe(plan.table().companionFolder(), plan.indexed(), plan.knownType(), names, stats);
        }
        catch (KeyIndexUnusableException e) {
            buildStats.failed();
            throw new TrinoException(PARQUET_BLOOM_KEY_INDEX_ERROR, "Key index build of %s.%s: %s".formatted(handle.schemaTableName(), plan.column().name(), e.getMessage()), e);
        }
        BuildCancellation never = BuildCancellation.never(handle.schemaTableName(), plan.column().name());
        KeyIndexBuilder.BuildResult result = builder.publish(plan, segments, never, stats).result();
        return ImmutableMap.<String, Long>builder()
                .put("files_read", (long) result.filesRead())
                .put("files_not_indexed", (long) result.filesNotIndexed())
                .put("entries", result.entries())
                .put("segment_bytes", result.segmentBytes())
                .put("segments", (long) result.segments())
                .put("orphans_deleted", result.orphansDeleted())
                .buildOrThrow();
    }

    /**
     * A build whose query ended without publishing (cancelled, timed out, failed): the segments its splits uploaded
     * are deleted. A split still running then deletes its own when the engine closes it; what lands later still is an
     * orphan, deleted by a later build once older than {@code key-index.orphan-retention}.
     */
    public void abandon(String buildId)
    {
        List<String> names = plans.segments(buildId);
        plans.remove(buildId).ifPresent(plan -> {
            S3RequestStats stats = new S3RequestStats();
            names.forEach(name -> publisher.deleteSegment(plan.table().companionFolder(), plan.indexed(), name, stats));
            log.info("Key index build %s of %s.%s did not finish: %d segments deleted", buildId, plan.table().name(), plan.column().name(), names.size());
        });
    }

    /**
     * {@code drop_key_index}, on the coordinator.
     */
    public Map<String, Long> execute(KeyIndexExecuteHandle handle)
    {
        if (handle.procedure() != KeyIndexProcedure.DROP_KEY_INDEX) {
            throw new IllegalArgumentException("not run on the coordinator alone: " + handle.procedure());
        }
        builder.drop(handle.schemaTableName(), handle.column());
        return Map.of();
    }
}
