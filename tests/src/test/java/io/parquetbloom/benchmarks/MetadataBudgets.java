package io.parquetbloom.benchmarks;

import io.airlift.slice.Slices;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The big-table mode of {@code ./run bench lookups --budget-ratios ...}: our catalog once per ratio of the node's
 * metadata budget to the lookup's metadata working set, so that a table whose metadata outgrows the heap is measured
 * at a small scale by shrinking the budget, not the metadata. The working set of a lookup on {@code device_id} is
 * what it needs to prune every file: each file's Thrift footer plus every {@code device_id} filter, as written.
 * A variant {@code parquet_bloom@R} has {@code metadata-cache.max-size} of R times that; {@code parquet_bloom@R+disk}
 * adds the local disk tier (a fresh directory per catalog, so a cold run is cold on disk too).
 */
final class MetadataBudgets
{
    static final String OURS = "parquet_bloom";
    // the variant whose budget is the reference node's, scaled as the rows are, on the per-file path
    static final String SCALED = "scaled";
    private static final String KEY_COLUMN = "device_id";
    // the reference: a node's 256 MB metadata budget against 250,000-row row groups
    private static final long REFERENCE_BUDGET = 256L << 20;
    private static final int REFERENCE_ROWS_PER_ROW_GROUP = 250_000;

    private final long workingSet;
    private final long footerBytes;
    private final long filterBytes;
    private final Path diskRoot;
    private final long scaledBudget;

    private MetadataBudgets(long footerBytes, long filterBytes, Path diskRoot, long scaledBudget)
    {
        this.footerBytes = footerBytes;
        this.filterBytes = filterBytes;
        this.workingSet = footerBytes + filterBytes;
        this.diskRoot = diskRoot;
        this.scaledBudget = scaledBudget;
    }

    /**
     * The reference node's metadata budget scaled by the rows of a row group: filters sized for a row group's rows
     * outgrow it as the reference's ~3 GB of filters per key column outgrow 256 MB.
     */
    static long scaledBudget(int rowsPerRowGroup)
    {
        return REFERENCE_BUDGET * rowsPerRowGroup / REFERENCE_ROWS_PER_ROW_GROUP;
    }

    /**
     * Our catalog once per ratio, and once more with the disk tier when asked; other catalogs as they are.
     */
    static List<String> expand(List<String> catalogs, List<Double> ratios, boolean diskTier)
    {
        List<String> expanded = new ArrayList<>();
        for (String catalog : catalogs) {
            if (!catalog.equals(OURS) || ratios.isEmpty()) {
                expanded.add(catalog);
                continue;
            }
            for (double ratio : ratios) {
                expanded.add(OURS + "@" + ratio);
                if (diskTier) {
                    expanded.add(OURS + "@" + ratio + "+disk");
                }
            }
        }
        return expanded;
    }

    static boolean isVariant(String catalog)
    {
        return catalog.startsWith(OURS + "@");
    }

    /**
     * The Trino catalog a variant runs as: {@code parquet_bloom@0.5+disk} is {@code lake_b0_5_disk}.
     */
    static String trinoCatalog(String catalog)
    {
        return "lake_b" + catalog.substring(OURS.length() + 1).replace('.', '_').replace("+", "_");
    }

    static boolean isScaled(String catalog)
    {
        return catalog.substring(OURS.length() + 1).replace("+disk", "").equals(SCALED);
    }

    /**
     * The budget of a variant / the working set.
     */
    double ratio(String catalog)
    {
        if (isScaled(catalog)) {
            return scaledBudget / (double) workingSet;
        }
        return Double.parseDouble(catalog.substring(OURS.length() + 1).replace("+disk", ""));
    }

    static boolean diskTier(String catalog)
    {
        return catalog.endsWith("+disk");
    }

    /**
     * Measures the working set from the objects themselves: each file's footer, and its {@code device_id} filters
     * (their declared length, or the extent up to the next filter or the footer where a writer declares none).
     */
    static MetadataBudgets measure(S3Client client, String bucket, String prefix, Path diskRoot, long scaledBudget)
            throws IOException
    {
        long footers = 0;
        long filters = 0;
        for (S3Object object : client.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents()) {
            if (!object.key().endsWith(".parquet")) {
                continue;
            }
            byte[] end = client.getObjectAsBytes(request -> request.bucket(bucket).key(object.key()).range("bytes=-8")).asByteArray();
            int footerLength = Slices.wrappedBuffer(end).getInt(0);
            long footerStart = object.size() - 8 - footerLength;
            byte[] footerBytes = client.getObjectAsBytes(request -> request.bucket(bucket).key(object.key()).range("bytes=%d-%d".formatted(footerStart, object.size() - 9))).asByteArray();
            footers += footerLength;
            filters += keyFilterBytes(Util.readFileMetaData(new ByteArrayInputStream(footerBytes)), footerStart);
        }
        return new MetadataBudgets(footers, filters, diskRoot, scaledBudget);
    }

    private static long keyFilterBytes(FileMetaData footer, long footerStart)
    {
        TreeMap<Long, Boolean> filterStarts = new TreeMap<>();
        filterStarts.put(footerStart, false);
        List<ColumnChunk> keyChunks = new ArrayList<>();
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                if (chunk.getMeta_data().isSetBloom_filter_offset()) {
                    filterStarts.put(chunk.getMeta_data().getBloom_filter_offset(), true);
                    if (chunk.getMeta_data().getPath_in_schema().equals(List.of(KEY_COLUMN))) {
                        keyChunks.add(chunk);
                    }
                }
            }
        }
        long bytes = 0;
        for (ColumnChunk chunk : keyChunks) {
            long offset = chunk.getMeta_data().getBloom_filter_offset();
            bytes += chunk.getMeta_data().isSetBloom_filter_length() ? chunk.getMeta_data().getBloom_filter_length() : filterStarts.higherKey(offset) - offset;
        }
        return bytes;
    }

    long workingSet()
    {
        return workingSet;
    }

    /**
     * Catalog properties a variant adds to ours.
     */
    Map<String, String> properties(String catalog)
    {
        Map<String, String> properties = new HashMap<>();
        properties.put("metadata-cache.max-size", Math.max(1, Math.round(ratio(catalog) * workingSet)) + "B");
        if (isScaled(catalog)) {
            properties.put("key-index.enabled", "false");
        }
        if (diskTier(catalog)) {
            Path directory = diskRoot.resolve(trinoCatalog(catalog) + "-" + System.nanoTime());
            properties.put("metadata-cache.disk.directory", directory.toString());
            // the disk holds the whole working set and more
            properties.put("metadata-cache.disk.max-size", Math.max(64L << 20, 4 * workingSet) + "B");
        }
        return properties;
    }

    Map<String, Object> describeJson()
    {
        return Map.of("working_set_bytes", workingSet, "footer_bytes", footerBytes, "key_filter_bytes", filterBytes, "scaled_budget_bytes", scaledBudget);
    }

    String describe()
    {
        return "metadata working set of a device_id lookup: %,d bytes (footers %,d, device_id filters %,d); the reference's budget scaled: %,d bytes".formatted(workingSet, footerBytes, filterBytes, scaledBudget);
    }

    /**
     * Budget / working set against GETs, MiB and p50 per phase, with Hive's cold bytes beside.
     */
    static String markdown(List<LookupBenchmark.Result> results, Optional<MetadataBudgets> budgets)
    {
        StringBuilder table = new StringBuilder();
        budgets.ifPresent(value -> table.append(value.describe()).append("\n\n"));
        table.append("| workload | budget / working set | disk tier | cold GETs / MiB / p50 ms | warm GETs / MiB / p50 ms | repeat GETs / MiB / p50 ms | warm GETs / cold GETs | hive cold GETs / MiB / p50 ms |\n");
        table.append("|---|---|---|---|---|---|---|---|\n");
        for (LookupBenchmark.Result cold : results) {
            if (!isVariant(cold.catalog()) || !cold.phase().equals("cold")) {
                continue;
            }
            Optional<LookupBenchmark.Result> warm = phase(results, cold, cold.catalog(), "warm");
            Optional<LookupBenchmark.Result> repeat = phase(results, cold, cold.catalog(), "repeat");
            Optional<LookupBenchmark.Result> hive = phase(results, cold, "hive", "cold");
            table.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    cold.workload(), budgets.map(value -> String.format(Locale.ROOT, "%.3g%s", value.ratio(cold.catalog()), isScaled(cold.catalog()) ? " (scaled, per-file)" : "")).orElse("-"), diskTier(cold.catalog()) ? "on" : "off",
                    cells(Optional.of(cold)), cells(warm), cells(repeat),
                    warm.map(value -> cold.gets() == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * value.gets() / cold.gets())).orElse("-"),
                    cells(hive)));
        }
        return table.toString();
    }

    private static Optional<LookupBenchmark.Result> phase(List<LookupBenchmark.Result> results, LookupBenchmark.Result of, String catalog, String phase)
    {
        return results.stream().filter(other -> other.catalog().equals(catalog) && other.workload().equals(of.workload()) && other.phase().equals(phase)).findFirst();
    }

    private static String cells(Optional<LookupBenchmark.Result> result)
    {
        return result.map(value -> String.format(Locale.ROOT, "%d / %.1f / %.0f", value.gets(), value.bytes() / 1048576.0, value.p50())).orElse("-");
    }
}
