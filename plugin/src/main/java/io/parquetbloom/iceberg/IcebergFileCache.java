package io.parquetbloom.iceberg;

import com.google.common.cache.Cache;
import com.google.inject.Inject;
import io.trino.cache.EvictableCacheBuilder;

import java.util.Optional;
import java.util.function.Supplier;

import static io.trino.cache.CacheUtils.uncheckedCacheGet;
import static java.util.Objects.requireNonNull;

/**
 * The bytes of Iceberg metadata, manifest list and manifest files, by path: Iceberg never rewrites a file at a path,
 * so a warm lookup reads none of them again. Bounded by {@code iceberg.file-cache.max-size}.
 */
public final class IcebergFileCache
{
    private final Cache<String, byte[]> files;

    @Inject
    public IcebergFileCache(IcebergConfig config)
    {
        requireNonNull(config, "config is null");
        this.files = EvictableCacheBuilder.newBuilder()
                .maximumWeight(config.getFileCacheMaxSize().toBytes())
                .weigher((String path, byte[] bytes) -> bytes.length + 2 * path.length() + 64)
                .shareNothingWhenDisabled()
                .build();
    }

    /**
     * The bytes of the file at {@code path}, cached or from {@code loader} (empty where there is no such file, which
     * is not cached: a file can appear at a path, never change there).
     */
    Optional<byte[]> get(String path, Supplier<Optional<byte[]>> loader)
    {
        byte[] cached = files.getIfPresent(path);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<byte[]> loaded = loader.get();
        loaded.ifPresent(bytes -> uncheckedCacheGet(files, path, () -> bytes));
        return loaded;
    }
}
