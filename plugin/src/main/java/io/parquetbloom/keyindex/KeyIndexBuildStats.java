package io.parquetbloom.keyindex;

import org.weakref.jmx.Managed;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node's key index builds went through, for operators (JMX) and for tests that must show each path was
 * taken: conflicts with other builds, lost answers, drops, cancellations, damage, spills and multipart uploads.
 */
public class KeyIndexBuildStats
{
    private final AtomicLong builds = new AtomicLong();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();
    private final AtomicLong pointerConflicts = new AtomicLong();
    private final AtomicLong ownPointerFound = new AtomicLong();
    private final AtomicLong droppedWhileBuilding = new AtomicLong();
    private final AtomicLong compactions = new AtomicLong();
    private final AtomicLong damagedSegmentsDropped = new AtomicLong();
    private final AtomicLong spilledBuilds = new AtomicLong();
    private final AtomicLong multipartUploads = new AtomicLong();
    private final AtomicLong filesUnindexable = new AtomicLong();

    public void built()
    {
        builds.incrementAndGet();
    }

    public void committed()
    {
        committed.incrementAndGet();
    }

    public void failed()
    {
        failed.incrementAndGet();
    }

    public void cancelled()
    {
        cancelled.incrementAndGet();
    }

    public void pointerConflict()
    {
        pointerConflicts.incrementAndGet();
    }

    public void ownPointerFound()
    {
        ownPointerFound.incrementAndGet();
    }

    public void droppedWhileBuilding()
    {
        droppedWhileBuilding.incrementAndGet();
    }

    public void compacted()
    {
        compactions.incrementAndGet();
    }

    public void damagedSegmentDropped()
    {
        damagedSegmentsDropped.incrementAndGet();
    }

    public void spilled()
    {
        spilledBuilds.incrementAndGet();
    }

    public void multipartUpload()
    {
        multipartUploads.incrementAndGet();
    }

    public void filesUnindexable(long files)
    {
        filesUnindexable.addAndGet(files);
    }

    @Managed
    public long getBuilds()
    {
        return builds.get();
    }

    @Managed
    public long getCommitted()
    {
        return committed.get();
    }

    @Managed
    public long getFailed()
    {
        return failed.get();
    }

    @Managed
    public long getCancelled()
    {
        return cancelled.get();
    }

    /**
     * Pointer PUTs another build's PUT beat (412 or 409): this build's segment was added to theirs.
     */
    @Managed
    public long getPointerConflicts()
    {
        return pointerConflicts.get();
    }

    /**
     * Conflicts that were this build's own PUT, landed with its answer lost (the SDK's retry met it).
     */
    @Managed
    public long getOwnPointerFound()
    {
        return ownPointerFound.get();
    }

    @Managed
    public long getDroppedWhileBuilding()
    {
        return droppedWhileBuilding.get();
    }

    @Managed
    public long getCompactions()
    {
        return compactions.get();
    }

    @Managed
    public long getDamagedSegmentsDropped()
    {
        return damagedSegmentsDropped.get();
    }

    /**
     * Builds whose entries did not fit key-index.build-memory and were sorted in runs on disk.
     */
    @Managed
    public long getSpilledBuilds()
    {
        return spilledBuilds.get();
    }

    @Managed
    public long getMultipartUploads()
    {
        return multipartUploads.get();
    }

    @Managed
    public long getFilesUnindexable()
    {
        return filesUnindexable.get();
    }
}
