package io.parquetbloom.table;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Table formats whose folders hold Parquet files that are not all part of the table: a rewritten or removed file
 * stays until the format's own cleanup (Delta Lake's VACUUM, Iceberg's snapshot expiry, Hudi's cleaner). Reading such a
 * folder as plain files would return rows of dead files, so a table in which one is found is refused with an error
 * that says which Trino connector reads it.
 */
public enum TableFormat
{
    DELTA_LAKE("Delta Lake", "_delta_log/", "Read it with Trino's Delta Lake connector (connector.name=delta_lake)"),
    ICEBERG("Iceberg", "metadata/*.metadata.json", "Read it with Trino's Iceberg connector (connector.name=iceberg)"),
    HUDI("Hudi", ".hoodie/ or .hoodie_partition_metadata", "Read it with Trino's Hudi connector (connector.name=hudi)"),
    SPARK_STREAMING("Spark structured streaming sink", "_spark_metadata/", "Its log names the files of committed batches; files of failed batches stay beside them. Read it through the engine that wrote it, or register a folder that holds only committed files"),
    HIVE_TRANSACTIONAL("Hive transactional", "base_N/ or delta_N_M/ folders", "Read it with Trino's Hive connector (connector.name=hive) through its metastore");

    // Hive ACID's folders, its ids zero-padded to at least 7 digits (base_%07d, delta_%07d_%07d_%04d, _v%07d), so that
    // a plain folder such as delta_2024_06 or base_2024 is not taken for one
    private static final Pattern HIVE_TRANSACTIONAL_FOLDER = Pattern.compile("(base_[0-9]{7,}|(delete_)?delta_[0-9]{7,}_[0-9]{7,}(_[0-9]{4,})?)(_v[0-9]{7,})?");

    private final String displayName;
    private final String marker;
    private final String advice;

    TableFormat(String displayName, String marker, String advice)
    {
        this.displayName = displayName;
        this.marker = marker;
        this.advice = advice;
    }

    public String displayName()
    {
        return displayName;
    }

    /**
     * What in the folder gives the format away, as a user would look for it.
     */
    public String marker()
    {
        return marker;
    }

    /**
     * How the format's tables are read instead, as the error says it.
     */
    public String advice()
    {
        return advice;
    }

    /**
     * A format's folder found in an object's key below a table's folder.
     *
     * @param folderSegments how many leading segments of the key name the format table's own folder (or, for a
     * marker of a partition folder, that folder)
     */
    public record Found(TableFormat format, int folderSegments) {}

    /**
     * The table format an object's key shows, from its path below the table's folder: an object in a
     * {@code _delta_log/}, {@code .hoodie/} or {@code _spark_metadata/} folder, Hudi's
     * {@code .hoodie_partition_metadata}, an Iceberg {@code *.metadata.json} (or gzipped) in a {@code metadata/}
     * folder, or an object in a Hive transactional {@code base_N/} or {@code delta_N_M/} folder, at any depth (a format
     * table nested in a plain table's folder is as dangerous as one at its root).
     */
    public static Optional<Found> detect(String[] segments)
    {
        int last = segments.length - 1;
        if (segments[last].equals(".hoodie_partition_metadata")) {
            return Optional.of(new Found(HUDI, last));
        }
        for (int i = 0; i < last; i++) {
            Optional<TableFormat> folderFormat = ofFolder(segments[i]);
            if (folderFormat.isPresent()) {
                return Optional.of(new Found(folderFormat.get(), i));
            }
            if (segments[i].equals("metadata") && i == last - 1 && isIcebergMetadataFile(segments[last])) {
                return Optional.of(new Found(ICEBERG, i));
            }
        }
        return Optional.empty();
    }

    /**
     * The format a folder of this name belongs to, by its name alone: {@code _delta_log}, {@code .hoodie},
     * {@code _spark_metadata}, Hive's transactional folders.
     */
    public static Optional<TableFormat> ofFolder(String name)
    {
        return switch (name) {
            case "_delta_log" -> Optional.of(DELTA_LAKE);
            case ".hoodie" -> Optional.of(HUDI);
            case "_spark_metadata" -> Optional.of(SPARK_STREAMING);
            default -> HIVE_TRANSACTIONAL_FOLDER.matcher(name).matches() ? Optional.of(HIVE_TRANSACTIONAL) : Optional.empty();
        };
    }

    /**
     * Whether a hidden folder of this name is a table format's (and so must fail a listing rather than be skipped).
     */
    public static boolean isMarkerFolder(String name)
    {
        return ofFolder(name).isPresent();
    }

    /**
     * Iceberg's table metadata, as writers name it: {@code <n>-<uuid>.metadata.json}, {@code v<n>.metadata.json},
     * gzipped as {@code .metadata.json.gz} or {@code .gz.metadata.json}.
     */
    public static boolean isIcebergMetadataFile(String name)
    {
        return name.endsWith(".metadata.json") || name.endsWith(".metadata.json.gz");
    }
}
