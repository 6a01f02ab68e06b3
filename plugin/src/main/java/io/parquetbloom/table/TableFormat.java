package io.parquetbloom.table;

import java.util.Optional;

/**
 * Table formats whose folders hold Parquet files that are not all part of the table: a rewritten or removed file
 * stays until the format's own cleanup (Delta Lake's VACUUM, Iceberg's snapshot expiry, Hudi's cleaner). Reading such a
 * folder as plain files would return rows of dead files, so a table in which one is found is refused with an error
 * that says which Trino connector reads it.
 */
public enum TableFormat
{
    DELTA_LAKE("Delta Lake", "_delta_log/", "delta_lake"),
    ICEBERG("Iceberg", "metadata/*.metadata.json", "iceberg"),
    HUDI("Hudi", ".hoodie/", "hudi");

    private final String displayName;
    private final String marker;
    private final String connectorName;

    TableFormat(String displayName, String marker, String connectorName)
    {
        this.displayName = displayName;
        this.marker = marker;
        this.connectorName = connectorName;
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
     * The {@code connector.name} of the Trino connector that reads the format through its own metadata.
     */
    public String connectorName()
    {
        return connectorName;
    }

    /**
     * A format's folder found in an object's key below a table's folder.
     *
     * @param folderSegments how many leading segments of the key name the format table's own folder
     */
    public record Found(TableFormat format, int folderSegments) {}

    /**
     * The table format an object's key shows, from its path below the table's folder: an object in a
     * {@code _delta_log/} or {@code .hoodie/} folder, or an Iceberg {@code *.metadata.json} in a {@code metadata/}
     * folder, at any depth (a format table nested in a plain table's folder is as dangerous as one at its root).
     */
    public static Optional<Found> detect(String[] segments)
    {
        for (int i = 0; i < segments.length - 1; i++) {
            switch (segments[i]) {
                case "_delta_log" -> {
                    return Optional.of(new Found(DELTA_LAKE, i));
                }
                case ".hoodie" -> {
                    return Optional.of(new Found(HUDI, i));
                }
                case "metadata" -> {
                    if (i == segments.length - 2 && segments[i + 1].endsWith(".metadata.json")) {
                        return Optional.of(new Found(ICEBERG, i));
                    }
                }
                default -> {}
            }
        }
        return Optional.empty();
    }
}
