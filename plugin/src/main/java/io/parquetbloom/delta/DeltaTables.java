package io.parquetbloom.delta;

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
import io.parquetbloom.table.RowDeletes;
import io.parquetbloom.table.TableFormat;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.TypeManager;
import io.trino.spi.type.TypeOperators;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static java.util.Objects.requireNonNull;

/**
 * Delta Lake tables read through their log ({@code _delta_log/}): a version replayed from its checkpoint and commits
 * ({@link DeltaLogReader}), cached ({@link DeltaSnapshots}), handed to the rest of the connector as the view a folder
 * table gives (a {@link LakeTable} of its live files, with their partition values from the log and their deletion
 * vectors), with the schema's columns as its column mapping matches them to files and each {@code add}'s statistics
 * as a file filter. No data folder is listed. What this reader does not implement fails naming it.
 */
public final class DeltaTables
        implements FormatTables
{
    private final boolean enabled;
    private final S3ObjectStore store;
    private final TypeOperators typeOperators;
    private final DeltaSnapshots<LakeTable> snapshots;

    @Inject
    public DeltaTables(DeltaConfig config, S3ObjectStore store, TypeManager typeManager)
    {
        this.enabled = config.isEnabled();
        this.store = requireNonNull(store, "store is null");
        this.typeOperators = typeManager.getTypeOperators();
        this.snapshots = new DeltaSnapshots<>(config.getSnapshotCacheMaxEntries());
    }

    @Override
    public boolean reads(TableFormat format)
    {
        return enabled && format == TableFormat.DELTA_LAKE;
    }

    @Override
    public LakeTable read(SchemaTableName name, S3Location location, TableFormat format, Version version, S3RequestStats stats)
    {
        checkNotPinned(name, version.metadataFile());
        DeltaLogFiles log = new DeltaLogFiles(store, location, stats);
        String table = name.toString();
        DeltaSnapshots.Loaded<LakeTable> loaded = version.snapshotId().isPresent()
                ? snapshots.at(table, log, version.snapshotId().getAsLong(), snapshot -> view(name, location, snapshot))
                : snapshots.current(table, log, snapshot -> view(name, location, snapshot));
        return loaded.view();
    }

    /**
     * The version that was the table's newest at {@code instant}: the last commit written by then, as Delta readers
     * time-travel by commit times (each later than the one before, as Delta makes them).
     */
    @Override
    public long snapshotAsOf(SchemaTableName name, S3Location location, TableFormat format, Optional<String> metadataFile, Instant instant, S3RequestStats stats)
    {
        checkNotPinned(name, metadataFile);
        LakeTable current = read(name, location, format, Version.CURRENT, stats);
        if ("true".equals(current.snapshot().orElseThrow().properties().get("delta.enableInCommitTimestamps"))) {
            throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s keeps in-commit timestamps (delta.enableInCommitTimestamps), which FOR TIMESTAMP AS OF does not read yet; use FOR VERSION AS OF".formatted(name));
        }
        TreeMap<String, Instant> names = new DeltaLogFiles(store, location, stats).namesFrom(0);
        Long found = null;
        Instant previous = Instant.MIN;
        for (Map.Entry<String, Instant> entry : names.entrySet()) {
            OptionalLong version = DeltaLogSegment.commitVersion(entry.getKey());
            if (version.isEmpty()) {
                continue;
            }
            Instant committed = entry.getValue().isAfter(previous) ? entry.getValue() : previous.plusMillis(1);
            previous = committed;
            if (!committed.isAfter(instant)) {
                found = version.getAsLong();
            }
        }
        if (found == null) {
            throw new TrinoException(INVALID_ARGUMENTS, "Delta Lake table %s has no version committed at or before %s (its log keeps the commits not yet cleaned up)".formatted(name, instant));
        }
        return found;
    }

    private static void checkNotPinned(SchemaTableName name, Optional<String> metadataFile)
    {
        if (metadataFile.isPresent()) {
            throw new TrinoException(INVALID_ARGUMENTS, "Table %s is a Delta Lake table, read from its _delta_log/: metadata_file_name names an Iceberg table's metadata file".formatted(name));
        }
    }

    private LakeTable view(SchemaTableName name, S3Location location, DeltaSnapshot snapshot)
    {
        List<DataColumn> columns = DeltaSchemas.columns(name.toString(), snapshot, typeOperators);
        Set<String> partitionNames = snapshot.metadata().partitionColumns().stream()
                .map(column -> column.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        List<DataColumn> partitions = new ArrayList<>();
        for (String partition : snapshot.metadata().partitionColumns()) {
            partitions.add(columns.stream()
                    .filter(column -> column.name().equals(partition.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: partition column %s is not in its schema".formatted(name, partition))));
        }
        DeltaPartitions partitioning = new DeltaPartitions(name, partitions);
        List<LakeFile> files = new ArrayList<>(snapshot.files().size());
        Map<String, Optional<String>> stats = new HashMap<>();
        for (DeltaAction.Add add : snapshot.files()) {
            LakeFile file = liveFile(location, add, partitioning);
            files.add(file);
            stats.put(file.object().location().toString(), add.stats());
        }
        FormatSnapshot version = new FormatSnapshot(
                TableFormat.DELTA_LAKE,
                location.asPrefix().child("_delta_log/" + DeltaLogSegment.versionName(snapshot.version()) + ".json").toString(),
                OptionalLong.of(snapshot.version()),
                snapshot.committedAt().isPresent() ? Instant.ofEpochMilli(snapshot.committedAt().getAsLong()) : Instant.EPOCH,
                columns.stream().filter(column -> !partitionNames.contains(column.name())).toList(),
                properties(snapshot),
                new DeltaFileFilter(stats));
        return new LakeTable(name, location, files, partitioning.columns(), location, List.of(), Optional.of(version));
    }

    private static LakeFile liveFile(S3Location location, DeltaAction.Add add, DeltaPartitions partitioning)
    {
        S3Location object = DeltaPaths.resolve(location, add.path());
        String prefix = location.asPrefix().toString();
        String relativePath = object.toString().startsWith(prefix) ? object.toString().substring(prefix.length()) : object.toString();
        List<RowDeletes> deletes = add.deletionVector()
                .map(vector -> List.of(DeltaDeletionVectors.rowDeletes(vector, location.asPrefix())))
                .orElse(List.of());
        // data files are never rewritten at their path (the protocol says so): path and size pin the version
        return new LakeFile(S3ObjectInfo.immutable(object, add.size()), relativePath, partitioning.values(object.toString(), add.partitionValues()), Instant.ofEpochMilli(add.modificationTime()), deletes);
    }

    private static Map<String, String> properties(DeltaSnapshot snapshot)
    {
        ImmutableMap.Builder<String, String> properties = ImmutableMap.builder();
        properties.put("delta.version", Long.toString(snapshot.version()));
        properties.put("delta.min_reader_version", Integer.toString(snapshot.protocol().minReaderVersion()));
        properties.put("delta.reader_features", String.join(",", snapshot.protocol().readerFeatures()));
        properties.put("delta.column_mapping_mode", snapshot.columnMappingMode());
        properties.put("delta.table_id", String.valueOf(snapshot.metadata().id()));
        String inCommitTimestamps = snapshot.metadata().configuration().get("delta.enableInCommitTimestamps");
        if (inCommitTimestamps != null) {
            properties.put("delta.enableInCommitTimestamps", inCommitTimestamps);
        }
        return properties.buildOrThrow();
    }
}
