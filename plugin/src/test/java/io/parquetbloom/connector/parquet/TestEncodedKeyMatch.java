package io.parquetbloom.connector.parquet;

import io.airlift.slice.Slice;
import io.parquetbloom.pruning.DomainValueMatcher;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

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
            List<Slice> strings = new ArrayList<>();
            List<Long> longs = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                // a fifth absent from the file
                long n = random.nextInt(distinct + distinct / 4 + 1);
                strings.add(utf8Slice("key-" + n));
                longs.add(trial % 2 == 0 ? n : random.nextInt(120) - 60);
            }
            encoded += compare(file, "key", VARCHAR, Domain.create(ValueSet.copyOf(VARCHAR, strings), nullAllowed));
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
        PrimitiveField field = field(file, column, type);
        DomainValueMatcher matcher = new DomainValueMatcher(type, domain);
        Optional<EncodedKeyMatch> encoded = EncodedKeyMatch.of(field, matcher);
        assertThat(encoded).as("%s as %s", column, type).isPresent();
        List<RowMatchProbe.Probed> onPages = probe(file, new RowMatchProbe.ProbeColumn(new Column(column, field), field, matcher, encoded));
        List<RowMatchProbe.Probed> decoded = probe(file, new RowMatchProbe.ProbeColumn(new Column(column, field), field, matcher, Optional.empty()));
        int matchedOnPages = 0;
        for (int rowGroup = 0; rowGroup < decoded.size(); rowGroup++) {
            assertThat(decoded.get(rowGroup).how()).isEqualTo(RowMatchProbe.ProbeKind.DECODED);
            assertThat(onPages.get(rowGroup).matchedRows()).as("%s as %s in %s, row group %s", column, type, domain, rowGroup).containsExactly(decoded.get(rowGroup).matchedRows());
            assertThat(onPages.get(rowGroup).columnMatched()).containsExactly(decoded.get(rowGroup).columnMatched());
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

    private static List<RowMatchProbe.Probed> probe(byte[] file, RowMatchProbe.ProbeColumn column)
            throws IOException
    {
        ParquetMetadata footer = footer(file);
        MessageType schema = footer.getFileMetaData().getSchema();
        Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(schema, schema);
        List<RowMatchProbe.Target> targets = new ArrayList<>();
        List<BlockMetadata> blocks = footer.getBlocks();
        for (int rowGroup = 0; rowGroup < blocks.size(); rowGroup++) {
            BlockMetadata block = blocks.get(rowGroup);
            RowGroupInfo info = new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, new ParquetDataSourceId("file"), descriptors), block.fileRowCountOffset(), Optional.empty());
            targets.add(new RowMatchProbe.Target(rowGroup, info, List.of(column), Optional.empty(), List.of()));
        }
        List<RowMatchProbe.Probed> probed = new ArrayList<>();
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        new RowMatchProbe(store, store.object(), new S3RequestStats(), Runnable::run, OPTIONS, Optional.empty(), Long.MAX_VALUE).probe(targets, (result, bytes) -> probed.add(result));
        return probed;
    }
}
