package io.parquetbloom.metadata;

import com.google.inject.Inject;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Parsed footers by object version. A cached footer keeps only the footer's bytes, never the data pages or filters
 * a short file's tail read also brought.
 */
public class FooterCache
{
    private final ParquetMetadataCache.Region<FileKey, ParquetFileMetadata> footers;

    static final String KIND = "footer";

    @Inject
    public FooterCache(ParquetMetadataCache budget)
    {
        // the parsed Thrift objects take a few times the serialized footer
        this.footers = budget.region(KIND, ParquetFileMetadata.class, key -> key,
                (FileKey key, ParquetFileMetadata file) -> 2L * key.location().length() + file.tail().length + 3L * file.footerLength() + 4096);
    }

    public Optional<ParquetFileMetadata> getIfPresent(FileKey key)
    {
        return footers.getIfPresent(key);
    }

    /**
     * @param reader reads the footer when it is not cached; what it returns is kept without its non-footer bytes
     */
    public ParquetFileMetadata get(FileKey key, Supplier<ParquetFileMetadata> reader)
    {
        return footers.get(key, () -> reader.get().retainOnlyFooter());
    }
}
