package io.parquetbloom.table;

import io.trino.spi.TrinoException;
import io.trino.spi.predicate.Domain;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_SCHEMA_MISMATCH;

/**
 * The one rule for which partition a file is in, read by the listing of a whole table ({@link TableListing}) and by
 * the listing of the partitions a predicate selects ({@link PartitionFolders}), so that the two cannot disagree: a
 * file's partition values are its path's {@code key=value} folder names, at any depth, in path order; every other
 * folder (a plain {@code raw/}, {@code data/} or {@code archive/} above, between or beside partition levels) is no
 * partition and is looked through; a hidden folder holds no data. A key named twice in one path is refused rather than
 * read one way by one listing and another way by the other.
 */
final class PartitionPaths
{
    /**
     * What the listing by partition does with a folder it finds.
     */
    enum FolderStep
    {
        /** Holds no file the predicate selects: not listed. */
        SKIP,
        /** Not a folder of the level's column (a plain folder, another key): entered, still at the same level. */
        ENTER,
        /** A folder of the level's column whose value the predicate may admit: entered at the next level. */
        NEXT_LEVEL,
        /** Its every object is listed, so the whole listing's error about it (a table format's folder) is raised. */
        LIST_WHOLE,
    }

    private PartitionPaths() {}

    /**
     * The partition values of the object whose key below the table's folder is {@code segments}, by lower-case column
     * name in path order (empty for {@code __HIVE_DEFAULT_PARTITION__}).
     */
    static Map<String, Optional<String>> partitionValues(String[] segments, String objectLocation)
    {
        Map<String, Optional<String>> partitions = new LinkedHashMap<>();
        for (int i = 0; i < segments.length - 1; i++) {
            Optional<Map.Entry<String, Optional<String>>> partition = partition(segments[i]);
            if (partition.isPresent() && partitions.put(partition.get().getKey(), partition.get().getValue()) != null) {
                throw new TrinoException(PARQUET_BLOOM_SCHEMA_MISMATCH, "File %s names partition column '%s' in more than one folder of its path; a file is in one partition".formatted(
                        objectLocation, partition.get().getKey()));
            }
        }
        return partitions;
    }

    /**
     * The folder {@code name} as a partition: its lower-case column name and its value (empty for the default
     * partition), or empty where it is no {@code key=value} folder.
     */
    static Optional<Map.Entry<String, Optional<String>>> partition(String name)
    {
        int equals = name.indexOf('=');
        if (equals <= 0) {
            return Optional.empty();
        }
        String value = TableListing.unescape(name.substring(equals + 1));
        return Optional.of(Map.entry(
                TableListing.unescape(name.substring(0, equals)).toLowerCase(Locale.ROOT),
                value.equals(PartitionValues.HIVE_DEFAULT_PARTITION) ? Optional.empty() : Optional.of(value)));
    }

    /**
     * What to do with the folder {@code name} found where the next partition folder of the path would be that of
     * {@code column}, given the predicate's {@code domain} on it.
     */
    static FolderStep step(PartitionColumn column, Domain domain, String name)
    {
        if (DataFileNames.isHidden(name)) {
            // no file below is data; a table format's folder fails the whole listing, and so it does here
            return TableFormat.isMarkerFolder(name) ? FolderStep.LIST_WHOLE : FolderStep.SKIP;
        }
        Optional<Map.Entry<String, Optional<String>>> partition = partition(name);
        if (partition.isEmpty() || !partition.get().getKey().equals(column.name())) {
            // a plain folder is looked through; another column's folder is read so that the listing's error about
            // files whose partition folders differ is the same as the whole listing's
            return FolderStep.ENTER;
        }
        return admits(column, domain, partition.get().getValue()) ? FolderStep.NEXT_LEVEL : FolderStep.SKIP;
    }

    private static boolean admits(PartitionColumn column, Domain domain, Optional<String> value)
    {
        Object nativeValue;
        try {
            nativeValue = PartitionValues.toNativeValue(column.type(), value);
        }
        catch (RuntimeException e) {
            // not of the column's type: whatever reads its files decides, not this listing
            return true;
        }
        return domain.includesNullableValue(nativeValue);
    }
}
