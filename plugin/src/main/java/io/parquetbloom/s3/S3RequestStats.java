package io.parquetbloom.s3;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests and bytes of one reader (a page source, or the split manager for one query), and the retries the AWS
 * SDK's retry strategy made for them. Thread-safe.
 */
public final class S3RequestStats
{
    private final AtomicLong getRequests = new AtomicLong();
    private final AtomicLong getBytes = new AtomicLong();
    private final AtomicLong listRequests = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong throttledAttempts = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();
    private final AtomicLong hedgedGets = new AtomicLong();
    private final AtomicLong hedgesWon = new AtomicLong();
    private final AtomicLong sharedListings = new AtomicLong();
    private final AtomicLong partitionListingFallbacks = new AtomicLong();
    private final AtomicLong partitionListings = new AtomicLong();

    public void recordGet(long bytes)
    {
        getRequests.incrementAndGet();
        getBytes.addAndGet(bytes);
    }

    public void recordList()
    {
        listRequests.incrementAndGet();
    }

    /**
     * A table's listing was not sent: a listing that began after the query was submitted served it.
     */
    public void recordSharedListing()
    {
        sharedListings.incrementAndGet();
    }

    public long sharedListings()
    {
        return sharedListings.get();
    }

    /**
     * A listing of the partitions a predicate selects would have cost more LIST requests than the whole table's: the
     * whole table was listed instead.
     */
    public void recordPartitionListingFallback()
    {
        partitionListingFallbacks.incrementAndGet();
    }

    public long partitionListingFallbacks()
    {
        return partitionListingFallbacks.get();
    }

    /**
     * A table's files were listed partition by partition: only the folders its predicate selects.
     */
    public void recordPartitionListing()
    {
        partitionListings.incrementAndGet();
    }

    public long partitionListings()
    {
        return partitionListings.get();
    }

    /**
     * @param retries attempts after the first
     * @param throttled attempts S3 answered with throttling (503 SlowDown and the like)
     * @param failed attempts that failed for any reason (throttling, 5xx, cut connections, timeouts)
     */
    void recordAttempts(int retries, int throttled, int failed)
    {
        this.retries.addAndGet(retries);
        this.throttledAttempts.addAndGet(throttled);
        this.failedAttempts.addAndGet(failed);
    }

    /**
     * Takes one hedge from this reader's budget: its first hedge, then one per {@code 1 / fraction} GETs it sent.
     *
     * @return whether a hedged GET may go out
     */
    boolean tryReserveHedge(double fraction)
    {
        while (true) {
            long hedged = hedgedGets.get();
            if (hedged >= 1 + (long) (getRequests.get() * fraction)) {
                return false;
            }
            if (hedgedGets.compareAndSet(hedged, hedged + 1)) {
                return true;
            }
        }
    }

    void recordHedge()
    {
        hedgedGets.incrementAndGet();
    }

    void recordHedgeWon()
    {
        hedgesWon.incrementAndGet();
    }

    /**
     * Second GETs sent because the first ran past the recent p95 (each is also counted in {@link #getRequests}).
     */
    public long hedgedGets()
    {
        return hedgedGets.get();
    }

    /**
     * Hedged GETs that answered before the GET they hedged.
     */
    public long hedgesWon()
    {
        return hedgesWon.get();
    }

    public long getRequests()
    {
        return getRequests.get();
    }

    public long getBytes()
    {
        return getBytes.get();
    }

    public long listRequests()
    {
        return listRequests.get();
    }

    public long retries()
    {
        return retries.get();
    }

    public long throttledAttempts()
    {
        return throttledAttempts.get();
    }

    public long failedAttempts()
    {
        return failedAttempts.get();
    }
}
