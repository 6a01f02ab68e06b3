package io.parquetbloom.health;

import io.parquetbloom.metadata.ReadStats;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.sbbf.BloomFilterMath;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingMetadata;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.connector.SchemaTableName;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The scanner against files whose filters and values are known: parquet-testing's files (parquet-java, with and
 * without {@code bloom_filter_length}) and files of our own builder.
 */
final class TestFilterHealthScanner
{
    private static final Path DATA = Path.of(System.getProperty("parquetbloom.testdata",
            Path.of("..", "testdata", "parquet-testing", "data").toString()));
    private static final Executor DIRECT = Runnable::run;

    @Test
    void externalFilesWithAndWithoutLength()
            throws IOException
    {
        for (boolean withLength : List.of(false, true)) {
            Path file = DATA.resolve(withLength ? "data_index_bloom_encoding_with_length.parquet" : "data_index_bloom_encoding_stats.parquet");
            TableHealth health = scan(Files.readAllBytes(file));
            assertThat(health.unreadableFiles()).isEmpty();
            assertThat(health.chunks()).hasSize(1);
            ChunkHealth chunk = health.chunks().getFirst();
            assertThat(chunk.status()).isEqualTo(new FilterStatus.Usable());
            assertThat(chunk.hasFilterLength()).isEqualTo(withLength);
            // the bitsets' sizes in the files' headers (the second file's bloom_filter_length is 2,064: header and bitset)
            long bytes = withLength ? 2048 : 1024;
            assertThat(chunk.filterBytes()).hasValue(bytes);
            assertThat(chunk.physicalType()).isEqualTo("BYTE_ARRAY");
            assertThat(chunk.logicalType()).isEqualTo(logicalType(file));
            // one written by parquet-mr, one by parquet-rs
            assertThat(chunk.createdBy()).hasValueSatisfying(createdBy -> assertThat(createdBy).matches("parquet-(mr|rs) version .*"));
            // a handful of values in thousands of bits: the occupancy counts them almost exactly
            long distinct = distinctValues(file);
            assertThat(chunk.distinctValues().getAsDouble()).isCloseTo(distinct, within(0.5));
            assertThat(chunk.falsePositiveRate().getAsDouble()).isEqualTo(BloomFilterMath.falsePositiveProbability(bytes, Math.round(chunk.distinctValues().getAsDouble())));

            ColumnHealth column = health.columns().getFirst();
            assertThat(column.rowGroupsWithUsableFilter()).isEqualTo(1);
            assertThat(column.filesWithoutFilter()).isZero();
            assertThat(column.distinctValuesPerPartition().getAsDouble()).isCloseTo(distinct, within(0.5));
        }
    }

    @Test
    void builderFilesMeasureTheirDistinctValues()
    {
        // parquet-java, 4 row groups of 1,000 rows: unique device ids and an ascending Seq, filters sized for 1,000
        TableHealth health = scan(TestingParquetFiles.devices(4, 1_000));
        assertThat(health.chunks()).hasSize(8);
        for (ChunkHealth chunk : health.chunks()) {
            assertThat(chunk.status()).isEqualTo(new FilterStatus.Usable());
            assertThat(chunk.distinctValues().getAsDouble()).isCloseTo(1_000, within(50.0));
            assertThat(chunk.bitsPerValue().getAsDouble()).isCloseTo(chunk.filterBytes().getAsLong() * 8.0 / chunk.distinctValues().getAsDouble(), within(1e-9));
        }
        assertThat(health.columns()).extracting(ColumnHealth::column).containsExactly("deviceId", "Seq");
        for (ColumnHealth column : health.columns()) {
            assertThat(column.rowGroups()).isEqualTo(4);
            assertThat(column.maxValuesPerRowGroup()).isEqualTo(1_000);
            // the union of the 4 filters holds 4,000 values
            assertThat(column.distinctValuesPerPartition().getAsDouble()).isCloseTo(4_000, within(200.0));
        }
        // Seq ascends: no row group's range meets another's
        assertThat(health.columns().get(1).minMaxOverlap()).hasValue(0.0);
    }

    @Test
    void unreadableFooterIsReportedNotThrown()
    {
        TableHealth health = scan("not a parquet file, only bytes".getBytes(StandardCharsets.UTF_8));
        assertThat(health.chunks()).isEmpty();
        assertThat(health.unreadableFiles()).singleElement().satisfies(file -> {
            assertThat(file.file()).isEqualTo("s3://bucket/table/file.parquet");
            assertThat(file.reason()).startsWith("cannot read footer: ");
        });
    }

    private static TableHealth scan(byte[] bytes)
    {
        InMemoryObjectStore store = new InMemoryObjectStore(bytes);
        TestingMetadata metadata = TestingMetadata.create(store);
        LakeTable table = new LakeTable(new SchemaTableName("s", "t"), new S3Location("bucket", "table/"), List.of(new LakeFile(store.object(), "data.parquet", Map.of(), Instant.EPOCH)), List.of());
        return new FilterHealthScanner(metadata.reader()).scan(table, DIRECT, true, new ReadStats());
    }

    private static Optional<String> logicalType(Path file)
            throws IOException
    {
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), new Configuration(false)))) {
            return Optional.ofNullable(reader.getFooter().getFileMetaData().getSchema().getColumns().getFirst().getPrimitiveType().getLogicalTypeAnnotation()).map(Object::toString);
        }
    }

    private static long distinctValues(Path file)
            throws IOException
    {
        Set<String> values = new HashSet<>();
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri())).withConf(new Configuration(false)).build()) {
            for (Group group = reader.read(); group != null; group = reader.read()) {
                if (group.getFieldRepetitionCount(0) > 0) {
                    values.add(group.getString(0, 0));
                }
            }
        }
        return values.size();
    }
}
