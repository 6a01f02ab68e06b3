package io.parquetbloom.iceberg;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.FormatSnapshot;
import io.parquetbloom.table.FormatTables;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.PartitionValues;
import io.parquetbloom.table.RowDeletes;
import io.parquetbloom.table.TableFormat;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.TypeManager;
import io.trino.spi.type.TypeOperators;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static java.util.Objects.requireNonNull;

/**
 * Iceberg tables read through their own metadata, with Apache Iceberg's library over this connector's S3 client: the
 * current metadata file ({@link IcebergMetadataFiles}), its current snapshot pinned, the snapshot's manifests planned
 * into its live data files. The rest of the connector gets the view a folder table gives (a {@link LakeTable} of
 * files), with the schema's columns and their field ids; no data folder is listed.
 * <p>
 * Position delete files and deletion vectors go with each data file to the reader, which drops those rows; what this
 * reader does not apply is refused, naming it: equality deletes, data files other than Parquet, encryption, types
 * without a reading here.
 */
public final class IcebergTables
        implements FormatTables
{
    private final boolean enabled;
    private final S3ObjectStore store;
    private final IcebergFileCache cache;
    private final IcebergMetadataFiles metadataFiles;
    private final TypeOperators typeOperators;

    @Inject
    public IcebergTables(IcebergConfig config, S3ObjectStore store, IcebergFileCache cache, TypeManager typeManager)
    {
        this.enabled = config.isEnabled();
        this.store = requireNonNull(store, "store is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.metadataFiles = new IcebergMetadataFiles(store);
        this.typeOperators = typeManager.getTypeOperators();
    }

    @Override
    public boolean reads(TableFormat format)
    {
        return enabled && format == TableFormat.ICEBERG;
    }

    @Override
    public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, Version read, S3RequestStats stats)
    {
        S3FileIo io = new S3FileIo(store, cache, stats);
        OptionalLong snapshotId = read.snapshotId();
        String metadataFile = metadataFile(location, read.metadataFile(), stats);
        TableMetadata metadata = parse(name, io, metadataFile);
        checkReadable(name, metadataFile, metadata);
        Snapshot snapshot = snapshotId.isPresent() ? snapshot(name, metadata, snapshotId.getAsLong()) : metadata.currentSnapshot();
        // a snapshot read as of a version has the schema it was written with, as Trino's Iceberg connector reads it
        Schema schema = snapshotId.isPresent() && snapshot.schemaId() != null && metadata.schemasById().containsKey(snapshot.schemaId())
                ? metadata.schemasById().get(snapshot.schemaId())
                : metadata.schema();
        List<DataColumn> columns = IcebergSchemas.columns(name, schema, nameMapping(name, metadata), typeOperators);
        Instant committedAt = Instant.ofEpochMilli(snapshot == null ? metadata.lastUpdatedMillis() : snapshot.timestampMillis());
        Map<String, DataFile> dataFiles = new HashMap<>();
        List<LakeFile> files = snapshot == null ? List.of() : liveFiles(name, location, metadata, schema, snapshot, io, committedAt, dataFiles);
        FormatSnapshot version = new FormatSnapshot(
                TableFormat.ICEBERG,
                metadataFile,
                snapshot == null ? OptionalLong.empty() : OptionalLong.of(snapshot.snapshotId()),
                committedAt,
                columns,
                properties(metadataFile, metadata, snapshot),
                // a spec binds names to the current schema: a snapshot read with an older one is judged by bounds only
                new IcebergFileFilter(schema, schema.schemaId() == metadata.currentSchemaId() ? metadata.specsById() : Map.of(), dataFiles));
        return new LakeTable(name, location, files, List.of(), location, List.of(), Optional.of(version));
    }

    @Override
    public long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Optional<String> pinned, Instant instant, S3RequestStats stats)
    {
        S3FileIo io = new S3FileIo(store, cache, stats);
        String metadataFile = metadataFile(location, pinned, stats);
        TableMetadata metadata = parse(name, io, metadataFile);
        // the snapshot log: which snapshot was the table's current one from when
        Long found = null;
        for (HistoryEntry entry : metadata.snapshotLog()) {
            if (entry.timestampMillis() <= instant.toEpochMilli()) {
                found = entry.snapshotId();
            }
        }
        if (found == null) {
            throw new TrinoException(INVALID_ARGUMENTS, "Iceberg table %s has no snapshot at or before %s".formatted(name, instant));
        }
        return found;
    }

    private static Snapshot snapshot(SchemaTableName name, TableMetadata metadata, long snapshotId)
    {
        Snapshot snapshot = metadata.snapshot(snapshotId);
        if (snapshot == null) {
            throw new TrinoException(INVALID_ARGUMENTS, "Iceberg table %s has no snapshot %d (its metadata keeps the snapshots not yet expired)".formatted(name, snapshotId));
        }
        return snapshot;
    }

    /**
     * Files written without field ids (migrated, {@code add_files}) are matched by column name; a name mapping that
     * says otherwise for a column (another name for its id, or its name for another id: a rename or a drop and re-add
     * since) would be read wrong that way, so it is refused until the mapping is applied.
     */
    /**
     * The table's name mapping ({@code schema.name-mapping.default}): how files written without field ids (migrated
     * and {@code add_files} files) name its columns.
     */
    private static Optional<NameMapping> nameMapping(SchemaTableName name, TableMetadata metadata)
    {
        String json = metadata.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        if (json == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(NameMappingParser.fromJson(json));
        }
        catch (RuntimeException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg table %s: cannot read its name mapping (%s): %s".formatted(name, TableProperties.DEFAULT_NAME_MAPPING, e.getMessage()), e);
        }
    }

    /**
     * The metadata file a registration pins (no listing of the metadata folder), else the current one.
     */
    private String metadataFile(S3Location location, Optional<String> pinned, S3RequestStats stats)
    {
        return pinned.map(file -> location.child("metadata").child(file).toString()).orElseGet(() -> metadataFiles.current(location, stats));
    }

    private static TableMetadata parse(SchemaTableName name, S3FileIo io, String metadataFile)
    {
        try {
            return TableMetadataParser.read(io, metadataFile);
        }
        catch (TrinoException e) {
            throw e;
        }
        catch (RuntimeException e) {
            // a format version Iceberg's library does not know, or a damaged file: named, never half read
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg table %s: cannot read metadata file %s: %s".formatted(name, metadataFile, e.getMessage()), e);
        }
    }

    private static void checkReadable(SchemaTableName name, String metadataFile, TableMetadata metadata)
    {
        if (metadata.formatVersion() > 3) {
            throw unsupported(name, "format version %d (metadata file %s)".formatted(metadata.formatVersion(), metadataFile));
        }
        if (metadata.properties().containsKey("encryption.key-id") || !metadata.encryptionKeys().isEmpty()) {
            throw unsupported(name, "encryption");
        }
    }

    /**
     * @param dataFiles receives each live file's manifest entry, with its column bounds, by the file's location
     */
    private static List<LakeFile> liveFiles(SchemaTableName name, S3Location location, TableMetadata metadata, Schema schema, Snapshot snapshot, S3FileIo io, Instant committedAt, Map<String, DataFile> dataFiles)
    {
        BaseTable table = new BaseTable(new StaticTableOperations(metadata, io), name.toString());
        List<LakeFile> files = new ArrayList<>();
        Map<Long, Instant> commits = new HashMap<>();
        for (Snapshot committed : metadata.snapshots()) {
            commits.put(committed.sequenceNumber(), Instant.ofEpochMilli(committed.timestampMillis()));
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).includeColumnStats().planFiles()) {
            for (FileScanTask task : tasks) {
                // when the file was added: the commit of the snapshot whose sequence number it has (format v2 and later)
                Long sequence = task.file().fileSequenceNumber();
                Instant added = sequence == null || sequence == 0 ? committedAt : commits.getOrDefault(sequence, committedAt);
                LakeFile file = liveFile(name, location, task, identityValues(schema, metadata.specsById().get(task.file().specId()), task.file()), added);
                files.add(file);
                dataFiles.put(file.object().location().toString(), task.file().copy());
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (TrinoException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg table %s: cannot read the manifests of snapshot %d: %s".formatted(name, snapshot.snapshotId(), e.getMessage()), e);
        }
        return files;
    }

    private static LakeFile liveFile(SchemaTableName name, S3Location location, FileScanTask task, Map<String, Optional<String>> identityValues, Instant committedAt)
    {
        DataFile file = task.file();
        List<RowDeletes> deletes = new ArrayList<>();
        for (DeleteFile delete : task.deletes()) {
            deletes.add(rowDeletes(name, file, delete));
        }
        if (file.format() != FileFormat.PARQUET) {
            throw unsupported(name, "%s data files (%s)".formatted(file.format(), file.location()));
        }
        if (file.keyMetadata() != null) {
            throw unsupported(name, "encrypted data files (%s)".formatted(file.location()));
        }
        S3Location object = S3FileIo.location(file.location());
        String prefix = location.asPrefix().toString();
        String relativePath = object.toString().startsWith(prefix) ? object.toString().substring(prefix.length()) : object.toString();
        // data files are never rewritten at their path (the spec says so): path and size pin the version, cached as such
        return new LakeFile(S3ObjectInfo.immutable(object, file.fileSizeInBytes()), relativePath, identityValues, committedAt, deletes);
    }

    /**
     * The values of the file's identity partition fields, by source column: what a file written without that column
     * (a migrated or {@code add_files} one) holds in it.
     */
    private static Map<String, Optional<String>> identityValues(Schema schema, PartitionSpec spec, DataFile file)
    {
        Map<String, Optional<String>> values = new LinkedHashMap<>();
        if (spec == null) {
            return values;
        }
        for (int i = 0; i < spec.fields().size(); i++) {
            PartitionField field = spec.fields().get(i);
            Types.NestedField source = schema.findField(field.sourceId());
            if (!field.transform().isIdentity() || source == null) {
                continue;
            }
            Object value = file.partition().get(i, Object.class);
            values.put(source.name().toLowerCase(Locale.ROOT), value == null ? Optional.empty() : Optional.of(identityString(source.type(), value)));
        }
        // the $partition hidden column: the partition as Iceberg writes it into paths
        values.put(LakeFile.PARTITION_PATH, spec.isPartitioned() ? Optional.of(spec.partitionToPath(file.partition())) : Optional.empty());
        return values;
    }

    private static String identityString(org.apache.iceberg.types.Type type, Object value)
    {
        return switch (type) {
            case Types.IntegerType _, Types.LongType _, Types.StringType _, Types.BooleanType _ -> value.toString();
            case Types.DateType _ -> LocalDate.ofEpochDay((Integer) value).toString();
            default -> PartitionValues.UNREADABLE;
        };
    }

    /**
     * Where a delete file's positions are read: a deletion vector's blob in its Puffin file, or a Parquet position
     * delete file. Equality deletes (Flink and CDC writers) are refused, naming them.
     */
    private static RowDeletes rowDeletes(SchemaTableName name, DataFile file, DeleteFile delete)
    {
        if (delete.content() == FileContent.EQUALITY_DELETES) {
            throw unsupported(name, "equality deletes (data file %s, delete file %s)".formatted(file.location(), delete.location()));
        }
        if (delete.keyMetadata() != null) {
            throw unsupported(name, "encrypted delete files (%s)".formatted(delete.location()));
        }
        if (delete.format() == FileFormat.PUFFIN) {
            if (delete.contentOffset() == null || delete.contentSizeInBytes() == null) {
                throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg table %s: deletion vector %s has no offset or size in its manifest".formatted(name, delete.location()));
            }
            return new RowDeletes(RowDeletes.Kind.DELETION_VECTOR, delete.location(), delete.fileSizeInBytes(), delete.contentOffset(), delete.contentSizeInBytes(), delete.recordCount());
        }
        if (delete.format() != FileFormat.PARQUET) {
            throw unsupported(name, "%s position delete files (%s)".formatted(delete.format(), delete.location()));
        }
        return new RowDeletes(RowDeletes.Kind.POSITION_FILE, delete.location(), delete.fileSizeInBytes(), 0, delete.fileSizeInBytes(), delete.recordCount());
    }

    private static Map<String, String> properties(String metadataFile, TableMetadata metadata, Snapshot snapshot)
    {
        ImmutableMap.Builder<String, String> properties = ImmutableMap.builder();
        properties.put("iceberg.metadata_file", metadataFile);
        properties.put("iceberg.format_version", Integer.toString(metadata.formatVersion()));
        properties.put("iceberg.snapshot_id", snapshot == null ? "" : Long.toString(snapshot.snapshotId()));
        return properties.buildOrThrow();
    }

    private static TrinoException unsupported(SchemaTableName name, String feature)
    {
        return new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Iceberg table %s uses %s, which this connector does not read yet; read it with Trino's Iceberg connector (connector.name=iceberg)".formatted(name, feature));
    }
}
