package io.parquetbloom.table;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a listing of all of a table's files says its columns are: the data columns its files define (as
 * {@link TableSchemaReader} reads them), its partition columns with their types, and how many data files it had then.
 *
 * @param files data files of that listing: a table listed in one round of pages is cheaper listed whole than
 * partition by partition
 * @param fromTableFormat whether the columns come from a table format's metadata (Iceberg's, Delta Lake's), not from
 * the files: read with the table's files every query, never cached, and its partitions never listed as folders
 */
public record TableShape(List<TableSchemaReader.DataColumn> dataColumns, List<PartitionColumn> partitionColumns, int files, boolean fromTableFormat)
{
    public TableShape
    {
        dataColumns = List.copyOf(requireNonNull(dataColumns, "dataColumns is null"));
        partitionColumns = List.copyOf(requireNonNull(partitionColumns, "partitionColumns is null"));
    }

    /**
     * The shape of a folder table, from its files' footers and folders.
     */
    public TableShape(List<TableSchemaReader.DataColumn> dataColumns, List<PartitionColumn> partitionColumns, int files)
    {
        this(dataColumns, partitionColumns, files, false);
    }

    /**
     * Whether listing only the partitions a predicate selects is worth it: walking the partition levels takes a round
     * trip per level, so only where the whole table takes more pages of {@code listPageSize} keys than are listed side
     * by side in one round (at 1,000 keys a page, tables of more than 8,000 files).
     */
    public boolean listsByPartition(int listPageSize)
    {
        // a table format's partitions are its metadata's, whatever its folders hold
        return !fromTableFormat && !partitionColumns.isEmpty() && files > (long) TableObjectLister.MAX_PARALLEL_LISTINGS * listPageSize;
    }
}
