package io.parquetbloom.connector.parquet;

import io.airlift.units.DataSize;
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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.airlift.slice.Slices.utf8Slice;
import static io.trino.parquet.ParquetTypeUtils.constructField;
import static io.trino.parquet.ParquetTypeUtils.getColumnIO;
import static io.trino.parquet.ParquetTypeUtils.getDescriptors;
import static io.trino.parquet.ParquetTypeUtils.lookupColumnByName;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the page-read probe holds: never a read larger than the reader's buffer size, never more than its window of
 * bytes, and a row group larger than the window read by its reader as it decodes, with the same rows found.
 */
final class TestRowMatchProbe
{
    private static final int ROWS_PER_ROW_GROUP = 2_000;
    private static final int BUFFER_SIZE = 1_024;
    private static final ParquetReaderOptions OPTIONS = ParquetReaderOptions.builder()
            .withMaxBufferSize(DataSize.ofBytes(BUFFER_SIZE))
            .withMaxMergeDistance(DataSize.ofBytes(0))
            .build();

    private final byte[] file = TestingParquetFiles.devices(3, ROWS_PER_ROW_GROUP);

    @Test
    void rowGroupsWithinTheWindowAreHeldInPiecesOfTheBufferSize()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        Probe probe = probe(store, Long.MAX_VALUE, "device-2500");
        assertThat(probe.matched()).containsExactly(List.of(), List.of(500L), List.of());
        // all three key chunks held, as one batch, in reads of at most the buffer size
        long keyBytes = probe.keyChunkBytes();
        assertThat(keyBytes).isGreaterThan(3L * BUFFER_SIZE);
        assertThat(probe.held()).containsOnly(keyBytes);
        assertThat(store.reads()).allSatisfy(read -> assertThat(readLength(read)).isLessThanOrEqualTo(BUFFER_SIZE));
        assertThat(store.reads().stream().mapToLong(TestRowMatchProbe::readLength).sum()).isEqualTo(keyBytes);
    }

    @Test
    void aRowGroupLargerThanTheWindowIsNotHeld()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(file);
        Probe probe = probe(store, 2 * BUFFER_SIZE, "device-2500");
        // every row group's key chunk is over the window: none is held, each is read as the reader decodes it
        assertThat(probe.matched()).containsExactly(List.of(), List.of(500L), List.of());
        assertThat(probe.held()).containsOnly(0L);
        assertThat(store.reads()).allSatisfy(read -> assertThat(readLength(read)).isLessThanOrEqualTo(BUFFER_SIZE));
    }

    private Probe probe(InMemoryObjectStore store, long windowBytes, String key)
            throws IOException
    {
        S3RequestStats stats = new S3RequestStats();
        InMemoryObjectStore footerStore = new InMemoryObjectStore(file);
        ParquetMetadata footer = MetadataReader.readFooter(new S3ParquetDataSource(footerStore, footerStore.object(), stats, OPTIONS), Optional.empty());
        MessageType schema = footer.getFileMetaData().getSchema();
        MessageColumnIO io = getColumnIO(schema, schema);
        PrimitiveField field = (PrimitiveField) constructField(VARCHAR, lookupColumnByName(io, "deviceId")).orElseThrow();
        RowMatchProbe.ProbeColumn column = new RowMatchProbe.ProbeColumn(new Column("deviceId", field), field, new DomainValueMatcher(VARCHAR, Domain.singleValue(VARCHAR, utf8Slice(key))));
        Map<List<String>, ColumnDescriptor> descriptors = getDescriptors(schema, schema);
        List<RowMatchProbe.Target> targets = new ArrayList<>();
        long keyChunkBytes = 0;
        List<BlockMetadata> blocks = footer.getBlocks();
        for (int rowGroup = 0; rowGroup < blocks.size(); rowGroup++) {
            BlockMetadata block = blocks.get(rowGroup);
            RowGroupInfo info = new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, new ParquetDataSourceId("file"), descriptors), block.fileRowCountOffset(), Optional.empty());
            keyChunkBytes += info.prunedBlockMetadata().getColumnChunkMetaData(field.getDescriptor()).getTotalSize();
            targets.add(new RowMatchProbe.Target(rowGroup, info, List.of(column), Optional.empty(), List.of()));
        }
        List<List<Long>> matched = new ArrayList<>();
        List<Long> held = new ArrayList<>();
        new RowMatchProbe(store, store.object(), stats, Runnable::run, OPTIONS, Optional.empty(), windowBytes).probe(targets, (probed, bytes) -> {
            matched.add(Arrays.stream(probed.matchedRows()).boxed().toList());
            held.add(bytes.bytes());
        });
        return new Probe(matched, held, keyChunkBytes);
    }

    private static long readLength(String read)
    {
        return Long.parseLong(read.substring(read.indexOf('+') + 1));
    }

    private record Probe(List<List<Long>> matched, List<Long> held, long keyChunkBytes) {}
}
