package io.parquetbloom.health;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import static java.util.Objects.requireNonNull;

/**
 * The same filter spelled for each writer that makes them. Writers size with the classic Bloom formula
 * ({@code -ln p / ln^2 2} bits per value), which under-sizes a Split Block Bloom Filter: the rate given to them is
 * the classic rate of the bits per value the exact SBBF formula needs for the target, so what they write meets it.
 *
 * @param parquetJava Hadoop configuration of parquet-java, as Spark, Hive and Flink pass it on
 * @param pyarrow the {@code bloom_filter_options} argument of {@code pyarrow.parquet.write_table}
 * @param trino table properties of Trino's Hive and Iceberg connectors
 * @param iceberg Iceberg table properties (any engine writing through Iceberg's parquet-java writer)
 */
public record WriterSettings(String parquetJava, String pyarrow, String trino, String iceberg)
{
    public WriterSettings
    {
        requireNonNull(parquetJava, "parquetJava is null");
        requireNonNull(pyarrow, "pyarrow is null");
        requireNonNull(trino, "trino is null");
        requireNonNull(iceberg, "iceberg is null");
    }

    /**
     * @param distinctValues per row group (per file for Trino and Iceberg, which size per row group too)
     * @param bytes the bitset the exact formula needs, rounded up to a power of two as the writers round
     */
    public static WriterSettings enable(String column, long distinctValues, double writerFpp, long bytes)
    {
        String fpp = formatFpp(writerFpp);
        return new WriterSettings(
                "parquet.bloom.filter.enabled#%1$s=true parquet.bloom.filter.expected.ndv#%1$s=%2$d parquet.bloom.filter.fpp#%1$s=%3$s".formatted(column, distinctValues, fpp),
                "bloom_filter_options={'%s': {'ndv': %d, 'fpp': %s}}".formatted(column, distinctValues, fpp),
                "parquet_bloom_filter_columns = ARRAY['%s'], parquet_bloom_filter_fpp = %s".formatted(column, fpp),
                "write.parquet.bloom-filter-enabled.column.%1$s=true write.parquet.bloom-filter-fpp.column.%1$s=%2$s write.parquet.bloom-filter-max-bytes=%3$d".formatted(column, fpp, bytes));
    }

    public static WriterSettings disable(String column)
    {
        return new WriterSettings(
                "parquet.bloom.filter.enabled#%s=false".formatted(column),
                "bloom_filter_options without '%s'".formatted(column),
                "parquet_bloom_filter_columns without '%s'".formatted(column),
                "write.parquet.bloom-filter-enabled.column.%s=false".formatted(column));
    }

    /**
     * The rate to give a writer that sizes with the classic formula so that it allocates {@code bitsPerValue}.
     */
    public static double classicFppFor(double bitsPerValue)
    {
        double ln2 = Math.log(2);
        return Math.exp(-bitsPerValue * ln2 * ln2);
    }

    private static String formatFpp(double fpp)
    {
        // rounded down: a writer given a lower rate allocates more bits, never fewer than the target needs
        return new BigDecimal(fpp).round(new MathContext(2, RoundingMode.DOWN)).stripTrailingZeros().toPlainString();
    }
}
