package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.connector.SchemaTableName;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The latest listing of each table and when it began, so that a query submitted before a listing began uses it
 * instead of listing the table again ({@code metadata.shared-listing-max-age}). S3 lists every object whose write
 * completed before the listing began, so such a query sees every file written before it was submitted, as its own
 * listing would; a file written after it was submitted may be missed, as with a listing of its own that began a
 * moment earlier. Under load that is most queries: those that waited (in Trino's queue, or for planning) more than
 * {@link #CLOCK_MARGIN}. A listing is shared only while it is young, so that a file deleted or rewritten since (a
 * compaction) fails few queries planned from it.
 */
final class SharedListings
{
    // the coordinator's clock may be adjusted between a query's submission and a listing: a listing counts as begun
    // after the submission only when it began at least this much later
    static final Duration CLOCK_MARGIN = Duration.ofSeconds(1);
    // files of all listings kept at once, at most: beyond it a listing is not kept (it would crowd the coordinator's heap)
    private static final int MAX_FILES = 250_000;

    private record Listing(S3Location folder, Instant startedAt, LakeTable table)
    {
        int files()
        {
            return table.files().size();
        }
    }

    private final Duration maxAge;
    private final Map<SchemaTableName, Listing> latest = new ConcurrentHashMap<>();

    SharedListings(Duration maxAge)
    {
        this.maxAge = requireNonNull(maxAge, "maxAge is null");
    }

    /**
     * The listing of the table in {@code folder} that began after {@code submittedAt} (and less than the maximum age
     * ago), if one was kept.
     */
    Optional<LakeTable> sharedWith(SchemaTableName name, S3Location folder, Instant submittedAt)
    {
        Listing listing = latest.get(name);
        if (listing == null || !listing.folder().equals(folder)
                || !listing.startedAt().isAfter(submittedAt.plus(CLOCK_MARGIN))
                || listing.startedAt().isBefore(Instant.now().minus(maxAge))) {
            return Optional.empty();
        }
        return Optional.of(listing.table());
    }

    /**
     * Lists the table with {@code lister} and keeps the result, with the instant the listing began, for later queries.
     */
    LakeTable list(SchemaTableName name, S3Location folder, Supplier<LakeTable> lister)
    {
        if (maxAge.isZero()) {
            return lister.get();
        }
        Instant startedAt = Instant.now();
        LakeTable table = lister.get();
        keep(name, new Listing(folder, startedAt, table));
        return table;
    }

    private synchronized void keep(SchemaTableName name, Listing listing)
    {
        Instant oldest = Instant.now().minus(maxAge);
        latest.values().removeIf(kept -> kept.startedAt().isBefore(oldest));
        Listing kept = latest.get(name);
        // two listings racing: the one that began later is the one more queries can share
        if (kept != null && kept.startedAt().isAfter(listing.startedAt())) {
            return;
        }
        int otherFiles = latest.entrySet().stream()
                .filter(entry -> !entry.getKey().equals(name))
                .mapToInt(entry -> entry.getValue().files())
                .sum();
        if (otherFiles + listing.files() <= MAX_FILES) {
            latest.put(name, listing);
        }
        else {
            latest.remove(name);
        }
    }

    void forget(Predicate<SchemaTableName> tables)
    {
        latest.keySet().removeIf(tables);
    }
}
