package io.parquetbloom.table;

import com.google.common.collect.ImmutableMap;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.trino.spi.connector.SchemaTableName;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A table as one listing found it: its prefix, its data files and the partition columns their folders define, and the
 * objects of its {@link CompanionFolder}, listed with the files, so that whoever owns that folder uses it as of the
 * version listed with the files.
 */
public final class LakeTable
{
    private final SchemaTableName name;
    private final S3Location location;
    private final List<LakeFile> files;
    private final Map<String, LakeFile> filesByRelativePath;
    private final List<PartitionColumn> partitionColumns;
    private final S3Location companionFolder;
    private final List<ListedObject> companionObjects;
    private final Optional<FormatSnapshot> snapshot;

    public LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns, S3Location companionFolder, List<ListedObject> companionObjects)
    {
        this(name, location, files, partitionColumns, companionFolder, companionObjects, Optional.empty());
    }

    /**
     * @param snapshot the version of a table format's table these are the live files of
     */
    public LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns, S3Location companionFolder, List<ListedObject> companionObjects, Optional<FormatSnapshot> snapshot)
    {
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
        this.name = requireNonNull(name, "name is null");
        this.location = requireNonNull(location, "location is null");
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.partitionColumns = List.copyOf(requireNonNull(partitionColumns, "partitionColumns is null"));
        this.companionFolder = requireNonNull(companionFolder, "companionFolder is null");
        this.companionObjects = List.copyOf(requireNonNull(companionObjects, "companionObjects is null"));
        ImmutableMap.Builder<String, LakeFile> byPath = ImmutableMap.builderWithExpectedSize(this.files.size());
        this.files.forEach(file -> byPath.put(file.relativePath(), file));
        // one listing names every key once: a duplicate is a bug, never a rule to choose by
        this.filesByRelativePath = byPath.buildOrThrow();
    }

    /**
     * A table without a companion folder, or whose folder holds nothing.
     */
    public LakeTable(SchemaTableName name, S3Location location, List<LakeFile> files, List<PartitionColumn> partitionColumns)
    {
        this(name, location, files, partitionColumns, location.asPrefix(), List.of());
    }

    /**
     * This table with its companion folder where {@code companionFolder} is, holding {@code companionObjects}: a table
     * format's files come from its metadata, whose reading lists no folder of ours.
     */
    public LakeTable withCompanionFolder(S3Location companionFolder, List<ListedObject> companionObjects)
    {
        return new LakeTable(name, location, files, partitionColumns, companionFolder, companionObjects, snapshot);
    }

    public SchemaTableName name()
    {
        return name;
    }

    public S3Location location()
    {
        return location;
    }

    public List<LakeFile> files()
    {
        return files;
    }

    /**
     * The listed files by {@link LakeFile#relativePath()}.
     */
    public Map<String, LakeFile> filesByRelativePath()
    {
        return filesByRelativePath;
    }

    public List<PartitionColumn> partitionColumns()
    {
        return partitionColumns;
    }

    /**
     * The table's {@link CompanionFolder} (a prefix).
     */
    public S3Location companionFolder()
    {
        return companionFolder;
    }

    /**
     * The objects the listing found below {@link #companionFolder()}.
     */
    public List<ListedObject> companionObjects()
    {
        return companionObjects;
    }

    /**
     * The version of a table format's table read (Iceberg), which gives the columns; empty for a folder table.
     */
    public Optional<FormatSnapshot> snapshot()
    {
        return snapshot;
    }

    /**
     * The file written last ({@link LakeFile#WRITE_ORDER}): a writer that evolves the schema writes its newest
     * columns there, so the table's columns follow it.
     */
    public Optional<LakeFile> newestFile()
    {
        return files.stream().max(LakeFile.WRITE_ORDER);
    }

    @Override
    public String toString()
    {
        return "%s at %s (%d files)".formatted(name, location, files.size());
    }
}
