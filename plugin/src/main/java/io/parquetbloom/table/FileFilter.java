package io.parquetbloom.table;

import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.predicate.Domain;

import java.util.Map;

/**
 * What a table format's metadata says about a file before its footer is read (Iceberg's partition values and column
 * bounds from the manifests, the statistics of a Delta Lake {@code add}): a file it proves holds no matching row is
 * never opened.
 */
public interface FileFilter
{
    FileFilter ALL = (file, domains) -> true;

    /**
     * Whether {@code file} may hold a row matching every domain; false only where the metadata proves none does.
     *
     * @param domains the query's domains of data columns, by the columns as the format's snapshot gave them (names,
     * field ids, physical names)
     */
    boolean mightMatch(LakeFile file, Map<DataColumn, Domain> domains);
}
