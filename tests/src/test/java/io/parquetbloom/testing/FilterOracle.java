package io.parquetbloom.testing;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.PrimitiveComparator;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How many row groups of a table a lookup must keep, decided independently of the plugin: parquet-java reads each
 * file's statistics and bloom filters, and a row group is kept when some value lies within its column's min/max
 * and its filter (if any) answers "maybe". With statistics and bloom filter pruning on, the connector must keep
 * exactly these: fewer would lose rows, more would be pruning it failed to do.
 */
public final class FilterOracle
{
    private final List<Path> files;

    private FilterOracle(List<Path> files)
    {
        this.files = List.copyOf(files);
    }

    /**
     * The table's {@code *.parquet} objects under {@code prefix}, downloaded once.
     */
    public static FilterOracle ofTable(S3Client s3, String bucket, String prefix, Path workDirectory)
    {
        List<Path> files = new ArrayList<>();
        try {
            Path directory = Files.createTempDirectory(workDirectory, "oracle");
            for (S3Object object : s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents()) {
                if (object.key().endsWith(".parquet") && !object.key().contains("/_") && !object.key().contains("/.")) {
                    Path file = directory.resolve("file-%d.parquet".formatted(files.size()));
                    Files.write(file, s3.getObjectAsBytes(request -> request.bucket(bucket).key(object.key())).asByteArray());
                    files.add(file);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FilterOracle(files);
    }

    /**
     * @param values the values in the column's physical representation: {@code Binary}, {@code Long},
     * {@code Integer}, {@code Float} or {@code Double}
     */
    public long rowGroupsKept(String column, Object... values)
    {
        long kept = 0;
        for (Path path : files) {
            try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
                for (BlockMetaData block : reader.getFooter().getBlocks()) {
                    ColumnChunkMetaData chunk = block.getColumns().stream()
                            .filter(candidate -> candidate.getPath().toDotString().toLowerCase(Locale.ROOT).equals(column))
                            .findFirst()
                            .orElseThrow(() -> new IllegalArgumentException("no column " + column + " in " + path));
                    BloomFilter filter = reader.readBloomFilter(chunk);
                    for (Object value : values) {
                        if (statisticsAllow(chunk.getStatistics(), value) && (filter == null || filter.findHash(filter.hash(value)))) {
                            kept++;
                            break;
                        }
                    }
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return kept;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean statisticsAllow(Statistics statistics, Object value)
    {
        if (statistics == null || statistics.isEmpty()) {
            return true;
        }
        if (!statistics.hasNonNullValue()) {
            // only NULLs: no value equals
            return statistics.getNumNulls() == 0;
        }
        PrimitiveComparator comparator = statistics.comparator();
        return comparator.compare(statistics.genericGetMin(), value) <= 0 && comparator.compare(value, statistics.genericGetMax()) <= 0;
    }
}
