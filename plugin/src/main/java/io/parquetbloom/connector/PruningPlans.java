package io.parquetbloom.connector;

import io.parquetbloom.pruning.PruningPlan;
import io.parquetbloom.table.PartitionColumn;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static io.parquetbloom.connector.ParquetBloomSessionProperties.getBloomFilterMaxValues;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.getDictionaryPruningMaxEntries;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.getDictionaryPruningSmallFileThreshold;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isBloomFilterEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isDictionaryPruningEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isNoMatchCacheEnabled;
import static io.parquetbloom.connector.ParquetBloomSessionProperties.isStatisticsPruningEnabled;

/**
 * Builds the {@link PruningPlan} of a scan from the session and the engine's predicate on our column handles; the
 * split source and the page source both build it this way.
 */
public final class PruningPlans
{
    private PruningPlans() {}

    public static PruningPlan.Options options(ConnectorSession session)
    {
        Set<PruningPlan.Path> paths = EnumSet.noneOf(PruningPlan.Path.class);
        if (isStatisticsPruningEnabled(session)) {
            paths.add(PruningPlan.Path.STATISTICS);
        }
        if (isBloomFilterEnabled(session)) {
            paths.add(PruningPlan.Path.BLOOM_FILTERS);
        }
        if (isNoMatchCacheEnabled(session)) {
            paths.add(PruningPlan.Path.NO_MATCH_CACHE);
        }
        if (isDictionaryPruningEnabled(session)) {
            paths.add(PruningPlan.Path.DICTIONARIES);
        }
        return new PruningPlan.Options(paths, getBloomFilterMaxValues(session), getDictionaryPruningMaxEntries(session), getDictionaryPruningSmallFileThreshold(session));
    }

    public static PruningPlan create(SchemaTableName table, PruningPlan.Options options, TupleDomain<ParquetBloomColumnHandle> constraint)
    {
        if (constraint.isNone()) {
            return PruningPlan.noneMatch(table, options);
        }
        Map<PruningPlan.DataColumn, Domain> columnDomains = new HashMap<>();
        Map<PartitionColumn, Domain> partitionDomains = new HashMap<>();
        constraint.getDomains().orElseThrow().forEach((column, domain) -> {
            if (column.fromListing()) {
                // a hidden column's value is one per file too: its split carries it as a partition value
                partitionDomains.put(new PartitionColumn(column.name(), column.type()), domain);
            }
            else {
                columnDomains.put(new PruningPlan.DataColumn(column.name(), column.type(), column.fieldId(), column.mappedNames()), domain);
            }
        });
        return PruningPlan.of(table, options, columnDomains, partitionDomains);
    }
}
