package io.parquetbloom.metadata;

/**
 * Cache use of one reader (a page source, or the split source of one query).
 */
public final class MetadataCacheStats
{
    private long footerHits;
    private long footerMisses;
    private long compactFooterHits;
    private long filterHits;
    private long filterMisses;
    private long diskHits;
    private long diskBytesRead;

    synchronized void footer(boolean hit)
    {
        if (hit) {
            footerHits++;
        }
        else {
            footerMisses++;
        }
    }

    /**
     * @param compact whether the compact form planning keeps answered (a footer hit too)
     */
    synchronized void footer(boolean hit, boolean compact)
    {
        footer(hit);
        if (hit && compact) {
            compactFooterHits++;
        }
    }

    synchronized void filters(long hits, long misses)
    {
        filterHits += hits;
        filterMisses += misses;
    }

    /**
     * An entry the memory cache missed, found in the disk tier.
     */
    synchronized void disk(long bytes)
    {
        diskHits++;
        diskBytesRead += bytes;
    }

    public synchronized long diskHits()
    {
        return diskHits;
    }

    public synchronized long diskBytesRead()
    {
        return diskBytesRead;
    }

    public synchronized long footerHits()
    {
        return footerHits;
    }

    public synchronized long compactFooterHits()
    {
        return compactFooterHits;
    }

    public synchronized long footerMisses()
    {
        return footerMisses;
    }

    public synchronized long filterHits()
    {
        return filterHits;
    }

    public synchronized long filterMisses()
    {
        return filterMisses;
    }
}
