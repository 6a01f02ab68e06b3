package io.parquetbloom.table;

import com.google.common.cache.Cache;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.airlift.units.Duration;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.FolderListing;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_S3_ACCESS_DENIED;
import static io.trino.cache.CacheUtils.uncheckedCacheGet;
import static java.util.Objects.requireNonNull;

/**
 * Refuses a registered location inside a table format's folder: a partition folder of a Delta Lake table (its
 * {@code _delta_log/} is above it), of a Hudi table ({@code .hoodie/} above, {@code .hoodie_partition_metadata} in
 * it), an Iceberg table's {@code data/} ({@code metadata/*.metadata.json} beside it), a Spark streaming sink's
 * partition ({@code _spark_metadata/} above) or a Hive transactional {@code base_N/} or {@code delta_N_M/} folder. The
 * listing of the location itself finds markers below it; this looks at its own folder names and, with one delimited
 * listing each, at every folder above it within its bucket (a folder the credentials may not list is passed over). A
 * check is trusted for {@code metadata.schema-cache-ttl}.
 */
final class FormatAncestors
{
    private final S3ObjectStore store;
    private final Cache<S3Location, Boolean> checked;

    FormatAncestors(S3ObjectStore store, Duration ttl)
    {
        this.store = requireNonNull(store, "store is null");
        this.checked = EvictableCacheBuilder.newBuilder()
                .expireAfterWrite(ttl.toMillis(), TimeUnit.MILLISECONDS)
                .maximumSize(10_000)
                .shareNothingWhenDisabled()
                .build();
    }

    void check(SchemaTableName name, S3Location location, S3RequestStats stats)
    {
        try {
            uncheckedCacheGet(checked, location.asPrefix(), () -> {
                checkNow(name, location, stats);
                return true;
            });
        }
        catch (UncheckedExecutionException e) {
            // the check's own error (the format's, or the listing's), not the cache's wrapper
            throwIfUnchecked(e.getCause());
            throw e;
        }
    }

    void flush()
    {
        checked.invalidateAll();
    }

    /**
     * Fails with the table format's error where {@code location} is in a format's folder.
     */
    void checkNow(SchemaTableName name, S3Location location, S3RequestStats stats)
    {
        String key = location.asPrefix().key();
        String[] segments = key.isEmpty() ? new String[0] : key.substring(0, key.length() - 1).split("/", -1);
        S3Location folder = new S3Location(location.bucket(), "");
        for (String segment : segments) {
            checkChildren(name, folder, stats);
            folder = folder.child(segment).asPrefix();
            Optional<TableFormat> format = TableFormat.ofFolder(segment);
            if (format.isPresent()) {
                throw TableListing.unsupportedFormat(name, folder, format.get());
            }
        }
    }

    private void checkChildren(SchemaTableName name, S3Location folder, S3RequestStats stats)
    {
        FolderListing listing;
        try {
            listing = store.listFolder(folder, stats);
        }
        catch (TrinoException e) {
            if (e.getErrorCode().equals(PARQUET_BLOOM_S3_ACCESS_DENIED.toErrorCode())) {
                // credentials scoped to the lake's prefixes (s3:ListBucket with a prefix condition) cannot list above
                // them: nothing is known there, as for any store the catalog cannot read
                return;
            }
            throw e;
        }
        for (String child : listing.folders()) {
            Optional<TableFormat> format = TableFormat.ofFolder(child);
            if (format.isPresent()) {
                throw TableListing.unsupportedFormat(name, folder, format.get());
            }
            if (child.equals("metadata") && holdsIcebergMetadata(folder.child(child).asPrefix(), stats)) {
                throw TableListing.unsupportedFormat(name, folder, TableFormat.ICEBERG);
            }
        }
        for (ListedObject object : listing.objects()) {
            if (object.key().endsWith("/.hoodie_partition_metadata")) {
                throw TableListing.unsupportedFormat(name, folder, TableFormat.HUDI);
            }
        }
    }

    private boolean holdsIcebergMetadata(S3Location metadata, S3RequestStats stats)
    {
        return store.listFolder(metadata, stats).objects().stream()
                .anyMatch(object -> TableFormat.isIcebergMetadataFile(object.key().substring(metadata.key().length())));
    }
}
