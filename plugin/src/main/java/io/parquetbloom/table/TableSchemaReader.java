package io.parquetbloom.table;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.parquetbloom.ParallelTasks;
import io.parquetbloom.metadata.FooterRequest;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import org.apache.parquet.schema.MessageType;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_TABLE_EMPTY;
import static java.util.Objects.requireNonNull;

/**
 * A table's data columns. By default they are the columns of its newest file ({@link LakeTable#newestFile()}), as a
 * writer that adds a column or widens a type writes them: one footer per table, as for a table of one schema. Older
 * files read NULL for columns they lack and widen narrower integers and floats; a file whose column cannot be read as
 * the table's type fails the query naming the file and the column. With {@code schema.union-by-name}, the columns are
 * those of every file, by name (DuckDB's {@code union_by_name}, Spark's {@code mergeSchema}): the newest file's first,
 * then each older file's new ones, a type widened where files differ by width, an error where they clash.
 */
public class TableSchemaReader
{
    /**
     * A column of the table's files: by name, or by field id where a table format keeps ids.
     *
     * @param mappedNames where a table format maps names to ids (Iceberg's name mapping), the names a file written
     * without ids may give this column (none: the file lacks it); empty where there is no mapping (matched by name)
     * @param physicalType where files name the fields of a struct otherwise than the table does (Delta Lake's column
     * mapping), the column's type with the files' names: what the reader asks files for, its values of {@code type}
     */
    public record DataColumn(String name, Type type, OptionalInt fieldId, Optional<List<String>> mappedNames, Optional<Type> physicalType)
    {
        public DataColumn
        {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(fieldId, "fieldId is null");
            mappedNames = requireNonNull(mappedNames, "mappedNames is null").map(List::copyOf);
            requireNonNull(physicalType, "physicalType is null");
        }

        public DataColumn(String name, Type type, OptionalInt fieldId, Optional<List<String>> mappedNames)
        {
            this(name, type, fieldId, mappedNames, Optional.empty());
        }

        public DataColumn(String name, Type type, OptionalInt fieldId)
        {
            this(name, type, fieldId, Optional.empty());
        }

        public DataColumn(String name, Type type)
        {
            this(name, type, OptionalInt.empty());
        }
    }

    private final ParquetMetadataReader metadataReader;
    private final ParquetTypeMapping typeMapping;
    private final boolean unionByNameDefault;

    @Inject
    public TableSchemaReader(ParquetMetadataReader metadataReader, ParquetTypeMapping typeMapping, LakeConfig config)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
        this.unionByNameDefault = config.isSchemaUnionByName();
    }

    /**
     * The columns as the catalog's {@code schema.union-by-name} defines them, footers read on the calling thread.
     */
    public List<DataColumn> readColumns(LakeTable table, S3RequestStats stats)
    {
        return readColumns(table, unionByNameDefault, Runnable::run, stats);
    }

    public List<DataColumn> readColumns(LakeTable table, boolean unionByName, Executor executor, S3RequestStats stats)
    {
        if (table.snapshot().isPresent()) {
            // a table format's schema is its metadata's, whatever its files hold
            return table.snapshot().get().columns();
        }
        LakeFile newest = table.newestFile().orElseThrow(() -> new TrinoException(PARQUET_BLOOM_TABLE_EMPTY, "Table %s has no Parquet files under %s".formatted(table.name(), table.location())));
        ReadStats readStats = new ReadStats(stats, new MetadataCacheStats());
        // the first lookup prunes this file next, by a column not known yet: keep the filters its tail brought, or
        // that lookup would fetch them again
        ParquetFileMetadata newestFooter = metadataReader.footer(FooterRequest.withAllFilters(newest.object(), table.name()), readStats);
        if (!unionByName) {
            return dataColumns(newestFooter, table);
        }
        List<Callable<ParquetFileMetadata>> reads = table.files().stream()
                .sorted(LakeFile.WRITE_ORDER.reversed())
                .filter(file -> !file.equals(newest))
                .<Callable<ParquetFileMetadata>>map(file -> () -> metadataReader.footer(FooterRequest.footer(file.object(), table.name()), readStats))
                .toList();
        Map<String, DataColumn> union = new LinkedHashMap<>();
        Map<String, ParquetFileMetadata> declaredBy = new LinkedHashMap<>();
        addColumns(union, declaredBy, newestFooter, table);
        for (ParquetFileMetadata older : ParallelTasks.runAll(reads, executor)) {
            addColumns(union, declaredBy, older, table);
        }
        return ImmutableList.copyOf(union.values());
    }

    private void addColumns(Map<String, DataColumn> union, Map<String, ParquetFileMetadata> declaredBy, ParquetFileMetadata file, LakeTable table)
    {
        for (DataColumn column : dataColumns(file, table)) {
            DataColumn known = union.get(column.name());
            if (known == null) {
                union.put(column.name(), column);
                declaredBy.put(column.name(), file);
                continue;
            }
            Optional<Type> common = FileColumnResolver.widest(known.type(), column.type());
            if (common.isEmpty()) {
                throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Table %s: column %s is %s in file %s but %s in file %s; the types cannot be unified".formatted(
                        table.name(), column.name(), column.type(), file.object().location(), known.type(), declaredBy.get(column.name()).object().location()));
            }
            union.put(column.name(), new DataColumn(column.name(), common.get()));
        }
    }

    public List<DataColumn> dataColumns(ParquetFileMetadata file, LakeTable table)
    {
        MessageType schema = file.metadata().getFileMetaData().getSchema();
        ImmutableList.Builder<DataColumn> columns = ImmutableList.builder();
        Set<String> names = new HashSet<>();
        table.partitionColumns().forEach(partition -> names.add(partition.name()));
        for (org.apache.parquet.schema.Type field : schema.getFields()) {
            String name = field.getName().toLowerCase(Locale.ROOT);
            Optional<Type> type = typeMapping.toTrinoType(field);
            if (type.isEmpty()) {
                continue;
            }
            if (!names.add(name)) {
                throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Table %s: column %s of file %s clashes with another column or a partition folder of the same name".formatted(table.name(), name, file.object().location()));
            }
            columns.add(new DataColumn(name, type.get()));
        }
        return columns.build();
    }
}
