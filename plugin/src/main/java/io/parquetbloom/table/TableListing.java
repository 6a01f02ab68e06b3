package io.parquetbloom.table;

import io.airlift.log.Logger;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT;
import static io.parquetbloom.table.LakeTables.KEY_INDEX_FOLDER;
import static io.parquetbloom.table.LakeTables.KEY_INDEX_POINTER;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * What one listing of a table's prefix says the table is, without I/O: its data files ({@link DataFileNames}) with
 * their partition values ({@code key=value} folders, Hive-escaped) and write times, its partition columns, the key
 * index pointers beside them, and a refusal where a table format's folder is found ({@link TableFormat}).
 */
final class TableListing
{
    private static final Logger log = Logger.get(TableListing.class);

    private TableListing() {}

    /**
     * @param indexObjects the objects below {@code keyIndexHome}'s {@code _key_index/} when that is not the table's own
     * folder (then the table's listing holds none of them)
     */
    static LakeTable interpret(SchemaTableName name, S3Location prefix, List<ListedObject> objects, S3Location keyIndexHome, List<ListedObject> indexObjects)
    {
        List<String> partitionKeys = null;
        String firstFile = null;
        List<LakeFile> files = new ArrayList<>();
        Map<String, S3ObjectInfo> keyIndexPointers = new HashMap<>();
        int ignored = keyIndexPointers(indexObjects, keyIndexHome, keyIndexPointers);
        for (ListedObject listed : objects) {
            S3ObjectInfo object = listed.object();
            String[] segments = object.location().key().substring(prefix.key().length()).split("/", -1);
            if (segments[0].equals(KEY_INDEX_FOLDER)) {
                if (keyIndexHome.equals(prefix)) {
                    ignored += keyIndexPointers(List.of(listed), prefix, keyIndexPointers);
                }
                continue;
            }
            Optional<TableFormat.Found> format = TableFormat.detect(segments);
            if (format.isPresent()) {
                throw unsupportedFormat(name, prefix, segments, format.get());
            }
            if (!DataFileNames.isDataFile(segments, object.size())) {
                continue;
            }
            Map<String, Optional<String>> partitions = partitionValues(segments);
            List<String> keys = List.copyOf(partitions.keySet());
            if (partitionKeys == null) {
                partitionKeys = keys;
                firstFile = object.location().toString();
            }
            else if (!partitionKeys.equals(keys)) {
                throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "Table %s: file %s has partition folders %s, but %s has %s".formatted(name, object.location(), keys, firstFile, partitionKeys));
            }
            files.add(new LakeFile(object, List.copyOf(partitions.values()), listed.lastModified()));
        }
        return new LakeTable(name, prefix, files, partitionColumns(partitionKeys == null ? List.of() : partitionKeys, files), keyIndexPointers, keyIndexHome, ignored);
    }

    /**
     * Adds the pointers among objects below a key index home, by column: {@code _key_index/<url-encoded column>/_pointer}.
     *
     * @return how many pointers were skipped: their folder is not a column name this connector encodes (another
     * program's object, such as {@code _key_index/100%/_pointer}), which must not fail the table
     */
    private static int keyIndexPointers(List<ListedObject> objects, S3Location home, Map<String, S3ObjectInfo> pointers)
    {
        int ignored = 0;
        for (ListedObject listed : objects) {
            String[] segments = listed.key().substring(home.asPrefix().key().length()).split("/", -1);
            if (segments.length == 3 && segments[0].equals(KEY_INDEX_FOLDER) && segments[2].equals(KEY_INDEX_POINTER)) {
                Optional<String> column = indexedColumn(segments[1]);
                if (column.isPresent()) {
                    pointers.put(column.get(), listed.object());
                }
                else {
                    log.warn("Ignoring %s: its folder names no column a key index is built for", listed.object().location());
                    ignored++;
                }
            }
        }
        return ignored;
    }

    /**
     * The column a key index folder is named for, when the name is exactly how a build encodes it.
     */
    private static Optional<String> indexedColumn(String folder)
    {
        try {
            String column = URLDecoder.decode(folder, UTF_8);
            return URLEncoder.encode(column, UTF_8).equals(folder) ? Optional.of(column) : Optional.empty();
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Map<String, Optional<String>> partitionValues(String[] segments)
    {
        Map<String, Optional<String>> partitions = new LinkedHashMap<>();
        for (int i = 0; i < segments.length - 1; i++) {
            int equals = segments[i].indexOf('=');
            if (equals > 0) {
                String value = unescape(segments[i].substring(equals + 1));
                partitions.put(unescape(segments[i].substring(0, equals)).toLowerCase(Locale.ROOT),
                        value.equals(PartitionValues.HIVE_DEFAULT_PARTITION) ? Optional.empty() : Optional.of(value));
            }
        }
        return partitions;
    }

    private static List<PartitionColumn> partitionColumns(List<String> partitionKeys, List<LakeFile> files)
    {
        List<PartitionColumn> partitionColumns = new ArrayList<>();
        for (int i = 0; i < partitionKeys.size(); i++) {
            int index = i;
            List<String> values = files.stream()
                    .map(file -> file.partitionValues().get(index))
                    .flatMap(Optional::stream)
                    .distinct()
                    .toList();
            partitionColumns.add(new PartitionColumn(partitionKeys.get(i), PartitionValues.inferType(values)));
        }
        return partitionColumns;
    }

    private static TrinoException unsupportedFormat(SchemaTableName name, S3Location prefix, String[] segments, TableFormat.Found found)
    {
        String formatFolder = prefix.key() + String.join("/", Arrays.asList(segments).subList(0, found.folderSegments()));
        S3Location formatTable = new S3Location(prefix.bucket(), formatFolder).asPrefix();
        return new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FORMAT, ("Table %s: %s is a %s table (it holds %s), whose folder keeps files that are no longer part of the table; " +
                "this connector reads plain Parquet folders only and would return their rows. Read it with Trino's %s connector (connector.name=%s)").formatted(
                name, formatTable, found.format().displayName(), found.format().marker(), found.format().displayName(), found.format().connectorName()));
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
