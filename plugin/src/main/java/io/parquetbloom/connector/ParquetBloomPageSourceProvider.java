package io.parquetbloom.connector;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.airlift.units.DataSize;
import io.parquetbloom.metadata.FooterReader;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.pruning.BloomColumnPredicate;
import io.parquetbloom.pruning.PruningStats;
import io.parquetbloom.pruning.RowGroupPruner;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ParquetDataSource;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.ParquetTypeMapping;
import io.parquetbloom.table.PartitionValues;
import io.trino.parquet.Column;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
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
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.joda.time.DateTimeZone;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.connector.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.connector.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static io.parquetbloom.connector.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.getBloomFilterMaxValues;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isBloomFilterEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isStatisticsPruningEnabled;
import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.getParquetTypeByName;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.parquet.predicate.PredicateUtils.buildPredicate;
import static io.trino.spi.type.TypeUtils.writeNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * Opens one split: footer (one tail GET, usually), row-group pruning by statistics then bloom filters (one GET for
 * the filters, or none when they were in the tail), then a {@link ParquetReader} over the surviving row groups'
 * projected column chunks only.
 */
public class ParquetBloomPageSourceProvider
        implements ConnectorPageSourceProvider
{
    private final S3ObjectStore store;
    private final ParquetTypeMapping typeMapping;
    private final RowGroupPruner pruner;
    private final int footerReadSize;
    private final ParquetReaderOptions readerOptions;

    @Inject
    public ParquetBloomPageSourceProvider(S3ObjectStore store, TypeManager typeManager, ParquetBloomConfig config)
    {
        this.store = requireNonNull(store, "store is null");
        this.typeMapping = new ParquetTypeMapping(typeManager);
        this.pruner = new RowGroupPruner(store);
        this.footerReadSize = (int) config.getFooterReadSize().toBytes();
        this.readerOptions = ParquetReaderOptions.builder()
                // we prune with our own filters and never want a small file read whole
                .withBloomFilter(false)
                .withUseColumnIndex(false)
                .withSmallFileThreshold(DataSize.ofBytes(0))
                .build();
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
        ParquetBloomSplit split = (ParquetBloomSplit) connectorSplit;
        ParquetBloomTableHandle table = (ParquetBloomTableHandle) connectorTable;
        List<ParquetBloomColumnHandle> columns = columnHandles.stream().map(ParquetBloomColumnHandle.class::cast).collect(ImmutableList.toImmutableList());
        PruningStats pruningStats = new PruningStats();
        S3RequestStats requestStats = new S3RequestStats();

        TupleDomain<ParquetBloomColumnHandle> constraint = table.constraint()
                .intersect(dynamicFilter.getCurrentPredicate().transformKeys(ParquetBloomColumnHandle.class::cast));
        if (constraint.isNone() || !partitionMatches(split, constraint)) {
            return emptySource(split, columns, pruningStats, requestStats);
        }

        S3ObjectInfo object = new S3ObjectInfo(S3Location.parse(split.path()), split.fileSize(), split.etag());
        ParquetFileMetadata file = FooterReader.readFooter(store, object, footerReadSize, requestStats);
        MessageType fileSchema = file.metadata().getFileMetaData().getSchema();

        // top-level fields to read (projected) and to prune on (constrained)
        Map<ParquetBloomColumnHandle, org.apache.parquet.schema.Type> fields = new LinkedHashMap<>();
        for (ParquetBloomColumnHandle column : columns) {
            fileField(column, fileSchema, split).ifPresent(field -> fields.put(column, field));
        }
        Map<ParquetBloomColumnHandle, Domain> domains = constraint.getDomains().orElseThrow();
        for (ParquetBloomColumnHandle column : domains.keySet()) {
            fileField(column, fileSchema, split).ifPresent(field -> fields.putIfAbsent(column, field));
        }
        MessageType requestedSchema = new MessageType(fileSchema.getName(), fields.values().stream().distinct().toList());
        Map<List<String>, ColumnDescriptor> descriptorsByPath = getDescriptors(fileSchema, requestedSchema);

        Map<ColumnDescriptor, Domain> parquetDomains = new HashMap<>();
        List<BloomColumnPredicate> bloomPredicates = new ArrayList<>();
        int maxValues = getBloomFilterMaxValues(session);
        for (Map.Entry<ParquetBloomColumnHandle, Domain> entry : domains.entrySet()) {
            org.apache.parquet.schema.Type field = fields.get(entry.getKey());
            if (field == null || !field.isPrimitive()) {
                continue;
            }
            ColumnDescriptor descriptor = descriptorsByPath.get(List.of(field.getName()));
            if (descriptor == null) {
                continue;
            }
            parquetDomains.put(descriptor, entry.getValue());
            if (isBloomFilterEnabled(session)) {
                BloomColumnPredicate.create(descriptor, entry.getValue(), maxValues).ifPresent(bloomPredicates::add);
            }
        }
        Optional<TupleDomainParquetPredicate> statisticsPredicate = Optional.empty();
        if (isStatisticsPruningEnabled(session) && !parquetDomains.isEmpty()) {
            statisticsPredicate = Optional.of(buildPredicate(requestedSchema, TupleDomain.withColumnDomains(parquetDomains), descriptorsByPath, DateTimeZone.UTC));
        }

        List<RowGroupInfo> rowGroups;
        try {
            rowGroups = pruner.prune(
                    new RowGroupPruner.Request(file, split.start(), split.length(), descriptorsByPath, statisticsPredicate, bloomPredicates),
                    requestStats,
                    pruningStats);
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot prune row groups of %s: %s".formatted(split.path(), e.getMessage()), e);
        }
        if (rowGroups.isEmpty()) {
            return emptySource(split, columns, pruningStats, requestStats);
        }

        // output channels: file columns first come from the reader, the rest are constants
        MessageColumnIO messageColumnIO = getColumnIO(fileSchema, requestedSchema);
        List<Column> readerColumns = new ArrayList<>();
        int[] channels = new int[columns.size()];
        List<Block> constants = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            ParquetBloomColumnHandle column = columns.get(i);
            org.apache.parquet.schema.Type field = fields.get(column);
            Optional<Field> readerField = field == null ? Optional.empty() : constructField(column.type(), lookupColumnByName(messageColumnIO, field.getName()));
            if (readerField.isPresent()) {
                channels[i] = readerColumns.size();
                readerColumns.add(new Column(field.getName(), readerField.get()));
            }
            else {
                channels[i] = -1 - constants.size();
                constants.add(constantBlock(column, split));
            }
        }

        S3ParquetDataSource dataSource = new S3ParquetDataSource(store, object.location(), object.size(), requestStats, readerOptions);
        ParquetReader reader;
        try {
            reader = new ParquetReader(
                    Optional.ofNullable(file.metadata().getFileMetaData().getCreatedBy()),
                    readerColumns,
                    false,
                    rowGroups,
                    dataSource,
                    DateTimeZone.UTC,
                    newSimpleAggregatedMemoryContext(),
                    readerOptions,
                    exception -> exception instanceof TrinoException trinoException
                            ? trinoException
                            : new TrinoException(PARQUET_BLOOM_READ_ERROR, "Failed to read Parquet file %s: %s".formatted(split.path(), exception.getMessage()), exception),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty());
        }
        catch (IOException | RuntimeException e) {
            if (e instanceof TrinoException trinoException) {
                throw trinoException;
            }
            throw new TrinoException(PARQUET_BLOOM_READ_ERROR, "Cannot open Parquet file %s: %s".formatted(split.path(), e.getMessage()), e);
        }
        return new ParquetBloomPageSource(split.path(), Optional.of(reader), channels, constants.toArray(Block[]::new), pruningStats, requestStats);
    }

    /**
     * The file's field for a data column, or empty when the file lacks it (read as NULL). A field whose type the
     * column cannot be read as is an error naming file and column.
     */
    private Optional<org.apache.parquet.schema.Type> fileField(ParquetBloomColumnHandle column, MessageType fileSchema, ParquetBloomSplit split)
    {
        if (column.partitionKey()) {
            return Optional.empty();
        }
        org.apache.parquet.schema.Type field = getParquetTypeByName(column.name(), fileSchema);
        if (field == null) {
            return Optional.empty();
        }
        Optional<Type> fileType = typeMapping.toTrinoType(field);
        if (fileType.isEmpty() || !readableAs(fileType.get(), column.type())) {
            throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Column %s of file %s has Parquet type %s (%s); the table declares %s".formatted(
                    column.name(), split.path(), field.toString().trim(), fileType.map(Type::getDisplayName).orElse("unsupported"), column.type().getDisplayName()));
        }
        return Optional.of(field);
    }

    /**
     * Same type, or a narrower integer the reader widens (schema evolution, e.g. INT32 files in a BIGINT table).
     */
    private static boolean readableAs(Type fileType, Type tableType)
    {
        if (fileType.equals(tableType)) {
            return true;
        }
        return integerRank(fileType) > 0 && integerRank(tableType) > integerRank(fileType);
    }

    private static int integerRank(Type type)
    {
        if (type instanceof TinyintType) {
            return 1;
        }
        if (type instanceof SmallintType) {
            return 2;
        }
        if (type instanceof IntegerType) {
            return 3;
        }
        if (type instanceof BigintType) {
            return 4;
        }
        return 0;
    }

    private static boolean partitionMatches(ParquetBloomSplit split, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        for (Map.Entry<ParquetBloomColumnHandle, Domain> entry : constraint.getDomains().orElseThrow().entrySet()) {
            ParquetBloomColumnHandle column = entry.getKey();
            if (column.partitionKey()) {
                Object value = PartitionValues.toNativeValue(column.type(), split.partitionValues().getOrDefault(column.name(), Optional.empty()));
                if (!entry.getValue().includesNullableValue(value)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Block constantBlock(ParquetBloomColumnHandle column, ParquetBloomSplit split)
    {
        if (!column.partitionKey()) {
            return column.type().createNullBlock();
        }
        Object value = PartitionValues.toNativeValue(column.type(), split.partitionValues().getOrDefault(column.name(), Optional.empty()));
        BlockBuilder builder = column.type().createBlockBuilder(null, 1);
        writeNativeValue(column.type(), builder, value);
        return builder.build();
    }

    private static ConnectorPageSource emptySource(ParquetBloomSplit split, List<ParquetBloomColumnHandle> columns, PruningStats pruningStats, S3RequestStats requestStats)
    {
        return new ParquetBloomPageSource(split.path(), Optional.empty(), new int[columns.size()], new Block[0], pruningStats, requestStats);
    }
}
