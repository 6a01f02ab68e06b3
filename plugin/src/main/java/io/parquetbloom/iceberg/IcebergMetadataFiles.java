package io.parquetbloom.iceberg;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_TABLE_EMPTY;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Which metadata file of an Iceberg table found by its folder is current. Without a catalog there is no pointer to ask:
 * a table written without one (Hadoop style) keeps {@code metadata/version-hint.text} naming its version; otherwise the
 * metadata file with the highest version number is taken. A commit that failed after writing its metadata file can
 * leave a higher-numbered orphan that no catalog points to; the README says so, and {@code register_table}'s
 * {@code metadata_file_name} pins the file a catalog names.
 */
final class IcebergMetadataFiles
{
    // <version>-<uuid>.metadata.json (catalogs) and v<version>.metadata.json (Hadoop tables), gzipped or not
    private static final Pattern METADATA_FILE = Pattern.compile("(?:v(\\d+)|(\\d+)-[^/]+?)(?:\\.gz)?\\.metadata\\.json(?:\\.gz)?");

    private final S3ObjectStore store;

    IcebergMetadataFiles(S3ObjectStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    /**
     * The current metadata file of the table in {@code table}: the one {@code version-hint.text} names (or a newer
     * {@code v<N>} a writer committed after the hint), else the highest version listed.
     */
    String current(S3Location table, S3RequestStats stats)
    {
        S3Location folder = table.child("metadata").asPrefix();
        List<ListedObject> objects = store.listWithAges(folder, stats);
        OptionalLong hint = OptionalLong.empty();
        String best = null;
        long bestVersion = -1;
        for (ListedObject object : objects) {
            String name = object.key().substring(folder.key().length());
            if (name.equals("version-hint.text")) {
                hint = OptionalLong.of(readHint(object, stats));
                continue;
            }
            OptionalLong version = version(name);
            if (version.isPresent() && version.getAsLong() > bestVersion) {
                bestVersion = version.getAsLong();
                best = object.object().location().toString();
            }
        }
        if (best == null) {
            throw new TrinoException(PARQUET_BLOOM_TABLE_EMPTY, "Iceberg table %s has no metadata file in %s".formatted(table, folder));
        }
        if (hint.isPresent() && bestVersion < hint.getAsLong()) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg table %s: metadata/version-hint.text names version %d, but the newest metadata file is version %d".formatted(table, hint.getAsLong(), bestVersion));
        }
        return best;
    }

    static OptionalLong version(String name)
    {
        Matcher matcher = METADATA_FILE.matcher(name);
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        String digits = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        try {
            return OptionalLong.of(Long.parseLong(digits));
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private long readHint(ListedObject object, S3RequestStats stats)
    {
        Optional<byte[]> bytes = store.readWhole(object.object().location(), stats).map(S3ObjectStore.StoredObject::bytes);
        String text = bytes.map(value -> new String(value, UTF_8).trim()).orElse("");
        try {
            return Long.parseLong(text);
        }
        catch (NumberFormatException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg version hint %s is not a version number: '%s'".formatted(object.object().location(), text), e);
        }
    }
}
