package io.parquetbloom.connector.parquet;

import com.google.inject.Inject;
import io.airlift.units.DataSize;
import io.parquetbloom.connector.ForParquetBloomColumnReads;
import io.parquetbloom.connector.MetadataCacheFlusher;
import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.connector.ParquetBloomSplit;
import io.parquetbloom.connector.ParquetBloomSplitGroup;
import io.parquetbloom.connector.ParquetBloomTableHandle;
import io.parquetbloom.connector.PruningPlans;
import io.parquetbloom.hash.UnsignedIntegers;
import io.parquetbloom.keyindex.KeyColumnPages;
import io.parquetbloom.keyindex.KeyColumnReader;
import io.parquetbloom.metadata.CompactFooter;
import io.parquetbloom.metadata.FileKey;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.OffsetIndexLoader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.pruning.DomainValueMatcher;
import io.parquetbloom.pruning.DomainValueMatchers;
import io.parquetbloom.pruning.NoMatchCache;
import io.parquetbloom.pruning.NoMatchRecorder;
import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.PruningTotals;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.pruning.RowGroupScope;
import io.parquetbloom.pruning.RowGroupSelection;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.PartitionValues;
import io.parquetbloom.table.RowDeletes;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.parquet.Column;
import io.trino.parquet.DiskRange;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetCorruptionException;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.LongPredicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.collect.ImmutableList.toImmutableList;
import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.getSplitReadAheadFiles;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isPageReadsEnabled;
import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * Opens one split: footer (one tail GET, usually), row-group pruning by statistics then bloom filters (one GET for
 * the filters, or none when they were in the tail), then a {@link ParquetReader} over the surviving row groups'
 * projected column chunks only.
 */
public final class ParquetBloomPageSourceProvider
        implements ConnectorPageSourceProvider, KeyColumnReader
{
    // the columns of an Iceberg position delete file, by the field ids the Iceberg spec reserves for them
    private static final ParquetBloomColumnHandle DELETE_FILE_PATH = new ParquetBloomColumnHandle("file_path", VARCHAR, false, OptionalInt.of(Integer.MAX_VALUE - 101));
    private static final ParquetBloomColumnHandle DELETE_POS = new ParquetBloomColumnHandle("pos", BIGINT, false, OptionalInt.of(Integer.MAX_VALUE - 102));

    private final S3ObjectStore store;
    private final ParquetMetadataReader metadataReader;
    private final NoMatchCache noMatchCache;
    private final DomainValueMatchers matchers;
    private final FileColumnResolver resolver;
    private final RowGroupPruner pruner;
    private final ParquetReaderOptions readerOptions;
    private final Executor columnReadExecutor;

    private final MetadataCacheFlusher flusher;
    private final PruningTotals totals;
    private final RowGroupReadPlanner readPlanner = new RowGroupReadPlanner();
    private final ReadByPages readByPages;

    @Inject
    public ParquetBloomPageSourceProvider(
            S3ObjectStore store,
            ParquetMetadataReader metadataReader,
            NoMatchCache noMatchCache,
            DomainValueMatchers matchers,
            FileColumnResolver resolver,
            RowGroupPruner pruner,
            @ForParquetBloomColumnReads ExecutorService columnReadExecutor,
            MetadataCacheFlusher flusher,
            PruningTotals totals,
            OffsetIndexLoader offsetIndexLoader)
    {
        this.totals = requireNonNull(totals, "totals is null");
        this.flusher = requireNonNull(flusher, "flusher is null");
        this.columnReadExecutor = requireNonNull(columnReadExecutor, "columnReadExecutor is null");
        this.store = requireNonNull(store, "store is null");
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.noMatchCache = requireNonNull(noMatchCache, "noMatchCache is null");
        this.matchers = requireNonNull(matchers, "matchers is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.pruner = requireNonNull(pruner, "pruner is null");
        this.readerOptions = ParquetReaderOptions.builder()
                // we prune with our own filters and never want a small file read whole
                .withBloomFilter(false)
                .withUseColumnIndex(false)
                .withSmallFileThreshold(DataSize.ofBytes(0))
                .build();
        this.readByPages = new ReadByPages(store, offsetIndexLoader, noMatchCache, columnReadExecutor, readerOptions, totals);
    }

    @Override
    public ConnectorPageSource createPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit connectorSplit,
            ConnectorTableHandle connectorTable,
            Optional<ConnectorTableCredentials> tableCredentials,
            List<ColumnHandle> columnHandles,
            DynamicFilter dynamicFilter)
    {
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) connectorTable;
        List<ParquetBloomColumnHandle> columns = columnHandles.stream().map(ParquetBloomColumnHandle.class::cast).collect(toImmutableList());
        if (connectorSplit instanceof ParquetBloomSplitGroup group) {
            return new ReadAheadPageSource(group.splits(), split -> createPageSource(session, split, table, columns, dynamicFilter), columnReadExecutor, getSplitReadAheadFiles(session));
        }
        return createPageSource(session, (ParquetBloomSplit) connectorSplit, table, columns, dynamicFilter);
    }

    private ConnectorPageSource createPageSource(ConnectorSession session, ParquetBloomSplit split, ParquetBloomTableHandle table, List<ParquetBloomColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        flusher.observe(split.metadataCacheFlush());
        ReadStats readStats = new ReadStats();
        TupleDomain<ParquetBloomColumnHandle> constraint = table.constraint()
                .intersect(dynamicFilter.getCurrentPredicate().transformKeys(ParquetBloomColumnHandle.class::cast));
        PruningPlan plan = PruningPlans.create(table.schemaTableName(), PruningPlans.options(session), constraint);
        if (!plan.matchesPartition(split.partitionValues())) {
            return ParquetBloomPageSource.empty(split.path(), new PruningStats(), readStats, totals);
        }

        S3ObjectInfo object = new S3ObjectInfo(S3Location.parse(split.path()), split.fileSize(), split.etag());
        long readWholeUpTo = readWholeUpTo(split, plan);
        ParquetFileMetadata file = metadataReader.footer(FooterRequest.forReading(object, plan.table(), readWholeUpTo, plan.filterColumns(), fileColumns(columns, constraint)), readStats);
        Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields = fileFields(columns, constraint, file.metadata().getFileMetaData().getSchema(), split.path());
        // the columns resolved once: the pruner uses the fields of the constrained ones
        Map<String, org.apache.parquet.schema.Type> fieldsByName = new HashMap<>();
        fields.forEach((column, field) -> fieldsByName.put(column.name(), field));
        RowGroupSelection selection = pruner.prune(file, plan, rowGroupScope(split), fieldsByName, readStats);
        if (split.deletes().isEmpty()) {
            // with deleted rows, a row group holds fewer rows than its count: the LIMIT could not be met from it
            selection = withinLimit(selection, file, table, constraint);
        }
        if (selection.rowGroups().isEmpty()) {
            return ParquetBloomPageSource.empty(split.path(), selection.stats(), readStats, totals);
        }
        // a small file read whole just now: the reader takes its chunks from those bytes
        FileTail tail = object.size() <= readWholeUpTo ? dataInTail(file) : FileTail.NONE;
        // reading by pages returns rows without their positions in the file, which deletes need
        ReadMode mode = new ReadMode(plan.options().noMatchCache(), isPageReadsEnabled(session) && split.deletes().isEmpty(), readPlanner.matchesOf(session.getQueryId()));
        Optional<LongPredicate> deleted = split.deletes().isEmpty()
                ? Optional.empty()
                : Optional.of(DeletedRows.load(split.path(), split.deletes(), store, delete -> positionDeleteRows(delete, plan.table(), readStats), readStats.requests()));
        return openReader(split.path(), split.partitionValues(), object, file.retainOnlyFooter(), tail, columns, fields, selection, mode, split.keyPages(), deleted, readStats);
    }

    /**
     * The first row groups that hold the scan's LIMIT: with no predicate at all (none the engine filters by, no dynamic
     * filter), every row is returned, so the rows of later row groups are never needed.
     */
    private static RowGroupSelection withinLimit(RowGroupSelection selection, ParquetFileMetadata file, ParquetBloomTableHandle table, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        if (table.limit().isEmpty() || !constraint.isAll()) {
            return selection;
        }
        List<Integer> kept = new ArrayList<>();
        long rows = 0;
        try {
            for (int rowGroup : selection.rowGroups()) {
                if (rows >= table.limit().getAsLong()) {
                    break;
                }
                kept.add(rowGroup);
                rows += file.blocks().get(rowGroup).rowCount();
            }
        }
        catch (IOException e) {
            // the reader reports a footer it cannot parse, naming the file
            return selection;
        }
        return new RowGroupSelection(kept, selection.fileDomains(), selection.stats());
    }

    /**
     * Files up to this size are read whole by the footer read (where the footer is not cached), as trino-parquet reads
     * a small file: an unpruned split where dictionaries may prune, and a planned split whose row groups are at least
     * half the file (an IN list the key index found in most row groups), which then costs one GET instead of a footer
     * GET and a data GET one after the other.
     */
    private static long readWholeUpTo(ParquetBloomSplit split, PruningPlan plan)
    {
        if (split.rowGroups().isEmpty()) {
            return plan.readWholeFileUpTo();
        }
        return split.length() * 2 >= split.fileSize() ? plan.options().smallFileThreshold() : 0;
    }

    @Override
    public ConnectorPageSource readRowGroup(S3ObjectInfo file, SchemaTableName table, TableSchemaReader.DataColumn column, int rowGroup, S3RequestStats requests)
    {
        return readRowGroups(file, table, List.of(ParquetBloomColumnHandle.dataColumn(column)), List.of(rowGroup), requests);
    }

    /**
     * The given row groups of one file, read as a query reads them (the same column resolution, type mapping and
     * conversions) but without pruning: the entry for work that is not a query's scan, such as the key index build.
     * Data columns only; their GETs are counted in {@code requests}.
     */
    private ConnectorPageSource readRowGroups(S3ObjectInfo object, SchemaTableName table, List<ParquetBloomColumnHandle> columns, List<Integer> rowGroups, S3RequestStats requests)
    {
        checkArgument(columns.stream().noneMatch(ParquetBloomColumnHandle::partitionKey), "partition columns are not in the file: %s", columns);
        ReadStats readStats = new ReadStats(requests, new MetadataCacheStats());
        String path = object.location().toString();
        ParquetFileMetadata file = metadataReader.footer(FooterRequest.forReading(object, table, 0, Set.of(), fileColumns(columns, TupleDomain.all())), readStats);
        Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields = fileFields(columns, TupleDomain.all(), file.metadata().getFileMetaData().getSchema(), path);
        RowGroupSelection selection = new RowGroupSelection(rowGroups, Map.of(), new PruningStats());
        return openReader(path, Map.of(), object, file.retainOnlyFooter(), FileTail.NONE, columns, fields, selection, new ReadMode(false, false, RowGroupMatches.NONE), Optional.empty(), Optional.empty(), readStats);
    }

    /**
     * The rows ({@code file_path}, {@code pos}) of an Iceberg position delete file, every row group, read as a
     * query reads (columns by Iceberg's reserved field ids).
     */
    private ConnectorPageSource positionDeleteRows(RowDeletes delete, SchemaTableName table, ReadStats readStats)
    {
        S3ObjectInfo object = S3ObjectInfo.immutable(S3Location.parse(DeletedRows.normalized(delete.path())), delete.fileSize());
        ParquetFileMetadata footer = metadataReader.footer(FooterRequest.forReading(object, table, 0, Set.of(), Set.of(DELETE_FILE_PATH.name(), DELETE_POS.name())), readStats);
        int rowGroups;
        try {
            rowGroups = footer.blocks().size();
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot read position delete file %s: %s".formatted(delete.path(), e.getMessage()), e);
        }
        return readRowGroups(object, table, List.of(DELETE_FILE_PATH, DELETE_POS), IntStream.range(0, rowGroups).boxed().toList(), readStats.requests());
    }

    /**
     * The data columns (lower case) the reader reads or filters on: what a compact footer must hold to serve it.
     */
    private static Set<String> fileColumns(List<ParquetBloomColumnHandle> columns, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        return Stream.concat(columns.stream(), constraint.getDomains().orElse(Map.of()).keySet().stream())
                .filter(column -> !column.fromListing())
                // a column matched by field id by its id too: a renamed column's older files name it otherwise
                .flatMap(column -> CompactFooter.footerNames(column.name(), column.fieldId(), column.mappedNames()))
                .collect(toImmutableSet());
    }

    /**
     * The top-level fields to read (projected) and to filter on (constrained); a column the file stores as another
     * type fails here, naming file and column.
     */
    private Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fileFields(List<ParquetBloomColumnHandle> columns, TupleDomain<ParquetBloomColumnHandle> constraint, MessageType fileSchema, String path)
    {
        Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields = new LinkedHashMap<>();
        for (ParquetBloomColumnHandle column : columns) {
            fileField(column, fileSchema, path).ifPresent(field -> fields.put(column, field));
        }
        for (ParquetBloomColumnHandle column : constraint.getDomains().orElseThrow().keySet()) {
            fileField(column, fileSchema, path).ifPresent(field -> fields.putIfAbsent(column, field));
        }
        return fields;
    }

    /**
     * A split with row groups was pruned by the coordinator with the same plan and the dynamic filter it waited for;
     * an unpruned one (the coordinator could not prune the file, or pruning was off there) is pruned here.
     */
    private static RowGroupScope rowGroupScope(ParquetBloomSplit split)
    {
        return split.rowGroups()
                .<RowGroupScope>map(RowGroupScope.Planned::new)
                .orElseGet(() -> new RowGroupScope.ByteRange(split.start(), split.length()));
    }

    private ConnectorPageSource openReader(
            String path,
            Map<String, Optional<String>> partitionValues,
            S3ObjectInfo object,
            ParquetFileMetadata file,
            FileTail tail,
            List<ParquetBloomColumnHandle> columns,
            Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields,
            RowGroupSelection selection,
            ReadMode mode,
            Optional<KeyColumnPages> keyPages,
            Optional<LongPredicate> deleted,
            ReadStats readStats)
    {
        MessageType fileSchema = file.metadata().getFileMetaData().getSchema();
        MessageType requestedSchema = new MessageType(fileSchema.getName(), fields.values().stream().distinct().toList());
        Map<List<String>, ColumnDescriptor> descriptorsByPath = getDescriptors(fileSchema, requestedSchema);
        List<RowGroupInfo> rowGroups = rowGroupInfos(file, selection.rowGroups(), descriptorsByPath, path);
        List<NoMatchRecorder.ReadRowGroup> readRowGroups = readRowGroups(selection.rowGroups(), rowGroups);
        // the probe and the no-match recorder test the same column against the same domain: one matcher serves both
        Map<String, DomainValueMatcher> splitMatchers = new HashMap<>();
        Projection projection = project(columns, fields, getColumnIO(fileSchema, requestedSchema), selection.fileDomains(), splitMatchers, path, partitionValues);

        Optional<NoMatchRecorder> noMatchRecorder = Optional.empty();
        if (mode.recordNoMatch() && !projection.trackedColumns().isEmpty()) {
            noMatchRecorder = Optional.of(new NoMatchRecorder(noMatchCache, FileKey.of(object), readRowGroups, projection.trackedColumns(), selection.stats()));
        }
        Map<String, Domain> filterFields = filterFields(columns, fields, selection.fileDomains());
        Set<Integer> wholeRowGroups = RowGroupReadPlanner.wholeRowGroups(rowGroups.size(), filterFields.values(), mode.matches());
        // a file the footer read brought whole has nothing left to save; where most row groups match, reading whole
        // costs one round trip and reading by pages two, unless the key index named few of the key pages (the other
        // columns' pages come with them then: one round trip, as whole, of far fewer bytes)
        Optional<OffsetIndexPrefetch> prefetch = Optional.empty();
        if (mode.pageReads() && (wholeRowGroups.isEmpty() || keyPages.map(KeyColumnPages::selective).orElse(false)) && tail == FileTail.NONE) {
            List<ReadByPages.FilterColumn> filterColumns = filterColumns(columns, fields, projection.readerColumns(), selection.fileDomains(), splitMatchers, mode.recordNoMatch());
            if (ReadByPages.applies(projection.readerColumns(), filterColumns, keyPages)) {
                ReadByPages.Split split = new ReadByPages.Split(path, object, file, selection.rowGroups(), rowGroups, projection.readerColumns(), filterColumns, keyPages);
                if (!readByPages.offsetIndexesPending(split)) {
                    return readByPages.open(split, projection.pageSource(), selection.stats(), mode.matches(), readStats);
                }
                prefetch = Optional.of(readByPages.prefetch(split, readStats));
            }
        }
        ColumnChunkLayout layout = columnChunkLayout(rowGroups, descriptorsByPath, projection.readerColumns(), filterFields.keySet(), wholeRowGroups);
        S3ParquetDataSource dataSource = new S3ParquetDataSource(store, object, readStats.requests(), readerOptions, layout, columnReadExecutor, mode.matches(), tail);
        ParquetReader reader = createReader(path, file, projection.readerColumns(), rowGroups, dataSource);
        return projection.pageSource().build(path, reader, readRowGroups, noMatchRecorder, selection.stats(), readStats, totals, prefetch, deleted);
    }

    /**
     * How a split's row groups may be read.
     *
     * @param recordNoMatch whether row groups read without a matching row are recorded in the no-match cache
     * @param pageReads whether row groups read key first may be read by pages
     * @param matches what this query's row groups showed so far on this node
     */
    private record ReadMode(boolean recordNoMatch, boolean pageReads, RowGroupMatches matches) {}

    /**
     * The projected filter columns whose values the probe of a split read by pages can test: flat columns read as the
     * table declares them (an unsigned one is read as another type, then converted).
     */
    private List<ReadByPages.FilterColumn> filterColumns(
            List<ParquetBloomColumnHandle> columns,
            Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields,
            List<Column> readerColumns,
            Map<String, Domain> domains,
            Map<String, DomainValueMatcher> splitMatchers,
            boolean recordNoMatch)
    {
        Map<String, Column> readerColumnsByName = new HashMap<>();
        readerColumns.forEach(column -> readerColumnsByName.putIfAbsent(column.name(), column));
        List<ReadByPages.FilterColumn> filterColumns = new ArrayList<>();
        Set<String> added = new HashSet<>();
        for (ParquetBloomColumnHandle column : columns) {
            org.apache.parquet.schema.Type field = fields.get(column);
            Domain domain = domains.get(column.name());
            if (field == null || domain == null || !field.isPrimitive() || conversion(column, field).isPresent() || !added.add(field.getName())) {
                continue;
            }
            Column readerColumn = readerColumnsByName.get(field.getName());
            if (readerColumn != null && readerColumn.field() instanceof PrimitiveField primitive) {
                RowMatchProbe.ProbeColumn probe = new RowMatchProbe.ProbeColumn(readerColumn, primitive, matcher(splitMatchers, column, domain));
                filterColumns.add(new ReadByPages.FilterColumn(probe, column.name(), domain, recordNoMatch && noMatchCache.remembers(domain) && column.fieldId().isEmpty()));
            }
        }
        return filterColumns;
    }

    /**
     * The tail's bytes before the footer, where the footer read brought more than the footer (a cached footer holds
     * none).
     */
    private static FileTail dataInTail(ParquetFileMetadata file)
    {
        long footerStart = file.footerStart();
        if (file.compacted().isPresent() || file.tailStart() >= footerStart) {
            return FileTail.NONE;
        }
        return new FileTail(file.tailStart(), file.tail());
    }

    private static List<RowGroupInfo> rowGroupInfos(ParquetFileMetadata file, List<Integer> ordinals, Map<List<String>, ColumnDescriptor> descriptorsByPath, String path)
    {
        ParquetDataSourceId dataSourceId = new ParquetDataSourceId(path);
        List<RowGroupInfo> rowGroups = new ArrayList<>();
        try {
            List<BlockMetadata> blocks = file.blocks();
            for (int ordinal : ordinals) {
                BlockMetadata block = blocks.get(ordinal);
                rowGroups.add(new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, dataSourceId, descriptorsByPath), block.fileRowCountOffset(), Optional.empty()));
            }
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot read row groups of %s: %s".formatted(path, e.getMessage()), e);
        }
        return rowGroups;
    }

    private static List<NoMatchRecorder.ReadRowGroup> readRowGroups(List<Integer> ordinals, List<RowGroupInfo> rowGroups)
    {
        List<NoMatchRecorder.ReadRowGroup> readRowGroups = new ArrayList<>();
        for (int i = 0; i < ordinals.size(); i++) {
            readRowGroups.add(new NoMatchRecorder.ReadRowGroup(ordinals.get(i), rowGroups.get(i).fileRowOffset(), rowGroups.get(i).prunedBlockMetadata().getRowCount()));
        }
        return readRowGroups;
    }

    /**
     * @param readerColumns the file columns the reader returns, in its channel order
     * @param pageSource the output channels: the reader's (unsigned ones converted) and constants
     * @param trackedColumns the constrained columns whose values the no-match recorder watches
     */
    private record Projection(List<Column> readerColumns, ParquetBloomPageSource.Builder pageSource, List<NoMatchRecorder.TrackedColumn> trackedColumns) {}

    /**
     * File columns come from the reader; the rest (partition keys, columns the file lacks) are constants.
     */
    private Projection project(
            List<ParquetBloomColumnHandle> columns,
            Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields,
            MessageColumnIO messageColumnIO,
            Map<String, Domain> domains,
            Map<String, DomainValueMatcher> splitMatchers,
            String path,
            Map<String, Optional<String>> partitionValues)
    {
        List<Column> readerColumns = new ArrayList<>();
        ParquetBloomPageSource.Builder pageSource = ParquetBloomPageSource.builder();
        List<NoMatchRecorder.TrackedColumn> trackedColumns = new ArrayList<>();
        for (int channel = 0; channel < columns.size(); channel++) {
            ParquetBloomColumnHandle column = columns.get(channel);
            org.apache.parquet.schema.Type field = fields.get(column);
            Optional<ColumnConversion> conversion = conversion(column, field);
            Type readerType = conversion.map(ColumnConversion::readerType).orElse(column.readType());
            Optional<Field> readerField = field == null ? Optional.empty() : constructField(readerType, lookupColumnByName(messageColumnIO, field.getName()));
            if (readerField.isEmpty()) {
                pageSource.addConstantColumn(constantBlock(column, partitionValues, path));
                continue;
            }
            int sourceChannel = readerColumns.size();
            readerColumns.add(new Column(field.getName(), readerField.get()));
            conversion.ifPresentOrElse(value -> pageSource.addConvertedColumn(sourceChannel, value), () -> pageSource.addSourceColumn(sourceChannel));
            Domain domain = domains.get(column.name());
            // facts are kept by column name: a table format's column is its field id, which a name may change
            // sides with (a rename, a drop and re-add), so no facts are recorded for it
            if (domain != null && field.isPrimitive() && noMatchCache.remembers(domain) && column.fieldId().isEmpty()) {
                trackedColumns.add(new NoMatchRecorder.TrackedColumn(channel, column.name(), domain, matcher(splitMatchers, column, domain)));
            }
        }
        return new Projection(readerColumns, pageSource, trackedColumns);
    }

    /**
     * The split's matcher of a column's domain, built or taken from the node's once per split.
     */
    private DomainValueMatcher matcher(Map<String, DomainValueMatcher> splitMatchers, ParquetBloomColumnHandle column, Domain domain)
    {
        return splitMatchers.computeIfAbsent(column.name(), _ -> matchers.matcher(column.type(), domain));
    }

    private ParquetReader createReader(String path, ParquetFileMetadata file, List<Column> readerColumns, List<RowGroupInfo> rowGroups, S3ParquetDataSource dataSource)
    {
        try {
            return new ParquetReader(
                    Optional.ofNullable(file.metadata().getFileMetaData().getCreatedBy()),
                    readerColumns,
                    false,
                    rowGroups,
                    dataSource,
                    DateTimeZone.UTC,
                    newSimpleAggregatedMemoryContext(),
                    readerOptions,
                    exception -> readError(path, exception),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty());
        }
        catch (IOException | RuntimeException e) {
            throw readError(path, e);
        }
    }

    /**
     * The projected top-level fields of the file that the query filters on (its constraint and dynamic filters), each
     * with its predicate.
     */
    private static Map<String, Domain> filterFields(List<ParquetBloomColumnHandle> columns, Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields, Map<String, Domain> domains)
    {
        Map<String, Domain> filtered = new HashMap<>();
        for (ParquetBloomColumnHandle column : columns) {
            org.apache.parquet.schema.Type field = fields.get(column);
            Domain domain = domains.get(column.name());
            if (field != null && domain != null) {
                filtered.put(field.getName(), domain);
            }
        }
        return filtered;
    }

    /**
     * The byte ranges the reader will plan for each row group read (the same chunk metadata it uses), and which of them
     * hold filter columns: those are fetched first, the rest of a row group only when one of its rows is wanted.
     */
    private static ColumnChunkLayout columnChunkLayout(List<RowGroupInfo> rowGroups, Map<List<String>, ColumnDescriptor> descriptorsByPath, List<Column> readerColumns, Set<String> filterFields, Set<Integer> wholeRowGroups)
    {
        if (filterFields.isEmpty()) {
            return ColumnChunkLayout.unfiltered();
        }
        Set<String> readFields = new HashSet<>();
        readerColumns.forEach(column -> readFields.add(column.name()));
        Set<DiskRange> filterChunks = new HashSet<>();
        Map<DiskRange, Integer> rowGroupOfChunk = new HashMap<>();
        for (int rowGroup = 0; rowGroup < rowGroups.size(); rowGroup++) {
            PrunedBlockMetadata block = rowGroups.get(rowGroup).prunedBlockMetadata();
            for (Map.Entry<List<String>, ColumnDescriptor> entry : descriptorsByPath.entrySet()) {
                if (!readFields.contains(entry.getKey().getFirst())) {
                    continue;
                }
                ColumnChunkMetadata chunk;
                try {
                    chunk = block.getColumnChunkMetaData(entry.getValue());
                }
                catch (ParquetCorruptionException e) {
                    // the reader reports it, naming the file, when it gets there
                    return ColumnChunkLayout.unfiltered();
                }
                if (chunk.getStartingPos() < 0 || chunk.getTotalSize() <= 0) {
                    // a damaged footer: the reader rejects it, naming the file
                    return ColumnChunkLayout.unfiltered();
                }
                DiskRange range = new DiskRange(chunk.getStartingPos(), chunk.getTotalSize());
                rowGroupOfChunk.put(range, rowGroup);
                if (filterFields.contains(entry.getKey().getFirst())) {
                    filterChunks.add(range);
                }
            }
        }
        return new ColumnChunkLayout(filterChunks, rowGroupOfChunk, wholeRowGroups);
    }

    /**
     * How a top-level unsigned integer column is read: as its signed counterpart, then converted.
     */
    private Optional<ColumnConversion> conversion(ParquetBloomColumnHandle column, org.apache.parquet.schema.Type field)
    {
        if (field == null || !field.isPrimitive()) {
            return Optional.empty();
        }
        OptionalInt width = UnsignedIntegers.unsignedWidth(field.asPrimitiveType());
        if (width.isPresent()) {
            return Optional.of(UnsignedConversion.of(width.getAsInt(), column.type()));
        }
        // a type a table format widened since the file was written
        return resolver.fileType(field)
                .filter(fileType -> FileColumnResolver.converts(fileType, column.type()))
                .map(fileType -> new WideningConversion(fileType, column.type()));
    }

    /**
     * The file's field for a data column, or empty when the file lacks it (read as NULL). A field whose type the
     * column cannot be read as is an error naming file and column.
     */
    private Optional<org.apache.parquet.schema.Type> fileField(ParquetBloomColumnHandle column, MessageType fileSchema, String path)
    {
        if (column.fromListing()) {
            return Optional.empty();
        }
        return switch (resolver.resolve(column.name(), column.fieldId(), column.mappedNames(), column.readType(), fileSchema)) {
            case FileColumnResolver.Resolution.Missing _ -> Optional.empty();
            case FileColumnResolver.Resolution.Match match -> Optional.of(match.field());
            case FileColumnResolver.Resolution.Widened widened -> Optional.of(widened.field());
            case FileColumnResolver.Resolution.Mismatch mismatch -> throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Column %s of file %s has Parquet type %s (%s); the table declares %s".formatted(
                    column.name(), path, mismatch.field().toString().trim(), mismatch.fileType().map(Type::getDisplayName).orElse("unsupported"), column.type().getDisplayName()));
        };
    }

    /**
     * A column the file does not hold: a partition column's value, a column a table format keeps an identity
     * partition value for (a file written without it), else NULL.
     */
    private static Block constantBlock(ParquetBloomColumnHandle column, Map<String, Optional<String>> partitionValues, String path)
    {
        if (!column.fromListing() && !partitionValues.containsKey(column.name())) {
            return column.type().createNullBlock();
        }
        Optional<String> raw = partitionValues.getOrDefault(column.name(), Optional.empty());
        if (raw.isPresent() && raw.get().equals(PartitionValues.UNREADABLE)) {
            throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "File %s has no column %s, and its partition value of type %s is not read yet".formatted(path, column.name(), column.type()));
        }
        Object value = PartitionValues.toNativeValue(column.type(), raw);
        BlockBuilder builder = column.type().createBlockBuilder(null, 1);
        writeNativeValue(column.type(), builder, value);
        return builder.build();
    }
}
