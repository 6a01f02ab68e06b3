package io.parquetbloom.sbbf;

import io.airlift.slice.Slices;
import io.parquetbloom.hash.ParquetValueHasher;
import io.parquetbloom.hash.ValueHash;
import io.parquetbloom.testing.FooterBloomFilters;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters written by other implementations, from apache/parquet-testing (testdata/ at the repository root).
 */
final class TestExternalBloomFilterFiles
{
    static final Path DATA = Path.of(System.getProperty("parquetbloom.testdata",
            Path.of("..", "testdata", "parquet-testing", "data").toString()));

    private static final List<String> INSERTED = List.of("hello", "parquet", "bloom", "filter");
    private static final List<String> NOT_INSERTED = List.of("world", "Hello", "parquet ", "arrow", "trino", "filters", "", "bloo", "hello!", "PARQUET",
            "split", "block", "xxhash", "murmur3", "row", "group", "column", "page", "footer", "uuid");

    @Test
    void xxhashTestVector()
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(DATA.resolve("bloom_filter.xxhash.bin"));
        assertThat(bytes).hasSize(16 + 1024);
        SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(bytes, 0, bytes.length, OptionalInt.of(bytes.length));
        assertThat(result).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
        SplitBlockBloomFilter filter = ((SplitBlockBloomFilterReader.Result.Usable) result).filter();
        assertThat(filter.sizeInBytes()).isEqualTo(1024);

        // exactly the four words: inserting them into an empty filter of the same size gives the same bytes
        SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(1024);
        for (String word : INSERTED) {
            builder.insert(io.parquetbloom.hash.XxHash64.hashBytes(word.getBytes(UTF_8)));
        }
        assertThat(TestingBloomFilters.serialize(builder.build())).isEqualTo(bytes);
        assertThat(filter.bitsSet()).isEqualTo(4 * 8);

        BlockSplitBloomFilter reference = new BlockSplitBloomFilter(Arrays.copyOfRange(bytes, 16, bytes.length));
        for (BlockProbe probe : TestParquetJavaCompatibility.probes()) {
            for (String word : INSERTED) {
                assertThat(mightContain(filter.withProbe(probe), word)).as(word).isTrue();
            }
            for (String word : NOT_INSERTED) {
                boolean expected = reference.findHash(reference.hash(Binary.fromString(word)));
                assertThat(mightContain(filter.withProbe(probe), word)).as(word).isEqualTo(expected).isFalse();
            }
        }
    }

    @Test
    void deprecatedMurmur3FilterIsUnusable()
            throws IOException
    {
        byte[] bytes = Files.readAllBytes(DATA.resolve("bloom_filter.bin"));
        SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(bytes, 0, bytes.length, OptionalInt.empty());
        assertThat(result).isInstanceOf(SplitBlockBloomFilterReader.Result.Unusable.class);
    }

    @Test
    void filtersFoundThroughFooterWithoutLength()
            throws IOException
    {
        verifyFooterFilters("data_index_bloom_encoding_stats.parquet", false, 192);
    }

    @Test
    void filtersFoundThroughFooterWithLength()
            throws IOException
    {
        verifyFooterFilters("data_index_bloom_encoding_with_length.parquet", true, 253);
    }

    private static void verifyFooterFilters(String name, boolean hasLength, long expectedOffset)
            throws IOException
    {
        Path file = DATA.resolve(name);
        List<FooterBloomFilters.ChunkFilter> filters = FooterBloomFilters.readFilters(Files.readAllBytes(file));
        assertThat(filters).hasSize(1);
        FooterBloomFilters.ChunkFilter chunk = filters.getFirst();
        assertThat(chunk.offset()).isEqualTo(expectedOffset);
        assertThat(chunk.declaredLength().isPresent()).isEqualTo(hasLength);
        if (hasLength) {
            assertThat(chunk.declaredLength().getAsInt()).isEqualTo(2064);
        }
        assertThat(chunk.result()).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
        SplitBlockBloomFilter filter = ((SplitBlockBloomFilterReader.Result.Usable) chunk.result()).filter();

        Configuration configuration = new Configuration(false);
        PrimitiveType column;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), configuration))) {
            column = reader.getFooter().getFileMetaData().getSchema().getColumns().getFirst().getPrimitiveType();
        }
        int values = 0;
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri())).withConf(configuration).build()) {
            for (Group group = reader.read(); group != null; group = reader.read()) {
                if (group.getFieldRepetitionCount(0) == 0) {
                    continue;
                }
                String value = group.getString(0, 0);
                ValueHash hash = ParquetValueHasher.hash(VARCHAR, Slices.utf8Slice(value), column);
                assertThat(hash).isInstanceOf(ValueHash.Hashes.class);
                assertThat(filter.mightContainAny(((ValueHash.Hashes) hash).hashes())).as(value).isTrue();
                values++;
            }
        }
        assertThat(values).isPositive();
        assertThat(mightContain(filter, "certainly-not-a-stored-value-1234567890")).isFalse();
    }

    private static boolean mightContain(SplitBlockBloomFilter filter, String word)
    {
        return filter.mightContain(io.parquetbloom.hash.XxHash64.hashBytes(word.getBytes(UTF_8)));
    }
}
