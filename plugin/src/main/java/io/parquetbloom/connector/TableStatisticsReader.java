package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.airlift.slice.Slices;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.health.ColumnHealth;
import io.parquetbloom.health.FilterHealthScanner;
import io.parquetbloom.health.TableHealth;
import io.parquetbloom.metadata.FooterChunks;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.Type;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static java.util.Objects.requireNonNull;

/**
 * Table statistics from the files' footers and filters, for the cost-based optimizer and {@code SHOW STATS}: row
 * count, per column the null fraction, min/max where the stored type is the table's, and distinct values from the
 * bloom filters (their OR's occupancy). Planning reads at most {@value #SAMPLE_FILES} files (spread over the table,
 * through the metadata cache; pruning needs the same footers a moment later) and scales what it finds by bytes.
 */
public final class TableStatisticsReader
{
    static final int SAMPLE_FILES = 64;

    private final ParquetMetadataReader metadataReader;
    private final FilterHealthScanner scanner;

    @Inject
    public TableStatisticsReader(ParquetMetadataReader metadataReader, FilterHealthScanner scanner)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.scanner = requireNonNull(scanner, "scanner is null");
    }

    private static final class ColumnTotals
    {
        private long values;
        private long nulls;
        private boolean nullsKnown = true;
        private Double min;
        private Double max;
        private boolean rangeKnown = true;
    }

    /**
     * @param requests the transaction's planning requests, which the query's scan reports
     */
    TableStatistics read(LakeTable table, List<ParquetBloomColumnHandle> columns, Executor executor, S3RequestStats requests)
    {
        List<LakeFile> files = table.files();
        if (files.isEmpty()) {
            return TableStatistics.builder().setRowCount(Estimate.zero()).build();
        }
        List<LakeFile> sample = sample(files);
        ReadStats stats = new ReadStats(requests, new MetadataCacheStats());
        Map<String, Type> dataColumns = new HashMap<>();
        for (ParquetBloomColumnHandle column : columns) {
            if (!column.partitionKey()) {
                dataColumns.put(column.name(), column.type());
            }
        }
        SampleTotals sampled = readSample(table, sample, dataColumns, executor, stats);
        if (sampled.bytes() == 0) {
            return TableStatistics.empty();
        }
        long totalBytes = files.stream().mapToLong(file -> file.object().size()).sum();
        double scale = totalBytes / (double) sampled.bytes();
        Map<String, ColumnHealth> healthByColumn = sampleHealth(table, sample, executor, stats);

        TableStatistics.Builder statistics = TableStatistics.builder().setRowCount(Estimate.of(sampled.rows() * scale));
        for (ParquetBloomColumnHandle column : columns) {
            ColumnStatistics columnStatistics = column.partitionKey()
                    ? partitionStatistics(table, column)
                    : columnStatistics(sampled.columns().get(column.name()), healthByColumn.get(column.name()), scale);
            statistics.setColumnStatistics(column, columnStatistics);
        }
        return statistics.build();
    }

    /**
     * Rows, bytes and per-column totals of the sampled files whose footers could be read.
     */
    private record SampleTotals(long rows, long bytes, Map<String, ColumnTotals> columns) {}

    private SampleTotals readSample(LakeTable table, List<LakeFile> sample, Map<String, Type> dataColumns, Executor executor, ReadStats stats)
    {
        List<Callable<Optional<ParquetFileMetadata>>> reads = sample.stream()
                .<Callable<Optional<ParquetFileMetadata>>>map(file -> () -> {
                    try {
                        // a lookup prunes these files next, by columns not known here: keep the filters their tails brought
                        return Optional.of(metadataReader.footer(FooterRequest.withAllFilters(file.object(), table.name()), stats));
                    }
                    catch (RuntimeException e) {
                        // a file the query will report, or read whole; it adds nothing here
                        return Optional.empty();
                    }
                })
                .toList();
        List<Optional<ParquetFileMetadata>> footers = ParallelTasks.runAll(reads, executor);
        long rows = 0;
        long bytes = 0;
        Map<String, ColumnTotals> totals = new HashMap<>();
        for (int i = 0; i < sample.size(); i++) {
            if (footers.get(i).isEmpty()) {
                continue;
            }
            ParquetFileMetadata footer = footers.get(i).get();
            bytes += sample.get(i).object().size();
            Set<String> plain = plainNumbers(footer.metadata().getFileMetaData().getSchema());
            for (RowGroup rowGroup : FooterChunks.rowGroups(footer.metadata().getParquetMetadata())) {
                rows += rowGroup.getNum_rows();
            }
            for (FooterChunks.FooterChunk chunk : FooterChunks.chunks(footer.metadata().getParquetMetadata())) {
                addChunk(chunk.metadata(), dataColumns, plain, totals);
            }
        }
        return new SampleTotals(rows, bytes, totals);
    }

    /**
     * The sample as one partition: its filters OR together per column. Only filters the footers' tails brought:
     * planning never fetches a filter.
     */
    private Map<String, ColumnHealth> sampleHealth(LakeTable table, List<LakeFile> sample, Executor executor, ReadStats stats)
    {
        LakeTable sampleTable = new LakeTable(table.name(), table.location(), sample, List.of());
        TableHealth health = scanner.scan(sampleTable, executor, false, false, stats);
        Map<String, ColumnHealth> healthByColumn = new HashMap<>();
        for (ColumnHealth column : health.columns()) {
            healthByColumn.put(column.column().toLowerCase(Locale.ROOT), column);
        }
        return healthByColumn;
    }

    private static ColumnStatistics columnStatistics(ColumnTotals totals, ColumnHealth health, double scale)
    {
        if (totals == null || totals.values == 0) {
            return ColumnStatistics.empty();
        }
        ColumnStatistics.Builder builder = ColumnStatistics.builder();
        if (totals.nullsKnown) {
            builder.setNullsFraction(Estimate.of(totals.nulls / (double) totals.values));
        }
        if (totals.rangeKnown && totals.min != null) {
            builder.setRange(new DoubleRange(totals.min, totals.max));
        }
        distinctValues(health, totals.values - totals.nulls, scale)
                .ifPresent(distinct -> builder.setDistinctValuesCount(Estimate.of(distinct)));
        return builder.build();
    }

    /**
     * From the OR of the sample's filters: exact enough where it is not saturated. A key whose values the sample
     * hardly repeats grows with the rows; one that repeats them does not.
     */
    private static OptionalDouble distinctValues(ColumnHealth health, long sampleNonNull, double scale)
    {
        // every row group's filter, or the union misses values
        if (health == null || health.rowGroupsWithUsableFilter() < health.rowGroups() || health.maxDistinctValuesPerPartition().isEmpty()) {
            return OptionalDouble.empty();
        }
        double sampleDistinct = Math.min(health.maxDistinctValuesPerPartition().getAsDouble(), sampleNonNull);
        boolean mostlyUnique = sampleDistinct >= 0.5 * sampleNonNull;
        double distinct = mostlyUnique ? sampleDistinct * scale : sampleDistinct;
        return OptionalDouble.of(Math.max(1, Math.min(distinct, sampleNonNull * scale)));
    }

    /**
     * Top-level columns whose min/max bytes are plain signed numbers or dates (no unsigned, decimal or time unit).
     */
    private static Set<String> plainNumbers(MessageType schema)
    {
        Set<String> plain = new HashSet<>();
        for (org.apache.parquet.schema.Type field : schema.getFields()) {
            if (!field.isPrimitive()) {
                continue;
            }
            LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
            if (annotation == null
                    || (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && integer.isSigned())
                    || annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                plain.add(field.getName().toLowerCase(Locale.ROOT));
            }
        }
        return plain;
    }

    private static void addChunk(ColumnMetaData meta, Map<String, Type> dataColumns, Set<String> plainNumbers, Map<String, ColumnTotals> totals)
    {
        if (meta.getPath_in_schema().size() != 1) {
            return;
        }
        String name = meta.getPath_in_schema().getFirst().toLowerCase(Locale.ROOT);
        Type type = dataColumns.get(name);
        if (type == null) {
            return;
        }
        ColumnTotals column = totals.computeIfAbsent(name, _ -> new ColumnTotals());
        column.values += meta.getNum_values();
        if (meta.isSetStatistics() && meta.getStatistics().isSetNull_count()) {
            column.nulls += meta.getStatistics().getNull_count();
        }
        else {
            column.nullsKnown = false;
        }
        if (plainNumbers.contains(name)) {
            addRange(column, type, meta);
        }
        else {
            column.rangeKnown = false;
        }
    }

    /**
     * Min/max of plain signed numbers and dates only, where the footer's bytes mean what the table's type means; a
     * chunk without them leaves the column without a range.
     */
    private static void addRange(ColumnTotals column, Type type, ColumnMetaData meta)
    {
        if (!column.rangeKnown) {
            return;
        }
        Optional<double[]> range = range(type, meta);
        if (range.isEmpty()) {
            // an all-null chunk has no range and needs none
            boolean allNull = meta.isSetStatistics() && meta.getStatistics().isSetNull_count() && meta.getStatistics().getNull_count() == meta.getNum_values();
            column.rangeKnown = allNull;
            return;
        }
        column.min = column.min == null ? range.get()[0] : Math.min(column.min, range.get()[0]);
        column.max = column.max == null ? range.get()[1] : Math.max(column.max, range.get()[1]);
    }

    private static Optional<double[]> range(Type type, ColumnMetaData meta)
    {
        if (!meta.isSetStatistics() || !meta.getStatistics().isSetMin_value() || !meta.getStatistics().isSetMax_value()) {
            return Optional.empty();
        }
        byte[] min = meta.getStatistics().getMin_value();
        byte[] max = meta.getStatistics().getMax_value();
        org.apache.parquet.format.Type physical = meta.getType();
        if ((type.equals(BIGINT) && physical == org.apache.parquet.format.Type.INT64 && min.length == 8 && max.length == 8)) {
            return Optional.of(new double[] {Slices.wrappedBuffer(min).getLong(0), Slices.wrappedBuffer(max).getLong(0)});
        }
        if ((type.equals(INTEGER) || type.equals(DATE)) && physical == org.apache.parquet.format.Type.INT32 && min.length == 4 && max.length == 4) {
            return Optional.of(new double[] {Slices.wrappedBuffer(min).getInt(0), Slices.wrappedBuffer(max).getInt(0)});
        }
        if (type.equals(DOUBLE) && physical == org.apache.parquet.format.Type.DOUBLE && min.length == 8 && max.length == 8) {
            return finite(Double.longBitsToDouble(Slices.wrappedBuffer(min).getLong(0)), Double.longBitsToDouble(Slices.wrappedBuffer(max).getLong(0)));
        }
        if (type.equals(REAL) && physical == org.apache.parquet.format.Type.FLOAT && min.length == 4 && max.length == 4) {
            return finite(Float.intBitsToFloat(Slices.wrappedBuffer(min).getInt(0)), Float.intBitsToFloat(Slices.wrappedBuffer(max).getInt(0)));
        }
        return Optional.empty();
    }

    private static Optional<double[]> finite(double min, double max)
    {
        return Double.isFinite(min) && Double.isFinite(max) && min <= max ? Optional.of(new double[] {min, max}) : Optional.empty();
    }

    private static ColumnStatistics partitionStatistics(LakeTable table, ParquetBloomColumnHandle column)
    {
        if (table.partitionColumns().stream().noneMatch(partition -> partition.name().equals(column.name()))) {
            return ColumnStatistics.empty();
        }
        Set<String> values = new HashSet<>();
        long nullFiles = 0;
        for (LakeFile file : table.files()) {
            Optional<String> value = file.partitionValue(column.name());
            if (value.isPresent()) {
                values.add(value.get());
            }
            else {
                nullFiles++;
            }
        }
        // by files: rows per file are alike enough for the optimizer
        return ColumnStatistics.builder()
                .setDistinctValuesCount(Estimate.of(values.size()))
                .setNullsFraction(Estimate.of(nullFiles / (double) table.files().size()))
                .build();
    }

    private static List<LakeFile> sample(List<LakeFile> files)
    {
        if (files.size() <= SAMPLE_FILES) {
            return files;
        }
        List<LakeFile> sample = new ArrayList<>();
        for (int i = 0; i < SAMPLE_FILES; i++) {
            sample.add(files.get((int) ((long) i * files.size() / SAMPLE_FILES)));
        }
        return sample;
    }
}
