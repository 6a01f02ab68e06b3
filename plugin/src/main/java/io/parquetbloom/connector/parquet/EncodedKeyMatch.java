package io.parquetbloom.connector.parquet;

import io.airlift.slice.Slice;
import io.parquetbloom.pruning.DiscreteValueSet;
import io.parquetbloom.pruning.DomainValueMatcher;
import io.trino.parquet.DataPage;
import io.trino.parquet.DataPageV1;
import io.trino.parquet.DataPageV2;
import io.trino.parquet.DictionaryPage;
import io.trino.parquet.ParquetEncoding;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.reader.PageReader;
import io.trino.parquet.reader.SimpleSliceInputStream;
import io.trino.parquet.reader.decoders.RleBitPackingHybridDecoder;
import io.trino.parquet.reader.flat.FlatDefinitionLevelDecoder;
import io.trino.spi.block.Bitmap;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

import java.util.Arrays;
import java.util.Optional;

import static io.trino.parquet.reader.flat.FlatDefinitionLevelDecoder.getFlatDefinitionLevelDecoder;
import static java.util.Objects.requireNonNull;

/**
 * The rows of a flat column chunk holding one of a discrete domain's values, found on its encoded pages instead of
 * decoding them into blocks: a PLAIN page's values compared where they lie (a byte string by its bytes, an integer as
 * it is stored), a dictionary looked up once and its pages matched by id. Only where the bytes compared are exactly
 * what the reader would return for the column's type: an unbounded VARCHAR or a VARBINARY of a BINARY column with no
 * or a textual annotation, a BIGINT or INTEGER of a signed INT64 or INT32 column. Anything else on a page (another
 * encoding, levels of another kind) is {@link Unsupported}, and the caller reads the chunk with the reader instead.
 */
final class EncodedKeyMatch
{
    /**
     * A page this matcher does not read; the chunk is read by the reader instead.
     */
    static final class Unsupported
            extends RuntimeException
    {
        Unsupported(String message)
        {
            super(message, null, false, false);
        }
    }

    private final PrimitiveType.PrimitiveTypeName physicalType;
    private final int maxDefinitionLevel;
    private final boolean nullMatches;
    private final DiscreteValueSet values;

    private EncodedKeyMatch(PrimitiveType.PrimitiveTypeName physicalType, int maxDefinitionLevel, boolean nullMatches, DiscreteValueSet values)
    {
        this.physicalType = requireNonNull(physicalType, "physicalType is null");
        this.maxDefinitionLevel = maxDefinitionLevel;
        this.nullMatches = nullMatches;
        this.values = requireNonNull(values, "values is null");
    }

    /**
     * A matcher of the field's chunks against the matcher's domain, where its values can be compared encoded.
     */
    static Optional<EncodedKeyMatch> of(PrimitiveField field, DomainValueMatcher matcher)
    {
        ColumnDescriptor descriptor = field.getDescriptor();
        if (descriptor.getMaxRepetitionLevel() != 0 || descriptor.getMaxDefinitionLevel() > 1) {
            return Optional.empty();
        }
        PrimitiveType primitive = descriptor.getPrimitiveType();
        LogicalTypeAnnotation annotation = primitive.getLogicalTypeAnnotation();
        Type type = field.getType();
        boolean nullMatches = matcher.domain().isNullAllowed();
        Optional<DiscreteValueSet> values = switch (primitive.getPrimitiveTypeName()) {
            case BINARY -> isUnboundedByteString(type) && isTextOrNone(annotation) ? matcher.discreteByteStrings() : Optional.empty();
            case INT64 -> type instanceof BigintType && isSignedIntegerOrNone(annotation, 64) ? matcher.discreteLongs() : Optional.empty();
            // an INT32 read as BIGINT is sign-extended, as its value compared here
            case INT32 -> (type instanceof IntegerType || type instanceof BigintType) && isSignedIntegerOrNone(annotation, 32) ? matcher.discreteLongs() : Optional.empty();
            default -> Optional.empty();
        };
        return values.map(set -> new EncodedKeyMatch(primitive.getPrimitiveTypeName(), descriptor.getMaxDefinitionLevel(), nullMatches, set));
    }

    private static boolean isUnboundedByteString(Type type)
    {
        // a bounded VARCHAR is truncated by the reader: its bytes are not the file's
        return (type instanceof VarcharType varchar && varchar.isUnbounded()) || type instanceof VarbinaryType;
    }

    private static boolean isTextOrNone(LogicalTypeAnnotation annotation)
    {
        return annotation == null
                || annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
    }

    private static boolean isSignedIntegerOrNone(LogicalTypeAnnotation annotation, int bitWidth)
    {
        return annotation == null || (annotation instanceof IntLogicalTypeAnnotation integer && integer.isSigned() && integer.getBitWidth() == bitWidth);
    }

    /**
     * The rows (positions in the row group) whose value matches, ascending, of the pages the reader returns: the whole
     * chunk, or the pages its offset index selects (whose first rows it names).
     *
     * @param expectedRows the rows the pages hold: the row group's, or the selected pages'
     * @throws Unsupported where a page is of a kind this matcher does not read, or the pages hold other than
     * {@code expectedRows} rows
     */
    long[] matchingRows(PageReader pages, long expectedRows)
    {
        // the reader ignores definition levels where the chunk's statistics count no NULL: a chunk whose levels say
        // otherwise is read by the reader, so that both agree on which value is which row
        boolean nullsClaimedAbsent = pages.hasNoNulls();
        DictionaryPage dictionary = pages.readDictionaryPage();
        boolean[] dictionaryMatches = dictionary == null ? null : dictionaryMatches(dictionary);
        Rows rows = new Rows();
        long next = 0;
        long read = 0;
        for (DataPage page = pages.readPage(); page != null; page = pages.readPage()) {
            long first = page.getFirstRowIndex().orElse(next);
            matchPage(page, first, dictionaryMatches, nullsClaimedAbsent, rows);
            next = first + page.getValueCount();
            read += page.getValueCount();
        }
        if (read != expectedRows) {
            throw new Unsupported("pages of %s rows where %s were expected".formatted(read, expectedRows));
        }
        return rows.toArray();
    }

    private void matchPage(DataPage page, long firstRow, boolean[] dictionaryMatches, boolean nullsClaimedAbsent, Rows rows)
    {
        int count = page.getValueCount();
        Slice definitionLevels;
        Slice encoded;
        ParquetEncoding encoding;
        if (page instanceof DataPageV1 v1) {
            Slice slice = v1.getSlice();
            int levelBytes = 0;
            if (maxDefinitionLevel > 0) {
                if (v1.getDefinitionLevelEncoding() != ParquetEncoding.RLE) {
                    throw new Unsupported("definition levels encoded as " + v1.getDefinitionLevelEncoding());
                }
                levelBytes = Integer.BYTES + slice.getInt(0);
            }
            definitionLevels = slice.slice(Math.min(Integer.BYTES, levelBytes), Math.max(0, levelBytes - Integer.BYTES));
            encoded = slice.slice(levelBytes, slice.length() - levelBytes);
            encoding = v1.getValueEncoding();
        }
        else {
            DataPageV2 v2 = (DataPageV2) page;
            definitionLevels = v2.getDefinitionLevels();
            encoded = v2.getSlice();
            encoding = v2.getDataEncoding();
        }
        Validity validity = validity(definitionLevels, count);
        if (nullsClaimedAbsent && validity.nonNull() != count) {
            throw new Unsupported("a page of %s NULLs in a chunk whose statistics count none".formatted(count - validity.nonNull()));
        }
        ValueCursor cursor = switch (encoding) {
            case PLAIN -> new PlainCursor(encoded);
            case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                if (dictionaryMatches == null) {
                    throw new Unsupported("a dictionary-encoded page without a dictionary page");
                }
                yield new DictionaryCursor(encoded, dictionaryMatches, validity.nonNull());
            }
            default -> throw new Unsupported("values encoded as " + encoding);
        };
        long[] valid = validity.bits();
        for (int position = 0; position < count; position++) {
            boolean isNull = valid != null && !Bitmap.isSet(valid, 0, position);
            if (isNull ? nullMatches : cursor.nextMatches()) {
                rows.add(firstRow + position);
            }
        }
    }

    /**
     * @param bits which positions hold a value (bits set), or null where every position does
     * @param nonNull how many positions hold a value
     */
    private record Validity(long[] bits, int nonNull) {}

    private Validity validity(Slice definitionLevels, int count)
    {
        if (maxDefinitionLevel == 0) {
            return new Validity(null, count);
        }
        FlatDefinitionLevelDecoder decoder = getFlatDefinitionLevelDecoder(maxDefinitionLevel, false);
        decoder.init(definitionLevels);
        long[] valid = Bitmap.allocateWords(count, false);
        int nonNull = decoder.readNext(valid, 0, count);
        return new Validity(nonNull == count ? null : valid, nonNull);
    }

    private boolean[] dictionaryMatches(DictionaryPage dictionary)
    {
        if (dictionary.getEncoding() != ParquetEncoding.PLAIN && dictionary.getEncoding() != ParquetEncoding.PLAIN_DICTIONARY) {
            throw new Unsupported("a dictionary encoded as " + dictionary.getEncoding());
        }
        boolean[] matches = new boolean[dictionary.getDictionarySize()];
        PlainCursor cursor = new PlainCursor(dictionary.getSlice());
        for (int id = 0; id < matches.length; id++) {
            matches[id] = cursor.nextMatches();
        }
        return matches;
    }

    private interface ValueCursor
    {
        /**
         * Whether the next non-null value matches; moves past it.
         */
        boolean nextMatches();
    }

    private final class PlainCursor
            implements ValueCursor
    {
        private final Slice slice;
        private int offset;

        PlainCursor(Slice slice)
        {
            this.slice = slice;
        }

        @Override
        public boolean nextMatches()
        {
            return switch (physicalType) {
                case BINARY -> {
                    int length = slice.getInt(offset);
                    if (length < 0 || length > slice.length() - offset - Integer.BYTES) {
                        throw new Unsupported("a value of %s bytes past its page".formatted(length));
                    }
                    boolean matches = values.containsBytes(slice, offset + Integer.BYTES, length);
                    offset += Integer.BYTES + length;
                    yield matches;
                }
                case INT64 -> {
                    long value = slice.getLong(offset);
                    offset += Long.BYTES;
                    yield values.containsLong(value);
                }
                case INT32 -> {
                    int value = slice.getInt(offset);
                    offset += Integer.BYTES;
                    yield values.containsLong(value);
                }
                default -> throw new Unsupported("physical type " + physicalType);
            };
        }
    }

    private static final class DictionaryCursor
            implements ValueCursor
    {
        private final boolean[] dictionaryMatches;
        private final int[] ids;
        private int next;

        DictionaryCursor(Slice encoded, boolean[] dictionaryMatches, int count)
        {
            this.dictionaryMatches = dictionaryMatches;
            int bitWidth = encoded.getByte(0);
            if (bitWidth < 0 || bitWidth > 32) {
                throw new Unsupported("dictionary ids of %s bits".formatted(bitWidth));
            }
            RleBitPackingHybridDecoder decoder = new RleBitPackingHybridDecoder(bitWidth, false);
            decoder.init(new SimpleSliceInputStream(encoded, 1));
            // one id per non-null position
            this.ids = new int[count];
            decoder.read(ids, 0, count);
        }

        @Override
        public boolean nextMatches()
        {
            int id = ids[next++];
            if (id < 0 || id >= dictionaryMatches.length) {
                throw new Unsupported("dictionary id %s of %s entries".formatted(id, dictionaryMatches.length));
            }
            return dictionaryMatches[id];
        }
    }

    private static final class Rows
    {
        private long[] rows = new long[8];
        private int count;

        void add(long row)
        {
            if (count == rows.length) {
                rows = Arrays.copyOf(rows, count * 2);
            }
            rows[count++] = row;
        }

        long[] toArray()
        {
            return Arrays.copyOf(rows, count);
        }
    }
}
