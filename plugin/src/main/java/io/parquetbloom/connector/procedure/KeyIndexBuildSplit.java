package io.parquetbloom.connector.procedure;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.SchemaTableName;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static java.util.Objects.requireNonNull;

/**
 * One node's share of a key index build: files whose key column it reads into one segment, under a name the
 * coordinator chose (a retried split writes it again).
 *
 * @param indexes the table's key index folder
 * @param files the files, each pinned to the size and ETag the build listed
 * @param indexType the Parquet type the build hashes in, chosen by the coordinator, so every node's segment agrees
 * @param indexedEntries the entries of the segments the build keeps
 * @param segmentsInBuild how many segments the build writes
 */
public record KeyIndexBuildSplit(
        String buildId,
        String schemaName,
        String tableName,
        String indexes,
        ParquetBloomColumnHandle column,
        List<BuildFile> files,
        String segmentName,
        Optional<String> indexType,
        long indexedEntries,
        int segmentsInBuild)
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(KeyIndexBuildSplit.class);

    /**
     * A file as the build listed it.
     */
    public record BuildFile(String location, long size, String etag, String relativePath, Map<String, Optional<String>> partitionValues)
    {
        public BuildFile
        {
            requireNonNull(location, "location is null");
            requireNonNull(etag, "etag is null");
            requireNonNull(relativePath, "relativePath is null");
            partitionValues = ImmutableMap.copyOf(requireNonNull(partitionValues, "partitionValues is null"));
        }

        static BuildFile of(LakeFile file)
        {
            S3ObjectInfo object = file.object();
            return new BuildFile(object.location().toString(), object.size(), object.etag(), file.relativePath(), file.partitionValues());
        }

        LakeFile lakeFile()
        {
            // what the build reads of a file: its object version, its path in the table, its partition values
            return new LakeFile(new S3ObjectInfo(S3Location.parse(location), size, etag), relativePath, partitionValues, Instant.EPOCH, List.of());
        }

        long retainedSize()
        {
            long size = 64 + estimatedSizeOf(location) + estimatedSizeOf(etag) + estimatedSizeOf(relativePath);
            for (Map.Entry<String, Optional<String>> entry : partitionValues.entrySet()) {
                size += 32 + estimatedSizeOf(entry.getKey()) + entry.getValue().map(value -> estimatedSizeOf(value)).orElse(0L);
            }
            return size;
        }
    }

    public KeyIndexBuildSplit
    {
        requireNonNull(buildId, "buildId is null");
        requireNonNull(schemaName, "schemaName is null");
        requireNonNull(tableName, "tableName is null");
        requireNonNull(indexes, "indexes is null");
        requireNonNull(column, "column is null");
        files = List.copyOf(files);
        requireNonNull(segmentName, "segmentName is null");
        requireNonNull(indexType, "indexType is null");
    }

    SchemaTableName schemaTableName()
    {
        return new SchemaTableName(schemaName, tableName);
    }

    TableSchemaReader.DataColumn dataColumn()
    {
        return new TableSchemaReader.DataColumn(column.name(), column.type(), column.fieldId(), column.mappedNames(), column.physicalType());
    }

    List<LakeFile> lakeFiles()
    {
        return files.stream().map(BuildFile::lakeFile).toList();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + estimatedSizeOf(buildId) + estimatedSizeOf(indexes) + estimatedSizeOf(segmentName) + files.stream().mapToLong(BuildFile::retainedSize).sum();
    }
}
