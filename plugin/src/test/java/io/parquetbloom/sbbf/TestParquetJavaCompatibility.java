package io.parquetbloom.sbbf;

import io.parquetbloom.hash.XxHash64;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.format.BloomFilterAlgorithm;
import org.apache.parquet.format.BloomFilterCompression;
import org.apache.parquet.format.BloomFilterHash;
import org.apache.parquet.format.SplitBlockAlgorithm;
import org.apache.parquet.format.Uncompressed;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.XxHash;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bit-exact agreement with parquet-java's {@link BlockSplitBloomFilter}: same hashes, same bitsets, same answers.
 */
final class TestParquetJavaCompatibility
{
    private static final int VALUES = 100_000;

    enum PhysicalType
    {
        INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
    }

    /**
     * One random value, hashed by parquet-java and by us.
     */
    private record HashPair(long parquetJava, long ours) {}

    private static HashPair randomValue(PhysicalType type, SplittableRandom random, BlockSplitBloomFilter reference)
    {
        return switch (type) {
            case INT32 -> {
                int value = random.nextInt();
                yield new HashPair(reference.hash(value), XxHash64.hashInt(value));
            }
            case INT64 -> {
                long value = random.nextLong();
                yield new HashPair(reference.hash(value), XxHash64.hashLong(value));
            }
            case FLOAT -> {
                float value = Float.intBitsToFloat(random.nextInt());
                yield new HashPair(reference.hash(value), XxHash64.hashInt(Float.floatToRawIntBits(value)));
            }
            case DOUBLE -> {
                double value = random.nextDouble(-1e12, 1e12);
                yield new HashPair(reference.hash(value), XxHash64.hashLong(Double.doubleToRawLongBits(value)));
            }
            case BYTE_ARRAY -> {
                byte[] value = new byte[random.nextInt(0, 64)];
                random.nextBytes(value);
                yield new HashPair(reference.hash(Binary.fromConstantByteArray(value)), XxHash64.hashBytes(value));
            }
            case FIXED_LEN_BYTE_ARRAY -> {
                byte[] value = new byte[16];
                random.nextBytes(value);
                yield new HashPair(reference.hash(Binary.fromConstantByteArray(value)), XxHash64.hashBytes(value));
            }
        };
    }

    @ParameterizedTest
    @EnumSource(PhysicalType.class)
    void sameHashesBitsetsAndAnswers(PhysicalType type)
            throws IOException
    {
        for (int numBytes : new int[] {32, 32 * 1024, 1024 * 1024}) {
            SplittableRandom random = new SplittableRandom(numBytes * 31L + type.ordinal());
            BlockSplitBloomFilter reference = new BlockSplitBloomFilter(numBytes);
            SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(numBytes);
            long[] inserted = new long[VALUES];
            for (int i = 0; i < VALUES; i++) {
                HashPair pair = randomValue(type, random, reference);
                assertThat(pair.ours()).as("hash of value %d", i).isEqualTo(pair.parquetJava());
                reference.insertHash(pair.parquetJava());
                builder.insert(pair.ours());
                inserted[i] = pair.ours();
            }
            SplitBlockBloomFilter ours = builder.build();

            ByteArrayOutputStream referenceBitset = new ByteArrayOutputStream();
            reference.writeTo(referenceBitset);
            assertThat(ours.bitset()).isEqualTo(referenceBitset.toByteArray());

            for (BlockProbe probe : probes()) {
                SplitBlockBloomFilter filter = ours.withProbe(probe);
                for (long hash : inserted) {
                    assertThat(filter.mightContain(hash)).isTrue();
                }
                for (int i = 0; i < VALUES; i++) {
                    long other = randomValue(type, random, reference).ours();
                    assertThat(filter.mightContain(other)).isEqualTo(reference.findHash(other));
                }
            }
        }
    }

    @Test
    void headersParquetFormatWritesParseWithTheirLength()
    {
        for (int numBytes : new int[] {32, 64, 1024, 2048, 32 * 1024, 1024 * 1024, 96, 1_000_032, SplitBlockBloomFilter.MAX_BYTES}) {
            byte[] header = TestingBloomFilters.header(numBytes);
            byte[] withBitset = Arrays.copyOf(header, header.length + 64);
            assertThat(BloomFilterHeader.parse(withBitset, 0, withBitset.length))
                    .as("header for %d bytes", numBytes)
                    .isEqualTo(new BloomFilterHeader.ParseResult.Parsed(new BloomFilterHeader(numBytes, header.length)));
        }
        // the header's length varies with numBytes: never assume 16
        assertThat(TestingBloomFilters.header(32)).hasSize(15);
        assertThat(TestingBloomFilters.header(1024)).hasSize(16);
        assertThat(TestingBloomFilters.header(2048)).hasSize(16);
        assertThat(TestingBloomFilters.header(1024 * 1024)).hasSize(18);
    }

    @Test
    void serializedFilterReadsBackAsParquetJavaWroteIt()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(7);
        BlockSplitBloomFilter reference = new BlockSplitBloomFilter(4096);
        LongSupplier values = random::nextLong;
        for (int i = 0; i < 2000; i++) {
            reference.insertHash(reference.hash(values.getAsLong()));
        }
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        Util.writeBloomFilterHeader(new org.apache.parquet.format.BloomFilterHeader(
                reference.getBitsetSize(),
                BloomFilterAlgorithm.BLOCK(new SplitBlockAlgorithm()),
                BloomFilterHash.XXHASH(new XxHash()),
                BloomFilterCompression.UNCOMPRESSED(new Uncompressed())), file);
        reference.writeTo(file);
        byte[] bytes = file.toByteArray();

        SplitBlockBloomFilterReader.Result result = SplitBlockBloomFilterReader.read(bytes, 0, bytes.length, OptionalInt.of(bytes.length));
        assertThat(result).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
        SplitBlockBloomFilter filter = ((SplitBlockBloomFilterReader.Result.Usable) result).filter();
        assertThat(TestingBloomFilters.serialize(filter)).isEqualTo(bytes);
    }

    static BlockProbe[] probes()
    {
        return new BlockProbe[] {BlockProbes.scalar(), BlockProbes.vector()};
    }
}
