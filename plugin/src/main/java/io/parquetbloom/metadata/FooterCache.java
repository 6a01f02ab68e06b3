package io.parquetbloom.metadata;

import com.google.inject.Inject;

import java.util.Optional;
import java.util.function.Supplier;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Footers by object version, in two forms: parsed whole, for the files whose splits are read (and the health
 * tables), and {@link CompactFooter compact}, for planning, which touches every file of a table but reads little of
 * each footer. A cached footer keeps only the footer's bytes, never the data pages or filters a short file's tail
 * read also brought.
 */
public class FooterCache
{
    static final String KIND = "footer";
    static final String COMPACT_KIND = "compact-footer";

    private final ParquetMetadataCache.Region<FileKey, ParquetFileMetadata> footers;
    private final ParquetMetadataCache.Region<FileKey, CompactFooter> compactFooters;

    @Inject
    public FooterCache(ParquetMetadataCache budget)
    {
        // parsed, a footer takes about 12 times its serialized bytes on the heap (the Thrift objects, trino-parquet's
        // row groups, statistics and schema): 54.7 KB for a 4.7 KB footer, 8.2 KB for a 642-byte one, measured by
        // ./run bench footers
        this.footers = budget.region(KIND, ParquetFileMetadata.class, key -> key,
                (FileKey key, ParquetFileMetadata file) -> 2L * key.location().length() + file.tail().length + 11L * file.footerLength() + 1024);
        this.compactFooters = budget.region(COMPACT_KIND, CompactFooter.class, key -> key,
                // with the key's strings and the cache's entry around it
                (FileKey key, CompactFooter footer) -> 2L * key.location().length() + key.etag().length() + footer.retainedBytes() + 128);
    }

    public Optional<ParquetFileMetadata> getIfPresent(FileKey key)
    {
        return footers.getIfPresent(key);
    }

    /**
     * The whole footer if kept, without counting a hit or miss: planning looks here only after the compact form.
     */
    public Optional<ParquetFileMetadata> peek(FileKey key)
    {
        return footers.peek(key);
    }

    /**
     * @param reader reads the footer when it is not cached; what it returns is kept without its non-footer bytes
     */
    public ParquetFileMetadata get(FileKey key, Supplier<ParquetFileMetadata> reader)
    {
        return footers.get(key, () -> reader.get().retainOnlyFooter());
    }

    /**
     * Keeps a footer just read whole, unless one is kept.
     */
    public void putIfAbsent(FileKey key, ParquetFileMetadata file)
    {
        checkArgument(file.compacted().isEmpty(), "a compact footer is not a whole one: %s", key);
        footers.putIfAbsent(key, file.retainOnlyFooter());
    }

    public Optional<CompactFooter> compactIfPresent(FileKey key)
    {
        return compactFooters.getIfPresent(key);
    }

    /**
     * The compact footer kept, or the loader's, which is then kept; concurrent callers for one key load once.
     */
    public CompactFooter compact(FileKey key, Supplier<CompactFooter> loader)
    {
        return compactFooters.get(key, loader);
    }

    /**
     * Keeps a compact footer, or of it and the one kept the one that covers the other's columns (this one when
     * neither does): queries that extend one file's form with different columns at once lose no more than a re-read.
     */
    public void keepCompact(FileKey key, CompactFooter footer)
    {
        compactFooters.merge(key, footer, (kept, added) -> kept.covers(added.columns()) && !added.covers(kept.columns()) ? kept : added);
    }

    public void invalidateCompact(FileKey key)
    {
        compactFooters.invalidate(key);
    }
}
