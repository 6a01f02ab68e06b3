package io.parquetbloom.keyindex;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.table.CompanionFolder;
import io.parquetbloom.table.TableSchemaReader;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Where a table's key indexes live: its {@link CompanionFolder} {@code _key_index/}, in the table's folder (a name the
 * table's files never have, as it starts with {@code _}) or under {@code key-index.location}; in it, a folder per
 * column, {@code <url-encoded column>/}, holding the pointer {@value #POINTER_NAME} and the segments.
 */
public final class KeyIndexLocations
{
    public static final String FOLDER_NAME = "_key_index";
    public static final String POINTER_NAME = "_pointer";

    private KeyIndexLocations() {}

    /**
     * The companion folder of every table: in the table's folder, or under {@code key-index.location}.
     */
    public static CompanionFolder companionFolder(Optional<String> keyIndexLocation)
    {
        return new CompanionFolder(FOLDER_NAME, keyIndexLocation.map(S3Location::parse));
    }

    /**
     * What a column's index is kept and found by: its name for a folder table's column; for a column a table format
     * matches by field id, also that id (and the names a name mapping gives it), so that an index never serves another
     * column that took the name (a dropped and renamed one, an older schema read by time travel) nor files a changed
     * mapping reads otherwise: such a lookup finds no index and reads the files.
     */
    public static String indexedColumn(TableSchemaReader.DataColumn column)
    {
        return indexedColumn(column.name(), column.fieldId(), column.mappedNames());
    }

    /**
     * @see #indexedColumn(TableSchemaReader.DataColumn)
     */
    public static String indexedColumn(String name, OptionalInt fieldId, Optional<List<String>> mappedNames)
    {
        if (fieldId.isEmpty()) {
            return name;
        }
        String key = name + "@" + fieldId.getAsInt();
        return mappedNames.map(names -> key + "@" + Integer.toHexString(String.join("\u0000", names).hashCode())).orElse(key);
    }

    /**
     * @param indexes the table's {@code _key_index/} folder ({@code LakeTable.companionFolder()})
     */
    public static S3Location folder(S3Location indexes, String column)
    {
        return indexes.asPrefix().child(URLEncoder.encode(column, UTF_8) + "/");
    }

    public static S3Location pointer(S3Location indexes, String column)
    {
        return folder(indexes, column).child(POINTER_NAME);
    }

    public static S3Location segment(S3Location indexes, String column, String segmentName)
    {
        return folder(indexes, column).child(segmentName);
    }

    /**
     * The column whose pointer {@code relativeKey} (a key below the {@code _key_index/} folder) is, when it is one
     * and its folder is named exactly as a build encodes a column.
     */
    static Optional<String> pointerColumn(String relativeKey)
    {
        String[] segments = relativeKey.split("/", -1);
        if (segments.length != 2 || !segments[1].equals(POINTER_NAME)) {
            return Optional.empty();
        }
        try {
            String column = URLDecoder.decode(segments[0], UTF_8);
            return URLEncoder.encode(column, UTF_8).equals(segments[0]) ? Optional.of(column) : Optional.empty();
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static boolean isPointer(String relativeKey)
    {
        String[] segments = relativeKey.split("/", -1);
        return segments.length == 2 && segments[1].equals(POINTER_NAME);
    }
}
