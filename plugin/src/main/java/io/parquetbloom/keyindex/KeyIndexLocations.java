package io.parquetbloom.keyindex;

import io.parquetbloom.s3.S3Location;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static io.parquetbloom.keyindex.KeyIndexFormat.INDEX_FOLDER;
import static io.parquetbloom.keyindex.KeyIndexFormat.POINTER_NAME;

/**
 * Where a column's index lives: {@code <table>/_key_index/<column>/}, a folder the table's listing skips (its name
 * starts with {@code _}).
 */
public final class KeyIndexLocations
{
    private KeyIndexLocations() {}

    public static S3Location folder(S3Location table, String column)
    {
        return table.asPrefix().child(INDEX_FOLDER + "/" + URLEncoder.encode(column, StandardCharsets.UTF_8) + "/");
    }

    public static S3Location pointer(S3Location table, String column)
    {
        return folder(table, column).child(POINTER_NAME);
    }

    public static S3Location segment(S3Location table, String column, String segmentName)
    {
        return folder(table, column).child(segmentName);
    }

    /**
     * The key of {@code object} relative to the table's folder, as file directories record it.
     */
    public static String relativePath(S3Location table, S3Location object)
    {
        String prefix = table.asPrefix().key();
        if (!object.bucket().equals(table.bucket()) || !object.key().startsWith(prefix)) {
            throw new IllegalArgumentException("%s is not in %s".formatted(object, table));
        }
        return object.key().substring(prefix.length());
    }
}
