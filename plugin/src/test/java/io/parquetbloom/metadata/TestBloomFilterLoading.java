package io.parquetbloom.metadata;

import io.parquetbloom.connector.ParquetBloomConfig;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.BloomFilterHeader;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters located through the footer: without {@code bloom_filter_length} a header damaged to a smaller size must not
 * be believed; columns named in mixed case meet their filters whoever asks.
 */
final class TestBloomFilterLoading
{
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message m { required binary deviceId (STRING); required int64 Seq; }");
    private static final int ROW_GROUPS = 3;

    @Test
    void headerShrunkWithoutDeclaredLengthIsUnusable()
            throws IOException
    {
        byte[] file = withoutFilterLengths(writeFile());
        FileMetaData footer = readFooter(file);
        long damagedOffset = footer.getRow_groups().get(1).getColumns().get(0).getMeta_data().getBloom_filter_offset();
        BloomFilterHeader original = ((BloomFilterHeader.ParseResult.Parsed) BloomFilterHeader.parse(file, (int) damagedOffset, 64)).header();
        // half the bitset: still a valid power-of-two size, a header of the same length; only the extent can tell
        byte[] shrunk = BloomFilterHeader.serialize(original.numBytes() / 2);
        assertThat(shrunk.length).isEqualTo(original.headerLength());
        System.arraycopy(shrunk, 0, file, (int) damagedOffset, shrunk.length);

        // parsed from the tail read, and fetched by a GET of their own
        for (int tailSize : new int[] {1 << 20, 64}) {
            InMemoryStore store = new InMemoryStore(file);
            ParquetFileMetadata metadata = FooterReader.readFooter(store, store.object(), tailSize, new S3RequestStats());
            List<BloomFilterKey> keys = new ArrayList<>();
            for (int rowGroup = 0; rowGroup < ROW_GROUPS; rowGroup++) {
                keys.add(new BloomFilterKey(rowGroup, List.of("deviceid")));
                keys.add(new BloomFilterKey(rowGroup, List.of("seq")));
            }
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = BloomFilterLoader.load(store, metadata, keys, new S3RequestStats(), new long[1]);
            assertThat(results).hasSize(keys.size());
            for (BloomFilterKey key : keys) {
                SplitBlockBloomFilterReader.Result result = results.get(key);
                if (key.rowGroup() == 1 && key.path().equals(List.of("deviceid"))) {
                    assertThat(result).as("tail %d", tailSize).isInstanceOf(SplitBlockBloomFilterReader.Result.Unusable.class);
                    assertThat(((SplitBlockBloomFilterReader.Result.Unusable) result).reason()).contains("does not fill");
                }
                else {
                    assertThat(result).as("%s, tail %d", key, tailSize).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
                }
            }
        }
    }

    @Test
    void mixedCaseColumnsFindTheirFiltersInTheTail()
            throws IOException
    {
        InMemoryStore store = new InMemoryStore(writeFile());
        ParquetMetadataCache cache = new ParquetMetadataCache(store, new ParquetBloomConfig());
        S3RequestStats requests = new S3RequestStats();
        ParquetFileMetadata file = cache.footer(store.object(), "table", requests, new MetadataCacheStats());
        assertThat(requests.getRequests()).isEqualTo(1);

        // trino-parquet names the column "deviceid"; the footer says "deviceId"
        MetadataCacheStats cacheStats = new MetadataCacheStats();
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters = cache.filters(file, List.of(new BloomFilterKey(0, List.of("deviceid")), new BloomFilterKey(2, List.of("SEQ"))), requests, cacheStats, new long[1]);
        assertThat(filters.values()).hasSize(2).allMatch(SplitBlockBloomFilterReader.Result.Usable.class::isInstance);
        assertThat(cacheStats.filterHits()).isEqualTo(2);
        assertThat(cacheStats.filterMisses()).isZero();
        assertThat(requests.getRequests()).isEqualTo(1);
    }

    @Test
    void objectsListedWithoutEtagAreNeverCached()
            throws IOException
    {
        InMemoryStore store = new InMemoryStore(writeFile());
        S3ObjectInfo unversioned = new S3ObjectInfo(store.object().location(), store.object().size(), "");
        ParquetMetadataCache cache = new ParquetMetadataCache(store, new ParquetBloomConfig());
        S3RequestStats requests = new S3RequestStats();
        cache.footer(unversioned, "table", requests, new MetadataCacheStats());
        ParquetFileMetadata file = cache.footer(unversioned, "table", requests, new MetadataCacheStats());
        assertThat(requests.getRequests()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            MetadataCacheStats cacheStats = new MetadataCacheStats();
            // parsed from this read's tail, never from the cache
            assertThat(cache.filters(file, List.of(new BloomFilterKey(0, List.of("deviceid"))), requests, cacheStats, new long[1]).values())
                    .singleElement().isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
            assertThat(cacheStats.filterHits()).isZero();
        }
        assertThat(requests.getRequests()).isEqualTo(2);
        FileKey key = FileKey.of(unversioned);
        io.trino.spi.predicate.Domain domain = io.trino.spi.predicate.Domain.singleValue(io.trino.spi.type.BigintType.BIGINT, 7L);
        cache.recordNoMatch(key, 0, "seq", domain);
        assertThat(cache.knownNoMatch(key, 0, "seq", domain)).isFalse();
    }

    private static byte[] writeFile()
            throws IOException
    {
        Path path = Files.createTempFile("bloom-loading", ".parquet");
        Files.delete(path);
        ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(path))
                .withType(SCHEMA)
                .withConf(new Configuration(false))
                .withRowGroupRowCountLimit(100)
                .withDictionaryEncoding(false)
                .withBloomFilterEnabled("deviceId", true)
                .withBloomFilterNDV("deviceId", 1_000)
                .withBloomFilterEnabled("Seq", true)
                .withBloomFilterNDV("Seq", 1_000);
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = builder.build()) {
            for (int i = 0; i < 100 * ROW_GROUPS; i++) {
                writer.write(groups.newGroup().append("deviceId", "device-" + i).append("Seq", (long) i));
            }
        }
        byte[] bytes = Files.readAllBytes(path);
        Files.delete(path);
        return bytes;
    }

    private static FileMetaData readFooter(byte[] file)
            throws IOException
    {
        int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return Util.readFileMetaData(new ByteArrayInputStream(file, file.length - 8 - footerLength, footerLength));
    }

    private static byte[] withoutFilterLengths(byte[] file)
            throws IOException
    {
        FileMetaData footer = readFooter(file);
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                assertThat(chunk.getMeta_data().isSetBloom_filter_offset()).isTrue();
                chunk.getMeta_data().unsetBloom_filter_length();
            }
        }
        int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        ByteArrayOutputStream newFooter = new ByteArrayOutputStream();
        Util.writeFileMetaData(footer, newFooter);
        ByteArrayOutputStream result = new ByteArrayOutputStream();
        result.write(file, 0, file.length - 8 - footerLength);
        newFooter.writeTo(result);
        result.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newFooter.size()).array());
        result.write("PAR1".getBytes(US_ASCII));
        return result.toByteArray();
    }

    /**
     * One object served from memory; every read is a counted GET.
     */
    private static final class InMemoryStore
            extends S3ObjectStore
    {
        private final byte[] bytes;

        InMemoryStore(byte[] bytes)
        {
            super(S3Client.builder()
                    .region(Region.US_EAST_1)
                    .endpointOverride(URI.create("http://127.0.0.1:9"))
                    .credentialsProvider(AnonymousCredentialsProvider.create())
                    .build());
            this.bytes = bytes;
        }

        S3ObjectInfo object()
        {
            return new S3ObjectInfo(new S3Location("bucket", "table/file.parquet"), bytes.length, "etag-1");
        }

        @Override
        public byte[] read(S3ObjectInfo object, long position, int length, S3RequestStats stats)
        {
            stats.recordGet(length);
            return Arrays.copyOfRange(bytes, (int) position, (int) position + length);
        }
    }
}
