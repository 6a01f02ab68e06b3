package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * What one listing of a table's prefix says the table is, without I/O: its data files ({@link DataFileNames}) with
 * their partition values ({@code key=value} folders, Hive-escaped) and write times, its partition columns, the objects
 * of its {@link CompanionFolder}, and a refusal where a table format's folder is found ({@link TableFormat}).
 */
final class TableListing
{
    private TableListing() {}

    /**
     * @param companionObjects the objects below {@code companionFolder} when it is not in the table's folder (then the
     * table's listing holds none of them)
     */
    static LakeTable interpret(SchemaTableName name, S3Location prefix, List<ListedObject> objects, S3Location companionFolder, List<ListedObject> companionObjects)
    {
        return interpret(name, prefix, objects, companionFolder, companionObjects, Optional.empty());
    }

    /**
     * @param knownPartitionColumns the table's partition columns as a listing of all its files found them, for a
     * listing of some of its partitions: their types are the table's, not what these files' values alone would give
     */
    static LakeTable interpret(SchemaTableName name, S3Location prefix, List<ListedObject> objects, S3Location companionFolder, List<ListedObject> companionObjects, Optional<List<PartitionColumn>> knownPartitionColumns)
    {
        List<String> partitionKeys = null;
        String firstFile = null;
        List<LakeFile> files = new ArrayList<>();
        List<ListedObject> companions = new ArrayList<>(companionObjects);
        // a table format's folder is named before anything about the files: their folders are the format's, not ours
        for (ListedObject listed : objects) {
            if (!isCompanion(listed, companionFolder)) {
                String[] segments = relativeSegments(prefix, listed);
                Optional<TableFormat.Found> format = TableFormat.detect(segments);
                if (format.isPresent()) {
                    throw unsupportedFormat(name, prefix, segments, format.get());
                }
            }
        }
        for (ListedObject listed : objects) {
            S3ObjectInfo object = listed.object();
            String relativePath = object.location().key().substring(prefix.key().length());
            if (isCompanion(listed, companionFolder)) {
                companions.add(listed);
                continue;
            }
            String[] segments = relativePath.split("/", -1);
            if (!DataFileNames.isDataFile(segments, object.size())) {
                continue;
            }
            Map<String, Optional<String>> partitions = PartitionPaths.partitionValues(segments, object.location().toString());
            List<String> keys = List.copyOf(partitions.keySet());
            if (partitionKeys == null) {
                partitionKeys = keys;
                firstFile = object.location().toString();
            }
            else if (!partitionKeys.equals(keys)) {
                throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Table %s: file %s has partition folders %s, but %s has %s".formatted(name, object.location(), keys, firstFile, partitionKeys));
            }
            files.add(new LakeFile(object, relativePath, partitions, listed.lastModified()));
        }
        List<String> keys = partitionKeys == null ? List.of() : partitionKeys;
        if (knownPartitionColumns.isPresent() && partitionKeys != null && !partitionKeys.equals(knownPartitionColumns.get().stream().map(PartitionColumn::name).toList())) {
            throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Table %s: file %s has partition folders %s, but the table's are %s".formatted(
                    name, firstFile, partitionKeys, knownPartitionColumns.get().stream().map(PartitionColumn::name).toList()));
        }
        List<PartitionColumn> partitionColumns = knownPartitionColumns.orElseGet(() -> partitionColumns(keys, files));
        return new LakeTable(name, prefix, files, partitionColumns, companionFolder, companions);
    }

    private static boolean isCompanion(ListedObject listed, S3Location companionFolder)
    {
        return listed.key().startsWith(companionFolder.key()) && listed.object().location().bucket().equals(companionFolder.bucket());
    }

    private static String[] relativeSegments(S3Location prefix, ListedObject listed)
    {
        return listed.key().substring(prefix.key().length()).split("/", -1);
    }

    private static List<PartitionColumn> partitionColumns(List<String> partitionKeys, List<LakeFile> files)
    {
        List<PartitionColumn> partitionColumns = new ArrayList<>();
        for (int i = 0; i < partitionKeys.size(); i++) {
            String column = partitionKeys.get(i);
            List<String> values = files.stream()
                    .map(file -> file.partitionValue(column))
                    .flatMap(Optional::stream)
                    .distinct()
                    .toList();
            partitionColumns.add(new PartitionColumn(column, PartitionValues.inferType(values)));
        }
        return partitionColumns;
    }

    private static TrinoException unsupportedFormat(SchemaTableName name, S3Location prefix, String[] segments, TableFormat.Found found)
    {
        String formatFolder = prefix.key() + String.join("/", Arrays.asList(segments).subList(0, found.folderSegments()));
        S3Location formatTable = new S3Location(prefix.bucket(), formatFolder).asPrefix();
        TrinoException error = unsupportedFormat(name, formatTable, found.format());
        if (found.folderSegments() == 0) {
            // the table's own folder: a format read through its metadata reads it
            return new TableFormatFound(found.format(), formatTable, error.getMessage());
        }
        return error;
    }

    /**
     * The error for a table whose files are (or are inside) a folder of {@code format}.
     */
    static TrinoException unsupportedFormat(SchemaTableName name, S3Location formatFolder, TableFormat format)
    {
        return new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT, "Table %s: %s".formatted(name, formatMessage(formatFolder, format)));
    }

    /**
     * Why the folder {@code formatFolder} of {@code format} is not read as a folder of Parquet files.
     */
    static String formatMessage(S3Location formatFolder, TableFormat format)
    {
        return ("%s is %s %s table (it holds %s), whose folders keep files that are no longer part of the table; " +
                "this connector reads plain Parquet folders only and would return their rows. %s").formatted(
                formatFolder, "AEIOU".indexOf(format.displayName().charAt(0)) >= 0 ? "an" : "a", format.displayName(), format.marker(), format.advice());
    }

    /**
     * Hive escapes special characters in partition folder names as %XX.
     */
    static String unescape(String value)
    {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        int literalStart = 0;
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) == '%' && i + 2 < value.length() && isHex(value.charAt(i + 1)) && isHex(value.charAt(i + 2))) {
                // the text between escapes as a whole, so a surrogate pair stays one character
                bytes.writeBytes(value.substring(literalStart, i).getBytes(UTF_8));
                bytes.write(Integer.parseInt(value, i + 1, i + 3, 16));
                i += 2;
                literalStart = i + 1;
            }
        }
        bytes.writeBytes(value.substring(literalStart).getBytes(UTF_8));
        return bytes.toString(UTF_8);
    }

    private static boolean isHex(char c)
    {
        return Character.digit(c, 16) >= 0;
    }
}
