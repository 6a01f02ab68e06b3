package io.parquetbloom.demo;

import java.util.Map;

/**
 * A table scan's pruning and S3 cost, adding what the coordinator did before splitting (metrics prefixed
 * {@code planning}, {@code s3Planning}) to what the page sources did.
 */
public record ScanSummary(long rowGroups, long prunedByStatistics, long prunedByBloomFilter, long prunedByNoMatchCache, long rowGroupsRead, long filesPrunedBeforeSplits, long getRequests, long bytesRead)
{
    public static ScanSummary of(Map<String, Long> metrics)
    {
        return new ScanSummary(
                sum(metrics, "planningRowGroupsTotal", "rowGroupsTotal"),
                sum(metrics, "planningRowGroupsPrunedByStatistics", "rowGroupsPrunedByStatistics"),
                sum(metrics, "planningRowGroupsPrunedByBloomFilter", "rowGroupsPrunedByBloomFilter"),
                sum(metrics, "planningRowGroupsPrunedByNoMatchCache", "rowGroupsPrunedByNoMatchCache"),
                sum(metrics, "rowGroupsRead"),
                sum(metrics, "filesPrunedBeforeSplits"),
                sum(metrics, "s3PlanningGetRequests", "s3GetRequests"),
                sum(metrics, "s3PlanningBytesRead", "s3BytesRead"));
    }

    private static long sum(Map<String, Long> metrics, String... names)
    {
        long total = 0;
        for (String name : names) {
            total += metrics.getOrDefault(name, 0L);
        }
        return total;
    }
}
