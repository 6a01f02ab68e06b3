package io.parquetbloom.pruning;

import io.trino.spi.predicate.Domain;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of pruning one file.
 *
 * @param rowGroups ordinals of the row groups that may match, in file order
 * @param fileDomains the plan's predicate on the file's readable columns, by field name
 * @param stats what pruning did and why
 */
public record RowGroupSelection(List<Integer> rowGroups, Map<String, Domain> fileDomains, PruningStats stats)
{
    public RowGroupSelection
    {
        rowGroups = List.copyOf(rowGroups);
        fileDomains = Map.copyOf(fileDomains);
        requireNonNull(stats, "stats is null");
    }
}
