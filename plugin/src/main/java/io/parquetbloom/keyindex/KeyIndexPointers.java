package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableMap;
import io.airlift.log.Logger;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.table.LakeTable;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The key index pointers a table's listing found in its {@code _key_index/} folder, by column: an index is used only as
 * of the pointer version listed with the files.
 *
 * @param ignored pointers skipped because their folder is not a column name this connector encodes (another program's
 * object, such as {@code _key_index/100%/_pointer}), which must not fail the table
 */
public record KeyIndexPointers(Map<String, S3ObjectInfo> byColumn, int ignored)
{
    private static final Logger log = Logger.get(KeyIndexPointers.class);

    public KeyIndexPointers
    {
        byColumn = ImmutableMap.copyOf(requireNonNull(byColumn, "byColumn is null"));
    }

    public static KeyIndexPointers of(LakeTable table)
    {
        String folder = table.companionFolder().asPrefix().key();
        Map<String, S3ObjectInfo> pointers = new HashMap<>();
        int ignored = 0;
        for (ListedObject listed : table.companionObjects()) {
            String relativeKey = listed.key().substring(folder.length());
            if (!KeyIndexLocations.isPointer(relativeKey)) {
                continue;
            }
            Optional<String> column = KeyIndexLocations.pointerColumn(relativeKey);
            if (column.isPresent()) {
                pointers.put(column.get(), listed.object());
            }
            else {
                log.warn("Ignoring %s: its folder names no column a key index is built for", listed.object().location());
                ignored++;
            }
        }
        return new KeyIndexPointers(pointers, ignored);
    }
}
