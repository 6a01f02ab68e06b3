package io.parquetbloom.metadata;

import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.sbbf.BloomFilterHeader;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import io.parquetbloom.sbbf.TestingBloomFilters;
import io.parquetbloom.testing.FooterBloomFilters;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.connector.SchemaTableName;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters located through the footer: without {@code bloom_filter_length} a header damaged to a smaller size must not
 * be believed; columns named in mixed case meet their filters whoever asks.
 */
final class TestBloomFilterLoading
{
    private static final SchemaTableName TABLE = new SchemaTableName("schema", "table");
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
        byte[] shrunk = TestingBloomFilters.header(original.numBytes() / 2);
        assertThat(shrunk.length).isEqualTo(original.headerLength());
        System.arraycopy(shrunk, 0, file, (int) damagedOffset, shrunk.length);

        // parsed from the tail read, and fetched by a GET of their own
        for (int tailSize : new int[] {1 << 20, 64}) {
            InMemoryObjectStore store = new InMemoryObjectStore(file);
            ParquetFileMetadata metadata = FooterReader.readFooter(store, store.object(), tailSize, new S3RequestStats());
            List<BloomFilterKey> keys = new ArrayList<>();
            for (int rowGroup = 0; rowGroup < ROW_GROUPS; rowGroup++) {
                keys.add(new BloomFilterKey(rowGroup, List.of("deviceid")));
                keys.add(new BloomFilterKey(rowGroup, List.of("seq")));
            }
            Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> results = BloomFilterLoader.load(store, metadata, keys, new S3RequestStats()).results();
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
    void nearbyFiltersOutsideTheTailComeInOneGet()
    {
        byte[] bytes = writeFile();
        InMemoryObjectStore store = new InMemoryObjectStore(bytes);
        // a tail of 64 bytes holds no filter
        ParquetFileMetadata file = FooterReader.readFooter(store, store.object(), 64, new S3RequestStats());
        List<BloomFilterKey> keys = new ArrayList<>();
        for (int rowGroup = 0; rowGroup < ROW_GROUPS; rowGroup++) {
            keys.add(new BloomFilterKey(rowGroup, List.of("deviceid")));
            keys.add(new BloomFilterKey(rowGroup, List.of("seq")));
        }
        S3RequestStats stats = new S3RequestStats();
        LoadedFilters loaded = BloomFilterLoader.load(store, file, keys, stats);
        assertThat(loaded.results()).hasSize(keys.size()).allSatisfy((_, result) -> assertThat(result).isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class));
        // written back to back before the footer: one GET spanning exactly the filters asked for
        assertThat(stats.getRequests()).isEqualTo(1);
        long sum = loaded.results().values().stream().mapToLong(result -> ((SplitBlockBloomFilterReader.Result.Usable) result).totalLength()).sum();
        assertThat(loaded.bytesRead()).isEqualTo(stats.getBytes()).isEqualTo(sum);

        // one filter: one GET of exactly its bytes
        S3RequestStats single = new S3RequestStats();
        LoadedFilters one = BloomFilterLoader.load(store, file, List.of(new BloomFilterKey(2, List.of("deviceid"))), single);
        assertThat(single.getRequests()).isEqualTo(1);
        assertThat(one.bytesRead()).isEqualTo(((SplitBlockBloomFilterReader.Result.Usable) one.results().values().iterator().next()).totalLength());
    }

    @Test
    void mixedCaseColumnsFindTheirFiltersInTheTail()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(writeFile());
        ParquetMetadataReader reader = TestingMetadata.create(store).reader();
        S3RequestStats requests = new S3RequestStats();
        ParquetFileMetadata file = reader.footer(FooterRequest.withAllFilters(store.object(), TABLE), new ReadStats(requests, new MetadataCacheStats()));
        assertThat(requests.getRequests()).isEqualTo(1);

        // trino-parquet names the column "deviceid"; the footer says "deviceId"
        MetadataCacheStats cacheStats = new MetadataCacheStats();
        Map<BloomFilterKey, SplitBlockBloomFilterReader.Result> filters = reader.filters(file, List.of(new BloomFilterKey(0, List.of("deviceid")), new BloomFilterKey(2, List.of("SEQ"))), new ReadStats(requests, cacheStats)).results();
        assertThat(filters.values()).hasSize(2).allMatch(SplitBlockBloomFilterReader.Result.Usable.class::isInstance);
        assertThat(cacheStats.filterHits()).isEqualTo(2);
        assertThat(cacheStats.filterMisses()).isZero();
        assertThat(requests.getRequests()).isEqualTo(1);
    }

    @Test
    void objectsListedWithoutEtagAreNeverCached()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(writeFile());
        S3ObjectInfo unversioned = new S3ObjectInfo(store.object().location(), store.object().size(), "");
        TestingMetadata metadata = TestingMetadata.create(store);
        S3RequestStats requests = new S3RequestStats();
        metadata.reader().footer(FooterRequest.footer(unversioned, TABLE), new ReadStats(requests, new MetadataCacheStats()));
        ParquetFileMetadata file = metadata.reader().footer(FooterRequest.footer(unversioned, TABLE), new ReadStats(requests, new MetadataCacheStats()));
        assertThat(requests.getRequests()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            MetadataCacheStats cacheStats = new MetadataCacheStats();
            // parsed from this read's tail, never from the cache
            assertThat(metadata.reader().filters(file, List.of(new BloomFilterKey(0, List.of("deviceid"))), new ReadStats(requests, cacheStats)).results().values())
                    .singleElement().isInstanceOf(SplitBlockBloomFilterReader.Result.Usable.class);
            assertThat(cacheStats.filterHits()).isZero();
        }
        assertThat(requests.getRequests()).isEqualTo(2);
        FileKey key = FileKey.of(unversioned);
        io.trino.spi.predicate.Domain domain = io.trino.spi.predicate.Domain.singleValue(io.trino.spi.type.BigintType.BIGINT, 7L);
        metadata.noMatchCache().recordNoMatch(key, 0, "seq", domain);
        assertThat(metadata.noMatchCache().knownNoMatch(key, 0, "seq", domain)).isFalse();
    }

    private static byte[] writeFile()
    {
        return TestingParquetFiles.devices(ROW_GROUPS, 100);
    }

    private static FileMetaData readFooter(byte[] file)
            throws IOException
    {
        return FooterBloomFilters.readFooter(file);
    }

    private static byte[] withoutFilterLengths(byte[] file)
    {
        return TestingParquetFiles.rewriteFooter(file, footer -> {
            for (RowGroup rowGroup : footer.getRow_groups()) {
                for (ColumnChunk chunk : rowGroup.getColumns()) {
                    assertThat(chunk.getMeta_data().isSetBloom_filter_offset()).isTrue();
                    chunk.getMeta_data().unsetBloom_filter_length();
                }
            }
        });
    }
}
