package io.parquetbloom.table;

import io.trino.spi.predicate.Domain;

import java.util.Map;

/**
 * What a table format's metadata says about a file before its footer is read (Iceberg's partition values and column
 * bounds from the manifests): a file it proves holds no matching row is never opened.
 */
public interface FileFilter
{
    FileFilter ALL = (file, domains) -> true;

    /**
     * Whether {@code file} may hold a row matching every domain; false only where the metadata proves none does.
     *
     * @param domains the query's domains of columns, by their field ids
     */
    boolean mightMatch(LakeFile file, Map<Integer, Domain> domains);
}
