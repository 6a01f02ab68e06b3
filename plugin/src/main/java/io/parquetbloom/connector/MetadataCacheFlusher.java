package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeTables;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;

import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Drops cached footers, filters, no-match facts and listings. A procedure runs on the coordinator only, and workers
 * keep caches of their own (the no-match facts are learned there): every split carries the time of the coordinator's
 * latest flush, and a worker that sees a newer one than it has applied drops its whole cache before reading.
 * Entries are keyed by object version, so a flush never fixes a wrong answer; it frees memory and starts over.
 */
public class MetadataCacheFlusher
{
    private final ParquetMetadataCache cache;
    private final LakeTables lakeTables;
    // on the coordinator the time of its latest flush; on a worker the latest flush it has applied
    private final AtomicLong epoch = new AtomicLong();

    @Inject
    public MetadataCacheFlusher(ParquetMetadataCache cache, LakeTables lakeTables)
    {
        this.cache = requireNonNull(cache, "cache is null");
        this.lakeTables = requireNonNull(lakeTables, "lakeTables is null");
    }

    /**
     * @return the entries dropped from this node's cache
     */
    public long flush(Optional<String> schema, Optional<String> table)
    {
        long dropped;
        if (schema.isEmpty()) {
            lakeTables.flushListings(_ -> true);
            dropped = cache.invalidateAll();
        }
        else {
            String schemaName = schema.get().toLowerCase(Locale.ROOT);
            Predicate<SchemaTableName> tables = name -> name.getSchemaName().equals(schemaName) && table.map(tableName -> name.getTableName().equals(tableName.toLowerCase(Locale.ROOT))).orElse(true);
            S3Location folder = folder(schemaName, table.map(name -> name.toLowerCase(Locale.ROOT)));
            lakeTables.flushListings(tables);
            String prefix = folder.toString();
            dropped = cache.invalidate(file -> file.location().startsWith(prefix));
        }
        epoch.updateAndGet(previous -> Math.max(previous + 1, System.currentTimeMillis()));
        return dropped;
    }

    private S3Location folder(String schema, Optional<String> table)
    {
        S3RequestStats stats = new S3RequestStats();
        if (table.isEmpty()) {
            return lakeTables.findSchema(schema, stats)
                    .orElseThrow(() -> new SchemaNotFoundException(schema, "Schema %s not found".formatted(schema)));
        }
        // the folder as listed now, whatever a listing cache remembers
        lakeTables.flushListings(name -> name.equals(new SchemaTableName(schema, table.get())));
        return lakeTables.findTable(new SchemaTableName(schema, table.get()), stats)
                .orElseThrow(() -> new TableNotFoundException(new SchemaTableName(schema, table.get()), "Table %s.%s not found".formatted(schema, table.get())));
    }

    /**
     * The coordinator's latest flush, for the splits it creates.
     */
    public long epoch()
    {
        return epoch.get();
    }

    /**
     * On a worker, before a split is read: applies a flush the coordinator made since this node's last.
     */
    public void observe(long coordinatorEpoch)
    {
        while (true) {
            long applied = epoch.get();
            if (coordinatorEpoch <= applied) {
                return;
            }
            if (epoch.compareAndSet(applied, coordinatorEpoch)) {
                lakeTables.flushListings(_ -> true);
                cache.invalidateAll();
                return;
            }
        }
    }
}
