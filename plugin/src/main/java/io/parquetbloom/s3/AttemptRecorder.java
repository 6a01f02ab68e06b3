package io.parquetbloom.s3;

import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Receives the AWS SDK's own metrics of one API call (published when the call ends, retries included) and adds its
 * retries, throttled and failed attempts to the caller's {@link S3RequestStats}: the SDK's retry strategy does the
 * retrying, this only makes it visible per query.
 */
final class AttemptRecorder
        implements MetricPublisher
{
    private final S3RequestStats stats;
    private final S3Stats nodeStats;

    AttemptRecorder(S3RequestStats stats, S3Stats nodeStats)
    {
        this.stats = requireNonNull(stats, "stats is null");
        this.nodeStats = requireNonNull(nodeStats, "nodeStats is null");
    }

    @Override
    public void publish(MetricCollection call)
    {
        int retries = call.metricValues(CoreMetric.RETRY_COUNT).stream().mapToInt(Integer::intValue).sum();
        int throttled = 0;
        int failed = 0;
        for (MetricCollection attempt : call.children()) {
            for (String errorType : attempt.metricValues(CoreMetric.ERROR_TYPE)) {
                failed++;
                if (errorType.toLowerCase(Locale.ROOT).contains("throttl")) {
                    throttled++;
                }
            }
        }
        stats.recordAttempts(retries, throttled, failed);
        nodeStats.recordAttempts(retries, throttled, failed);
    }

    @Override
    public void close() {}
}
