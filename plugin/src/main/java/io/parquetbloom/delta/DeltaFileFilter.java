package io.parquetbloom.delta;

import io.parquetbloom.table.FileFilter;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.predicate.Domain;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statistics of each live file's {@code add} ({@link DeltaStatistics}), judged against a query's domains before the
 * file's footer is read; a file's statistics are parsed once, when a query first asks. Kept with a version of the
 * table, so that every query of it shares them.
 */
final class DeltaFileFilter
        implements FileFilter
{
    private final Map<String, Optional<String>> stats;
    private final Map<String, DeltaStatistics> parsed = new ConcurrentHashMap<>();

    /**
     * @param stats each live file's {@code stats}, by its object's location
     */
    DeltaFileFilter(Map<String, Optional<String>> stats)
    {
        this.stats = Map.copyOf(stats);
    }

    @Override
    public boolean mightMatch(LakeFile file, Map<DataColumn, Domain> domains)
    {
        String location = file.object().location().toString();
        Optional<String> json = stats.getOrDefault(location, Optional.empty());
        if (json.isEmpty() || domains.isEmpty()) {
            return true;
        }
        DeltaStatistics statistics = parsed.computeIfAbsent(location, _ -> DeltaStatistics.of(json));
        for (Map.Entry<DataColumn, Domain> entry : domains.entrySet()) {
            DataColumn column = entry.getKey();
            // statistics name columns as files do: by physical name under column mapping
            if (!statistics.mightMatch(DeltaSchemas.physicalName(column), column.type(), entry.getValue())) {
                return false;
            }
        }
        return true;
    }
}
