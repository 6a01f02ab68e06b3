package io.parquetbloom.connector.parquet;

import io.airlift.slice.Slice;
import io.parquetbloom.metadata.ChunkPages;
import io.parquetbloom.pruning.DomainValueMatcher;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.parquet.reader.TrinoColumnIndexStore;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.spi.type.VarcharType.createVarcharType;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rows matched on encoded pages are exactly the rows the reader's decoded values match, for every encoding parquet-java
 * writes (PLAIN, dictionaries and their fallback, version 1 and 2 pages, the DELTA encodings, which fall back to the
 * reader), with NULLs, one key and many, present and absent.
 */
final class TestEncodedKeyMatch
{
    private static final ParquetReaderOptions OPTIONS = ParquetReaderOptions.builder().build();

    @ParameterizedTest
    @CsvSource({
            // dictionary, version 2 pages, distinct values, rows per page
            "false, false, 5000, 100",
            "true, false, 40, 100",
            "true, false, 5000, 1000",
            "false, true, 5000, 100",
            "true, true, 40, 300",
            "true, true, 5000, 1000",
    })
    void encodedMatchesAreTheDecodedMatches(boolean dictionary, boolean version2, int distinct, int pageRows)
            throws IOException
    {
        byte[] file = TestingParquetFiles.keys(distinct + pageRows, 3, 3_000, pageRows, distinct, dictionary, version2);
        SplittableRandom random = new SplittableRandom(distinct * 31L + pageRows);
        int encoded = 0;
        for (int trial = 0; trial < 12; trial++) {
            int keys = trial % 3 == 0 ? 1 : 1 + random.nextInt(50);
            boolean nullAllowed = trial % 4 == 3;
            // a fifth absent from the file
            RandomKeys drawn = RandomKeys.draw(random, keys, distinct + distinct / 4 + 1, trial % 2 == 0 ? Optional.empty() : Optional.of(() -> random.nextInt(120) - 60));
            List<Slice> strings = drawn.strings();
            List<Long> longs = drawn.longs();
            encoded += compare(file, "key", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), nullAllowed));
            encoded += compare(file, "sparse", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), nullAllowed));
            encoded += compare(file, "raw", VARBINARY, Domain.create(ValueSet.copyOf(VARBINARY, strings), nullAllowed));
            encoded += compare(file, "num", BIGINT, Domain.create(ValueSet.copyOf(BIGINT, longs), nullAllowed));
            encoded += compare(file, "small", INTEGER, Domain.create(ValueSet.copyOf(INTEGER, longs.stream().map(value -> (long) (int) (long) value).toList()), nullAllowed));
            // an INT32 read as BIGINT is sign-extended, as compared
            encoded += compare(file, "small", BIGINT, Domain.create(ValueSet.copyOf(BIGINT, longs), nullAllowed));
        }
        if (!version2 || dictionary) {
            // parquet-java's version 2 pages without dictionaries are DELTA-encoded: those fall back to the reader
            assertThat(encoded).isPositive();
        }
    }

    /**
     * NULLs a predicate accepts, over pages of NULLs only; {@code IS NULL} alone is no set of values, and is decoded.
     */
    @ParameterizedTest
    @CsvSource({"false, false", "true, false", "true, true"})
    void nullsMatchAsDecoded(boolean dictionary, boolean version2)
            throws IOException
    {
        byte[] file = TestingParquetFiles.keys(11, 2, 2_000, 100, 300, dictionary, version2);
        for (String column : List.of("key", "sparse")) {
            compare(file, column, VARCHAR, Domain.create(ValueSet.of(VARCHAR, utf8Slice("key-1"), utf8Slice("key-2")), true));
            compare(file, column, VARCHAR, Domain.create(ValueSet.of(VARCHAR, utf8Slice("key-1")), false));
        }
        compare(file, "small", INTEGER, Domain.create(ValueSet.of(INTEGER, 3L), true));
        assertThat(EncodedKeyMatch.of(field(file, "key", VARCHAR), new DomainValueMatcher(VARCHAR, Domain.onlyNull(VARCHAR)))).isEmpty();
    }

    /**
     * The pages the key index names: the first, a middle one after the dictionary page, the last, and pages apart.
     */
    @ParameterizedTest
    @CsvSource({
            // dictionary, version 2 pages
            "false, false",
            "true, false",
            "true, true",
    })
    void selectedPagesMatchAsDecoded(boolean dictionary, boolean version2)
            throws IOException
    {
        byte[] file = TestingParquetFiles.keys(13, 3, 2_000, 100, 400, dictionary, version2);
        SplittableRandom random = new SplittableRandom(17);
        int encoded = 0;
        for (int trial = 0; trial < 6; trial++) {
            RandomKeys drawn = RandomKeys.draw(random, 1 + trial * 7, 500, Optional.empty());
            List<Slice> strings = drawn.strings();
            List<Long> longs = drawn.longs();
            for (List<Integer> pages : List.of(List.of(0), List.of(1), List.of(0, 2), List.of(3, 7, 8), List.of(-1))) {
                encoded += compareSelected(file, "key", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), trial % 3 == 2), pages);
                encoded += compareSelected(file, "sparse", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), false), pages);
                encoded += compareSelected(file, "num", BIGINT, Domain.create(ValueSet.copyOf(BIGINT, longs), false), pages);
            }
        }
        assertThat(encoded).isPositive();
    }

    /**
     * Two filter columns probed together: a row matches where both do, and each column says whether any of its values
     * matched.
     */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void columnsAreIntersectedAsDecoded(boolean dictionary)
            throws IOException
    {
        byte[] file = TestingParquetFiles.keys(19, 3, 2_000, 150, 60, dictionary, false);
        SplittableRandom random = new SplittableRandom(23);
        int encoded = 0;
        for (int trial = 0; trial < 10; trial++) {
            RandomKeys drawn = RandomKeys.draw(random, 1 + random.nextInt(20), 80, trial % 2 == 0 ? Optional.empty() : Optional.of(() -> random.nextInt(80)));
            List<Slice> strings = drawn.strings();
            List<Long> longs = drawn.longs();
            List<RowMatchProbe.ProbeColumn> onPages = List.of(
                    probeColumn(file, "key", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), false), true),
                    probeColumn(file, "num", BIGINT, Domain.create(ValueSet.copyOf(BIGINT, longs), trial % 3 == 0), true));
            List<RowMatchProbe.ProbeColumn> decoded = onPages.stream()
                    .map(column -> new RowMatchProbe.ProbeColumn(column.column(), column.field(), column.matcher(), Optional.empty()))
                    .toList();
            encoded += assertSameRows(probe(file, onPages, Optional.empty()), probe(file, decoded, Optional.empty()), "key and num");
        }
        assertThat(encoded).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void aBoundedVarcharIsDecoded(boolean dictionary)
            throws IOException
    {
        byte[] file = TestingParquetFiles.keys(7, 1, 500, 100, 50, dictionary, false);
        Type bounded = createVarcharType(5);
        assertThat(EncodedKeyMatch.of(field(file, "key", bounded), new DomainValueMatcher(bounded, Domain.singleValue(bounded, utf8Slice("key-1"))))).isEmpty();
        assertThat(EncodedKeyMatch.of(field(file, "key", VARCHAR), new DomainValueMatcher(VARCHAR, Domain.singleValue(VARCHAR, utf8Slice("key-1"))))).isPresent();
    }

    /**
     * @return how many row groups were matched on their encoded pages
     */
    private static int compare(byte[] file, String column, Type type, Domain domain)
            throws IOException
    {
        RowMatchProbe.ProbeColumn onPages = probeColumn(file, column, type, domain, true);
        RowMatchProbe.ProbeColumn decoded = probeColumn(file, column, type, domain, false);
        return assertSameRows(probe(file, List.of(onPages), Optional.empty()), probe(file, List.of(decoded), Optional.empty()), "%s as %s in %s".formatted(column, type, domain));
    }

    /**
     * @param pages the pages of each row group the key index names; -1 is the last
     * @return how many row groups were matched on their encoded pages
     */
    private static int compareSelected(byte[] file, String column, Type type, Domain domain, List<Integer> pages)
            throws IOException
    {
        RowMatchProbe.ProbeColumn onPages = probeColumn(file, column, type, domain, true);
        RowMatchProbe.ProbeColumn decoded = probeColumn(file, column, type, domain, false);
        String description = "%s as %s in %s, pages %s".formatted(column, type, domain, pages);
        return assertSameRows(probe(file, List.of(onPages), Optional.of(pages)), probe(file, List.of(decoded), Optional.of(pages)), description);
    }

    private static RowMatchProbe.ProbeColumn probeColumn(byte[] file, String column, Type type, Domain domain, boolean encodedIfPossible)
            throws IOException
    {
        PrimitiveField field = field(file, column, type);
        DomainValueMatcher matcher = new DomainValueMatcher(type, domain);
        Optional<EncodedKeyMatch> encoded = EncodedKeyMatch.of(field, matcher);
        assertThat(encoded).as("%s as %s", column, type).isPresent();
        return new RowMatchProbe.ProbeColumn(new Column(column, field), field, matcher, encodedIfPossible ? encoded : Optional.empty());
    }

    private static int assertSameRows(List<RowMatchProbe.Probed> onPages, List<RowMatchProbe.Probed> decoded, String description)
    {
        assertThat(onPages).hasSameSizeAs(decoded);
        int matchedOnPages = 0;
        for (int rowGroup = 0; rowGroup < decoded.size(); rowGroup++) {
            assertThat(decoded.get(rowGroup).how()).isEqualTo(RowMatchProbe.ProbeKind.DECODED);
            assertThat(onPages.get(rowGroup).matchedRows()).as("%s, row group %s", description, rowGroup).containsExactly(decoded.get(rowGroup).matchedRows());
            assertThat(onPages.get(rowGroup).columnMatched()).as("%s, row group %s", description, rowGroup).containsExactly(decoded.get(rowGroup).columnMatched());
            assertThat(onPages.get(rowGroup).complete()).isEqualTo(decoded.get(rowGroup).complete());
            if (onPages.get(rowGroup).how() == RowMatchProbe.ProbeKind.ENCODED) {
                matchedOnPages++;
            }
        }
        return matchedOnPages;
    }

    private static PrimitiveField field(byte[] file, String column, Type type)
            throws IOException
    {
        MessageType schema = footer(file).getFileMetaData().getSchema();
        MessageColumnIO io = getColumnIO(schema, schema);
        return (PrimitiveField) constructField(type, lookupColumnByName(io, column)).orElseThrow();
    }

    private static ParquetMetadata footer(byte[] file)
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        return MetadataReader.readFooter(new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS), Optional.empty());
    }

    /**
     * @param selectedPages the pages of the first column the key index names in each row group (-1: the last), or
     * empty for whole chunks
     */
    private static List<RowMatchProbe.Probed> probe(byte[] file, List<RowMatchProbe.ProbeColumn> columns, Optional<List<Integer>> selectedPages)
            throws IOException
    {
        ParquetMetadata footer = footer(file);
        MessageType schema = footer.getFileMetaData().getSchema();
        Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(schema, schema);
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        List<RowMatchProbe.Target> targets = new ArrayList<>();
        List<BlockMetadata> blocks = footer.getBlocks();
        for (int rowGroup = 0; rowGroup < blocks.size(); rowGroup++) {
            BlockMetadata block = blocks.get(rowGroup);
            RowGroupInfo info = new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, new ParquetDataSourceId("file"), descriptors), block.fileRowCountOffset(), Optional.empty());
            Optional<RowMatchProbe.ProbedPages> pages = Optional.empty();
            if (selectedPages.isPresent()) {
                pages = Optional.of(probedPages(store, block, info, columns.getFirst().field().getDescriptor(), selectedPages.get()));
            }
            targets.add(new RowMatchProbe.Target(rowGroup, info, columns, pages, List.of()));
        }
        List<RowMatchProbe.Probed> probed = new ArrayList<>();
        new RowMatchProbe(store, store.object(), new S3RequestStats(), Runnable::run, OPTIONS, Optional.empty(), Long.MAX_VALUE).probe(targets, (result, bytes) -> probed.add(result));
        return probed;
    }

    /**
     * The pages of a column chunk, as the key index names them to the probe.
     */
    private static RowMatchProbe.ProbedPages probedPages(InMemoryObjectStore store, BlockMetadata block, RowGroupInfo info, ColumnDescriptor descriptor, List<Integer> pages)
            throws IOException
    {
        ColumnChunkMetadata chunk = info.prunedBlockMetadata().getColumnChunkMetaData(descriptor);
        ColumnPath path = chunk.getPath();
        TrinoColumnIndexStore indexes = new TrinoColumnIndexStore(new S3ParquetDataSource(store, store.object(), new S3RequestStats(), OPTIONS), block, Set.of(path), Set.of(), Optional.empty());
        long rowCount = block.rowCount();
        OffsetIndex offsetIndex = indexes.getOffsetIndex(path);
        long firstDataPage = offsetIndex.getOffset(0);
        ChunkPages chunkPages = ChunkPages.validated(offsetIndex, firstDataPage, chunk.getStartingPos() + chunk.getTotalSize(), rowCount).orElseThrow();
        BitSet selected = new BitSet(chunkPages.getPageCount());
        pages.forEach(page -> selected.set(page < 0 ? chunkPages.getPageCount() + page : Math.min(page, chunkPages.getPageCount() - 1)));
        SelectedPages selection = new SelectedPages(Map.of(path, chunkPages), Map.of(path, selected));
        return new RowMatchProbe.ProbedPages(selection, path, PageSelector.ranges(chunkPages, chunk.getStartingPos(), selected));
    }

    /**
     * Keys drawn below a bound: as strings {@code key-n}, and as numbers, the same ones or drawn apart.
     */
    private record RandomKeys(List<Slice> strings, List<Long> longs)
    {
        static RandomKeys draw(SplittableRandom random, int count, int bound, Optional<LongSupplier> otherNumbers)
        {
            List<Slice> strings = new ArrayList<>();
            List<Long> longs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                long n = random.nextInt(bound);
                strings.add(utf8Slice("key-" + n));
                longs.add(otherNumbers.map(LongSupplier::getAsLong).orElse(n));
            }
            return new RandomKeys(strings, longs);
        }
    }
}
