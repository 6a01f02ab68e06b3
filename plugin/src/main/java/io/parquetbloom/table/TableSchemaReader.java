package io.parquetbloom.table;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import io.parquetbloom.metadata.MetadataCacheStats;
import io.parquetbloom.metadata.ParquetFileMetadata;
import io.parquetbloom.metadata.ParquetMetadataReader;
import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import io.trino.spi.type.Type;
import org.apache.parquet.schema.MessageType;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_TABLE_EMPTY;
import static java.util.Objects.requireNonNull;

/**
 * A table's data columns come from the footer of its first file (in key order). Files that disagree on a column's
 * type are reported when read; columns missing from a file read as NULL.
 */
public class TableSchemaReader
{
    public record DataColumn(String name, Type type) {}

    private final ParquetMetadataReader metadataReader;
    private final ParquetTypeMapping typeMapping;

    @Inject
    public TableSchemaReader(ParquetMetadataReader metadataReader, ParquetTypeMapping typeMapping)
    {
        this.metadataReader = requireNonNull(metadataReader, "metadataReader is null");
        this.typeMapping = requireNonNull(typeMapping, "typeMapping is null");
    }

    public List<DataColumn> readColumns(LakeTable table, S3RequestStats stats)
    {
        if (table.files().isEmpty()) {
            throw new TrinoException(PARQUET_BLOOM_TABLE_EMPTY, "Table %s has no Parquet files under %s".formatted(table.name(), table.location()));
        }
        // the first lookup prunes this file next, by a column not known yet: keep the filters its tail brought, or
        // that lookup would fetch them again
        ParquetFileMetadata file = metadataReader.footerWithFilters(table.files().getFirst().object(), table.name(), new ReadStats(stats, new MetadataCacheStats()));
        return dataColumns(file, table);
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
