package io.parquetbloom.metadata;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.parquetbloom.hash.XxHash64;
import io.trino.parquet.DictionaryPage;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetEncoding;
import io.trino.parquet.dictionary.Dictionary;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import static io.trino.parquet.ParquetCompressionUtils.decompress;
import static org.apache.parquet.format.Util.readPageHeader;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;

/**
 * Turns the bytes of a dictionary page (header and data) into a {@link ChunkDictionary} with trino-parquet's own
 * decompression and dictionary decoding, so the entries are the values its reader returns for the chunk. Anything
 * that does not add up (another page type, sizes that disagree, an encoding a dictionary cannot have, entries that
 * run past the page) makes the dictionary unusable, never wrong.
 */
final class DictionaryPageDecoder
{
    // a header whose sizes claim more than this is corrupt, not a dictionary worth decompressing
    private static final int MAX_UNCOMPRESSED_BYTES = 16 << 20;

    private DictionaryPageDecoder() {}

    /**
     * @param buffer holds the page from {@code position}; {@code available} bytes of it may belong to the page
     * @param exact the page must lie within {@code available} bytes; otherwise they are only the first bytes of the
     * chunk, and a page beyond them is too large rather than unusable
     */
    static ChunkDictionary.Result decode(ParquetDataSourceId file, ColumnDescriptor column, CompressionCodec codec, byte[] buffer, int position, int available, boolean exact, int maxEntries)
    {
        InputStream input = new ByteArrayInputStream(buffer, position, available);
        PageHeader header;
        try {
            header = readPageHeader(input);
        }
        catch (IOException | RuntimeException e) {
            return new ChunkDictionary.Result.Unusable("cannot read the dictionary page header: " + e.getMessage());
        }
        if (header.getType() != PageType.DICTIONARY_PAGE || !header.isSetDictionary_page_header()) {
            return new ChunkDictionary.Result.Unusable("the chunk starts with a %s page, not a dictionary page".formatted(header.getType()));
        }
        DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
        int entries = dictionaryHeader.getNum_values();
        if (entries > maxEntries) {
            return new ChunkDictionary.Result.TooLarge(entries, "%d entries (at most %d are read)".formatted(entries, maxEntries));
        }
        int headerLength = available - readRemaining(input);
        int compressedSize = header.getCompressed_page_size();
        int uncompressedSize = header.getUncompressed_page_size();
        if (uncompressedSize > MAX_UNCOMPRESSED_BYTES) {
            return new ChunkDictionary.Result.TooLarge(entries, "%d bytes uncompressed".formatted(uncompressedSize));
        }
        if (entries < 0 || compressedSize < 0 || uncompressedSize < 0) {
            return new ChunkDictionary.Result.Unusable("dictionary page header declares %d entries, %d compressed and %d uncompressed bytes".formatted(entries, compressedSize, uncompressedSize));
        }
        if (compressedSize > available - headerLength && !exact) {
            return new ChunkDictionary.Result.TooLarge(Integer.MAX_VALUE, "a dictionary page of %d bytes".formatted(headerLength + compressedSize));
        }
        if (compressedSize > available - headerLength) {
            return new ChunkDictionary.Result.Unusable("dictionary page of %d bytes runs past the %d bytes before the chunk's data pages".formatted(headerLength + compressedSize, available));
        }
        return decodeValues(file, column, codec, dictionaryHeader, Slices.wrappedBuffer(buffer, position + headerLength, compressedSize), uncompressedSize);
    }

    private static ChunkDictionary.Result decodeValues(ParquetDataSourceId file, ColumnDescriptor column, CompressionCodec codec, DictionaryPageHeader header, Slice compressed, int uncompressedSize)
    {
        int entries = header.getNum_values();
        try {
            ParquetEncoding encoding = dictionaryEncoding(header);
            Slice values = decompress(file, codec, compressed, uncompressedSize);
            if (values.length() != uncompressedSize) {
                return new ChunkDictionary.Result.Unusable("dictionary page decompresses to %d bytes instead of %d".formatted(values.length(), uncompressedSize));
            }
            Dictionary dictionary = encoding.initDictionary(column, new DictionaryPage(values, entries, encoding));
            return new ChunkDictionary.Result.Usable(new ChunkDictionary(hashes(column, dictionary, entries, values.length())));
        }
        catch (IOException | RuntimeException e) {
            return new ChunkDictionary.Result.Unusable("cannot decode the dictionary page: " + e.getMessage());
        }
    }

    private static ParquetEncoding dictionaryEncoding(DictionaryPageHeader header)
    {
        Encoding encoding = Encoding.valueOf(header.getEncoding().name());
        if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
            throw new IllegalArgumentException("dictionary page encoded as " + encoding);
        }
        return ParquetEncoding.valueOf(encoding.name());
    }

    /**
     * The bloom filter hash of every entry: XXH64 of its plain encoding (the bytes of a byte array without its length).
     */
    private static long[] hashes(ColumnDescriptor column, Dictionary dictionary, int entries, int pageBytes)
    {
        int width = switch (column.getPrimitiveType().getPrimitiveTypeName()) {
            case INT32, FLOAT -> Integer.BYTES;
            case INT64, DOUBLE -> Long.BYTES;
            case INT96 -> 12;
            case FIXED_LEN_BYTE_ARRAY -> column.getPrimitiveType().getTypeLength();
            case BINARY -> Integer.BYTES;
            case BOOLEAN -> throw new IllegalArgumentException("a BOOLEAN column has no dictionary");
        };
        // a plain-encoded dictionary is its entries and nothing else: a header that declares fewer entries than the
        // page holds would make a partial dictionary, and a partial dictionary would say "absent" wrongly
        if (entries == 0) {
            throw new IllegalArgumentException("the dictionary page declares no entries");
        }
        if (column.getPrimitiveType().getPrimitiveTypeName() != BINARY && (long) entries * width != pageBytes) {
            throw new IllegalArgumentException("%d entries of %d bytes do not make the page's %d bytes".formatted(entries, width, pageBytes));
        }
        long[] hashes = new long[entries];
        long binaryBytes = 0;
        for (int id = 0; id < entries; id++) {
            hashes[id] = switch (column.getPrimitiveType().getPrimitiveTypeName()) {
                case INT32 -> XxHash64.hashInt(dictionary.decodeToInt(id));
                case FLOAT -> XxHash64.hashInt(Float.floatToRawIntBits(dictionary.decodeToFloat(id)));
                case INT64 -> XxHash64.hashLong(dictionary.decodeToLong(id));
                case DOUBLE -> XxHash64.hashLong(Double.doubleToRawLongBits(dictionary.decodeToDouble(id)));
                case INT96, FIXED_LEN_BYTE_ARRAY -> XxHash64.hashSlice(dictionary.decodeToSlice(id));
                case BINARY -> {
                    Slice value = dictionary.decodeToSlice(id);
                    binaryBytes += Integer.BYTES + value.length();
                    yield XxHash64.hashSlice(value);
                }
                case BOOLEAN -> throw new IllegalStateException();
            };
        }
        if (column.getPrimitiveType().getPrimitiveTypeName() == BINARY && binaryBytes != pageBytes) {
            throw new IllegalArgumentException("%d entries take %d of the page's %d bytes".formatted(entries, binaryBytes, pageBytes));
        }
        return hashes;
    }

    private static int readRemaining(InputStream input)
    {
        try {
            return input.available();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
