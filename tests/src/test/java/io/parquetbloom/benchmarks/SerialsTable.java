package io.parquetbloom.benchmarks;

import io.airlift.slice.Slices;
import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.trino.spi.type.Type;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * {@code telemetry.serials}: a key of medium cardinality written by Trino 483's own Parquet writer as a Hive table with
 * {@code parquet_bloom_filter_columns = ARRAY['serial']} would be (ZSTD): each row group holds
 * {@value #SERIALS_PER_ROW_GROUP} distinct serials, repeated over its rows, so the writer dictionary-encodes every
 * chunk and, as it does for such chunks, writes no bloom filter. Serials are spread over row groups (row group
 * {@code g} of {@code G} holds {@code 2 (g + G j)}), so every row group's min/max spans nearly the whole key range:
 * only dictionaries can skip row groups. Even serials are present in exactly one row group, odd ones in none.
 */
final class SerialsTable
{
    static final int SERIALS_PER_ROW_GROUP = 2_000;
    private static final List<String> NAMES = List.of("serial", "seq", "reading");
    private static final List<Type> TYPES = List.of(VARCHAR, BIGINT, DOUBLE);

    private final int rowGroups;

    private SerialsTable(int rowGroups)
    {
        this.rowGroups = rowGroups;
    }

    static SerialsTable write(S3Client s3, String bucket, String folder, int files, int rowGroupsPerFile, int rowsPerRowGroup, Path work)
    {
        SerialsTable table = new SerialsTable(files * rowGroupsPerFile);
        try {
            Files.createDirectories(work);
            for (int file = 0; file < files; file++) {
                Path local = work.resolve("serials-%d.parquet".formatted(file));
                try (OutputStream output = new BufferedOutputStream(Files.newOutputStream(local), 1 << 20)) {
                    table.writeFile(output, file, rowGroupsPerFile, rowsPerRowGroup);
                }
                String key = folder + "part-%05d.parquet".formatted(file);
                s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromFile(local));
                Files.delete(local);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return table;
    }

    private void writeFile(OutputStream output, int file, int rowGroupsPerFile, int rowsPerRowGroup)
    {
        ParquetFixtureWriter.Options options = ParquetFixtureWriter.Options.rowsPerRowGroup(rowsPerRowGroup)
                .withCompression(CompressionCodecName.ZSTD)
                .withBloomFilter("serial", 0, 0.05);
        SplittableRandom random = new SplittableRandom(file);
        try (ParquetFixtureWriter.TrinoWriter writer = ParquetFixtureWriter.trino(output, TYPES, NAMES, options)) {
            for (int rowGroup = file * rowGroupsPerFile; rowGroup < (file + 1) * rowGroupsPerFile; rowGroup++) {
                for (int row = 0; row < rowsPerRowGroup; row++) {
                    long serial = serial(rowGroup, random.nextInt(SERIALS_PER_ROW_GROUP));
                    writer.write(Slices.utf8Slice(name(serial)), (long) rowGroup * rowsPerRowGroup + row, random.nextDouble() * 100);
                }
            }
        }
    }

    private long serial(int rowGroup, int index)
    {
        return 2L * (rowGroup + (long) rowGroups * index);
    }

    private static String name(long serial)
    {
        return "SN-%010d".formatted(serial);
    }

    /**
     * A serial in exactly one row group, a different one for each key index (for a table of fewer than 2^31 serials).
     */
    String present(int key)
    {
        SplittableRandom random = new SplittableRandom(key);
        return name(serial(random.nextInt(rowGroups), random.nextInt(SERIALS_PER_ROW_GROUP)));
    }

    /**
     * A serial inside every row group's min/max that no row group holds.
     */
    String absent(int key)
    {
        SplittableRandom random = new SplittableRandom(key);
        return name(serial(random.nextInt(rowGroups), random.nextInt(SERIALS_PER_ROW_GROUP)) + 1);
    }
}
