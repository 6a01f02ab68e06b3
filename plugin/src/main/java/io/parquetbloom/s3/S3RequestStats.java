package io.parquetbloom.s3;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests and bytes of one reader (a page source, or the split manager for one query). Thread-safe.
 */
public final class S3RequestStats
{
    private final AtomicLong getRequests = new AtomicLong();
    private final AtomicLong getBytes = new AtomicLong();
    private final AtomicLong listRequests = new AtomicLong();

    public void recordGet(long bytes)
    {
        getRequests.incrementAndGet();
        getBytes.addAndGet(bytes);
    }

    void recordList()
    {
        listRequests.incrementAndGet();
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
}
