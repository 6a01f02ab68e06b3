package io.parquetbloom.s3;

import org.weakref.jmx.Managed;

import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's S3 traffic since the catalog started, for JMX and OpenMetrics: requests by kind, bytes, and what the
 * retry strategy went through. Queries see their own share in their metrics ({@link S3RequestStats}).
 */
public class S3Stats
{
    private final S3RequestStats total = new S3RequestStats();
    private final AtomicLong failedRequests = new AtomicLong();

    void recordGet(long bytes)
    {
        total.recordGet(bytes);
    }

    void recordList()
    {
        total.recordList();
    }

    void recordAttempts(int retries, int throttled, int failed)
    {
        total.recordAttempts(retries, throttled, failed);
    }

    void recordHedge()
    {
        total.recordHedge();
    }

    void recordHedgeWon()
    {
        total.recordHedgeWon();
    }

    void recordFailure()
    {
        failedRequests.incrementAndGet();
    }

    @Managed(description = "Ranged GETs sent (footers, filters, column chunks)")
    public long getGetRequests()
    {
        return total.getRequests();
    }

    @Managed(description = "Bytes received by GETs")
    public long getGetBytes()
    {
        return total.getBytes();
    }

    @Managed(description = "LIST pages requested")
    public long getListRequests()
    {
        return total.listRequests();
    }

    @Managed(description = "Attempts after the first, by the SDK's retry strategy")
    public long getRetries()
    {
        return total.retries();
    }

    @Managed(description = "Attempts S3 answered with throttling")
    public long getThrottledAttempts()
    {
        return total.throttledAttempts();
    }

    @Managed(description = "Attempts that failed for any reason (throttling, 5xx, cut connections, timeouts)")
    public long getFailedAttempts()
    {
        return total.failedAttempts();
    }

    @Managed(description = "Second GETs sent because the first ran past the recent p95 of GETs of its size")
    public long getHedgedGets()
    {
        return total.hedgedGets();
    }

    @Managed(description = "Hedged GETs that answered before the GET they hedged")
    public long getHedgesWon()
    {
        return total.hedgesWon();
    }

    @Managed(description = "Requests that failed after all retries")
    public long getFailedRequests()
    {
        return failedRequests.get();
    }
}
