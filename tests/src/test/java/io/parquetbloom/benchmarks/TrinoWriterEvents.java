package io.parquetbloom.benchmarks;

import io.airlift.slice.Slices;
import io.airlift.units.DataSize;
import io.parquetbloom.demo.DemoDataset;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.trino.spi.type.Type;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

    @Override
    public DemoDataset.EventFileWriter create(Path file, DemoDataset.Scale scale)
            throws IOException
    {
        OutputStream output = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        ParquetFixtureWriter.TrinoWriter writer = ParquetFixtureWriter.trino(output, TYPES, NAMES, ParquetFixtureWriter.Options.rowsPerRowGroup(scale.rowsPerRowGroup())
                .withCompression(CompressionCodecName.ZSTD)
                // Trino sizes its filters (5% FPP)
                .withBloomFilter("device_id", 0, 0.05)
                .withBloomFilter("trace_id", 0, 0.05)
                // Trino picks the smallest of 5 halvings of this size that holds the chunk's values at 5% FPP:
                // from 512 KiB that is 32 KiB for 25,000 values, the filters reference.md measured Hive with
                .withMaxBloomFilterSize(DataSize.of(512, KILOBYTE)));
        return new DemoDataset.EventFileWriter()
        {
            @Override
            public void write(DemoDataset.Event event)
            {
                writer.write(Slices.utf8Slice(event.deviceId()), Slices.utf8Slice(event.traceId()), event.voltage(), event.eventTimestampMicros());
            }

            @Override
            public void close()
            {
                writer.close();
            }
        };
    }
}
