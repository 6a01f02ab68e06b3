package io.parquetbloom.benchmarks;

import io.airlift.slice.Slices;
import io.airlift.units.DataSize;
import io.parquetbloom.demo.DemoDataset;
import io.trino.parquet.writer.ParquetSchemaConverter;
import io.trino.parquet.writer.ParquetWriter;
import io.trino.parquet.writer.ParquetWriterOptions;
import io.trino.spi.Page;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.Type;
import org.apache.parquet.format.CompressionCodec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.airlift.units.DataSize.Unit.KILOBYTE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * The benchmark's events written by Trino 483's own Parquet writer, as a Hive or Iceberg table with
 * {@code parquet_bloom_filter_columns = ARRAY['device_id', 'trace_id']} would be: ZSTD (Trino's default codec), bloom
 * filters at Trino's default 5% FPP (32 KiB for a 25,000-row group), no page indexes. This is the shape of data ../shared/docs/reference.md measured
 * Hive on, so Hive's GET counts here can be compared with it.
 */
final class TrinoWriterEvents
        implements DemoDataset.EventFileWriterFactory
{
    private static final List<String> NAMES = List.of("device_id", "trace_id", "voltage", "event_timestamp");
    private static final List<Type> TYPES = List.of(VARCHAR, VARCHAR, DOUBLE, TIMESTAMP_MICROS);
    private static final int PAGE_ROWS = 1_000;

    @Override
    public DemoDataset.EventFileWriter create(Path file, DemoDataset.Scale scale)
            throws IOException
    {
        ParquetSchemaConverter schema = new ParquetSchemaConverter(TYPES, NAMES, false, false);
        OutputStream output = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        ParquetWriter writer = new ParquetWriter(
                output,
                schema.getMessageType(),
                schema.getPrimitiveTypes(),
                ParquetWriterOptions.builder()
                        .setBloomFilterColumns(Set.of("device_id", "trace_id"))
                        .setMaxRowGroupRowCount(scale.rowsPerRowGroup())
                        // Trino picks the smallest of 5 halvings of this size that holds the chunk's values at 5% FPP:
                        // from 512 KiB that is 32 KiB for 25,000 values, the filters reference.md measured Hive with
                        .setMaxBloomFilterSize(DataSize.of(512, KILOBYTE))
                        .build(),
                CompressionCodec.ZSTD,
                "trino-483",
                Optional.empty(),
                Optional.empty());
        return new DemoDataset.EventFileWriter()
        {
            private BlockBuilder[] builders = newBuilders();
            private int rows;

            @Override
            public void write(DemoDataset.Event event)
                    throws IOException
            {
                VARCHAR.writeSlice(builders[0], Slices.utf8Slice(event.deviceId()));
                VARCHAR.writeSlice(builders[1], Slices.utf8Slice(event.traceId()));
                DOUBLE.writeDouble(builders[2], event.voltage());
                TIMESTAMP_MICROS.writeLong(builders[3], event.eventTimestampMicros());
                if (++rows == PAGE_ROWS) {
                    flush();
                }
            }

            @Override
            public void close()
                    throws IOException
            {
                flush();
                writer.close();
            }

            private void flush()
                    throws IOException
            {
                if (rows == 0) {
                    return;
                }
                writer.write(new Page(rows, builders[0].build(), builders[1].build(), builders[2].build(), builders[3].build()));
                builders = newBuilders();
                rows = 0;
            }
        };
    }

    private static BlockBuilder[] newBuilders()
    {
        return TYPES.stream().map(type -> type.createBlockBuilder(null, PAGE_ROWS)).toArray(BlockBuilder[]::new);
    }
}
