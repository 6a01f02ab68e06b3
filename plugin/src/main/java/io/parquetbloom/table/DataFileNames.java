package io.parquetbloom.table;

import java.util.Locale;
import java.util.Set;

/**
 * Which objects below a table's folder are its data, by name. Trino's Hive connector reads every object of a table
 * folder that is not hidden; so do we, with two exceptions that cannot hold rows of a Parquet table:
 * <ul>
 * <li>hidden: any folder or file name starting with {@code _} or {@code .} ({@code _SUCCESS}, {@code _temporary/},
 * {@code .part-0.crc}, {@code _delta_log/}, {@code .hoodie/}, {@code _key_index/}), as Hadoop and Hive hide them;</li>
 * <li>a name whose extension says it is something else ({@code README.md}, {@code schema.json}, {@code x.avro},
 * {@code data.csv}; the list below).</li>
 * </ul>
 * So {@code part-00000-<uuid>-c000.snappy.parquet} (Spark), {@code 000000_0} (Hive), {@code 20260301_…_<uuid>}
 * (Trino) and {@code part-<uuid>-0-0} (Flink) are all data. An object taken as data that is not Parquet fails the
 * query with an error naming it; it is never skipped. Empty objects (folder markers, Hive's empty bucket files) hold no
 * rows and are skipped.
 */
public final class DataFileNames
{
    // extensions of files that sit beside data in lakes and are not Parquet: never data, whatever Hive would try
    private static final Set<String> NOT_DATA_EXTENSIONS = Set.of(
            "json", "crc", "txt", "md", "csv", "tsv", "avro", "orc", "log", "tmp", "bak", "properties", "yaml", "yml",
            "xml", "html", "sh", "py", "sql", "lock", "inprogress", "pending", "gz", "zip", "checksum", "marker");

    private DataFileNames() {}

    /**
     * @param segments the object's key below the table's folder, split at {@code /}
     * @param size the object's size in bytes
     */
    public static boolean isDataFile(String[] segments, long size)
    {
        String name = segments[segments.length - 1];
        if (name.isEmpty() || size == 0) {
            return false;
        }
        for (String segment : segments) {
            if (isHidden(segment)) {
                return false;
            }
        }
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            return true;
        }
        return !NOT_DATA_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /**
     * Hadoop's rule for hidden files and folders.
     */
    public static boolean isHidden(String name)
    {
        return name.startsWith("_") || name.startsWith(".");
    }
}
