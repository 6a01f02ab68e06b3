package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.predicate.Domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The objects of a table's partitions that a predicate selects, listed without listing the others: from the table's
 * folder down, each partition level the predicate constrains is read with one delimited listing (its folders only),
 * and only the folders whose value the predicate admits are entered; at the first level it does not constrain, each
 * entered folder is listed whole. For {@code year = 2026 AND month = 3} over {@code year=/month=/day=/hour=} folders that
 * is the table's years, 2026's months and then March's objects: the cost follows the partitions a lookup reads, not
 * how many the table has.
 * <p>
 * A folder value is read as the table's partition column reads it ({@link PartitionValues}); one that does not parse
 * as the column's type is entered (it may hold rows the predicate wants: never drop what cannot be decided). Folders
 * that are not partitions of that level (another key, hidden names) hold no rows of the table at this level.
 */
final class PartitionFolders
{
    private final S3ObjectStore store;
    private final TableObjectLister lister;

    PartitionFolders(S3ObjectStore store, TableObjectLister lister)
    {
        this.store = requireNonNull(store, "store is null");
        this.lister = requireNonNull(lister, "lister is null");
    }

    /**
     * @param partitionColumns the table's partition columns, outermost folder level first
     * @param domains the predicate on partition columns, by column name
     */
    List<ListedObject> list(S3Location tablePrefix, List<PartitionColumn> partitionColumns, Map<String, Domain> domains, S3RequestStats stats)
    {
        List<ListedObject> objects = new ArrayList<>();
        collect(tablePrefix.asPrefix(), 0, partitionColumns, domains, objects, stats);
        return objects;
    }

    private void collect(S3Location folder, int level, List<PartitionColumn> partitionColumns, Map<String, Domain> domains, List<ListedObject> objects, S3RequestStats stats)
    {
        Optional<Domain> domain = level < partitionColumns.size() ? Optional.ofNullable(domains.get(partitionColumns.get(level).name())) : Optional.empty();
        if (domain.isEmpty() || domain.get().isAll()) {
            objects.addAll(lister.list(folder, stats));
            return;
        }
        PartitionColumn column = partitionColumns.get(level);
        for (String child : store.listChildPrefixes(folder, stats)) {
            if (admits(column, domain.get(), child)) {
                collect(folder.child(child).asPrefix(), level + 1, partitionColumns, domains, objects, stats);
            }
        }
    }

    /**
     * Whether the folder {@code name} ({@code key=value}) of {@code column}'s level may hold rows {@code domain} admits.
     */
    static boolean admits(PartitionColumn column, Domain domain, String name)
    {
        if (DataFileNames.isHidden(name)) {
            return false;
        }
        int equals = name.indexOf('=');
        if (equals <= 0 || !TableListing.unescape(name.substring(0, equals)).toLowerCase(Locale.ROOT).equals(column.name())) {
            return false;
        }
        String value = TableListing.unescape(name.substring(equals + 1));
        Optional<String> partitionValue = value.equals(PartitionValues.HIVE_DEFAULT_PARTITION) ? Optional.empty() : Optional.of(value);
        Object nativeValue;
        try {
            nativeValue = PartitionValues.toNativeValue(column.type(), partitionValue);
        }
        catch (RuntimeException e) {
            // not of the column's type: whatever reads its files decides, not this listing
            return true;
        }
        return domain.includesNullableValue(nativeValue);
    }
}
