package io.parquetbloom.health;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.trino.spi.connector.SchemaTableName;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The catalog's most recent queries on each table, as seen by the coordinator when it plans their splits, and which
 * columns each constrained by {@code =}, {@code IN} or a join (dynamic filter): the query share of a column is how
 * many of a table's queries in the window would have used a filter on it. Bounded to the last
 * {@code bloom-filter-advice.query-window} queries of the catalog; a query scanning a table twice counts once.
 */
public class QueryShareWindow
{
    private record Scan(String queryId, SchemaTableName table) {}

    /**
     * @param queries queries on the table within the window
     * @param lookupsByColumn of those, how many constrained each column
     */
    public record TableShare(int queries, Map<String, Integer> lookupsByColumn)
    {
        public TableShare
        {
            lookupsByColumn = Map.copyOf(requireNonNull(lookupsByColumn, "lookupsByColumn is null"));
        }

        /**
         * @return the share in [0, 1], or -1 when no query on the table is in the window (unknown, not zero)
         */
        public double share(String column)
        {
            if (queries == 0) {
                return -1;
            }
            return lookupsByColumn.getOrDefault(column, 0) / (double) queries;
        }
    }

    private final int capacity;
    private final LinkedHashMap<Scan, Set<String>> scans = new LinkedHashMap<>();

    @Inject
    public QueryShareWindow(HealthConfig config)
    {
        this(config.getQueryWindow());
    }

    public QueryShareWindow(int capacity)
    {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * @param lookupColumns data columns the scan constrains to discrete values or by a join
     */
    public synchronized void record(String queryId, SchemaTableName table, Set<String> lookupColumns)
    {
        Scan scan = new Scan(queryId, table);
        Set<String> known = scans.get(scan);
        if (known != null) {
            scans.put(scan, ImmutableSet.<String>builder().addAll(known).addAll(lookupColumns).build());
            return;
        }
        scans.put(scan, ImmutableSet.copyOf(lookupColumns));
        if (scans.size() > capacity) {
            scans.remove(scans.firstEntry().getKey());
        }
    }

    public synchronized TableShare share(SchemaTableName table)
    {
        int queries = 0;
        Map<String, Integer> lookups = new HashMap<>();
        for (Map.Entry<Scan, Set<String>> entry : scans.entrySet()) {
            if (entry.getKey().table().equals(table)) {
                queries++;
                for (String column : entry.getValue()) {
                    lookups.merge(column, 1, Integer::sum);
                }
            }
        }
        return new TableShare(queries, lookups);
    }

    public synchronized void clear()
    {
        scans.clear();
    }
}
