package io.parquetbloom.pruning;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import io.parquetbloom.metadata.CompactFooter;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.table.PartitionValues;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static com.google.common.collect.ImmutableSet.toImmutableSet;
import static java.util.Objects.requireNonNull;

/**
 * What one scan may skip, decided once per query (and again when a dynamic filter narrows it) and used alike by the
 * coordinator, which prunes whole files before they become splits, and by the workers, which prune their splits'
 * row groups: the pruning paths the session enables, the predicate on data columns and on partition columns, and
 * the hashes of the predicate's values, computed once per column and physical type rather than once per file.
 *
 * @param none no row can match (a contradiction, or a dynamic filter with no keys)
 */
public record PruningPlan(
        SchemaTableName table,
        Options options,
        boolean none,
        Map<DataColumn, Domain> columnDomains,
        Map<PartitionColumn, Domain> partitionDomains,
        HashMemo memo)
{
    /**
     * The ways a row group can be skipped, each switched by its session property.
     */
    public enum Path
    {
        STATISTICS,
        BLOOM_FILTERS,
        NO_MATCH_CACHE,
        DICTIONARIES,
    }

    /**
     * @param paths the pruning paths the session enables
     * @param maxDictionaryEntries dictionaries with more entries are not used
     * @param smallFileThreshold with dictionaries on, a file of at most this many bytes is read whole when its footer
     * is read for pruning, so its dictionaries come with that one GET
     */
    public record Options(Set<Path> paths, int maxBloomValues, int maxDictionaryEntries, long smallFileThreshold)
    {
        public Options
        {
            paths = Sets.immutableEnumSet(paths);
        }

        public boolean statistics()
        {
            return paths.contains(Path.STATISTICS);
        }

        public boolean bloomFilters()
        {
            return paths.contains(Path.BLOOM_FILTERS);
        }

        public boolean noMatchCache()
        {
            return paths.contains(Path.NO_MATCH_CACHE);
        }

        public boolean dictionaries()
        {
            return paths.contains(Path.DICTIONARIES);
        }

        /**
         * Whether the values of a discrete predicate are hashed: for bloom filters or dictionaries.
         */
        public boolean hashesValues()
        {
            return bloomFilters() || dictionaries();
        }
    }

    /**
     * A column stored in the files, as the table declares it.
     */
    public record DataColumn(String name, Type type, OptionalInt fieldId, Optional<List<String>> mappedNames)
    {
        public DataColumn
        {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(fieldId, "fieldId is null");
            mappedNames = requireNonNull(mappedNames, "mappedNames is null").map(List::copyOf);
        }

        public DataColumn(String name, Type type, OptionalInt fieldId)
        {
            this(name, type, fieldId, Optional.empty());
        }

        public DataColumn(String name, Type type)
        {
            this(name, type, OptionalInt.empty());
        }

        /**
         * The names (lower case) and field id token a footer's chunks of this column may go by.
         */
        Stream<String> footerNames()
        {
            return CompactFooter.footerNames(name, fieldId, mappedNames);
        }
    }

    public PruningPlan
    {
        requireNonNull(table, "table is null");
        requireNonNull(options, "options is null");
        columnDomains = Map.copyOf(columnDomains);
        partitionDomains = Map.copyOf(partitionDomains);
        requireNonNull(memo, "memo is null");
    }

    public static PruningPlan of(SchemaTableName table, Options options, Map<DataColumn, Domain> columnDomains, Map<PartitionColumn, Domain> partitionDomains)
    {
        return new PruningPlan(table, options, false, columnDomains, partitionDomains, new HashMemo());
    }

    public static PruningPlan noneMatch(SchemaTableName table, Options options)
    {
        return new PruningPlan(table, options, true, Map.of(), Map.of(), new HashMemo());
    }

    /**
     * Whether a file in the partition with these values (by partition column name) may hold a match.
     */
    public boolean matchesPartition(Map<String, Optional<String>> values)
    {
        if (none) {
            return false;
        }
        for (Map.Entry<PartitionColumn, Domain> entry : partitionDomains.entrySet()) {
            PartitionColumn column = entry.getKey();
            Object value = PartitionValues.toNativeValue(column.type(), values.getOrDefault(column.name(), Optional.empty()));
            if (!entry.getValue().includesNullableValue(value)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether reading a file's metadata can prune anything: statistics, bloom filters or dictionaries are on and a data column is
     * constrained.
     */
    public boolean prunesFiles()
    {
        return !none && (options.statistics() || options.hashesValues()) && !columnDomains.isEmpty();
    }

    /**
     * The top-level columns, in lower case, whose bloom filters pruning probes: none when bloom filters are off.
     */
    public Set<String> filterColumns()
    {
        return options.bloomFilters() ? constrainedColumns() : ImmutableSet.of();
    }

    /**
     * The top-level columns the plan constrains (lower case): those whose column chunks pruning reads.
     */
    public Set<String> constrainedColumns()
    {
        if (none) {
            return ImmutableSet.of();
        }
        // a column matched by field id is asked for by its id too: a renamed column's older files name it otherwise
        return columnDomains.keySet().stream()
                .flatMap(DataColumn::footerNames)
                .collect(toImmutableSet());
    }

    // a row group passes a filter of 1% false positives (parquet-java's default; Trino's writer makes 5%) for at least
    // one of k values it does not hold with probability 1 - 0.99^k: from 69 values on, more often than not
    public static final int UNSELECTIVE_FROM_VALUES = 69;

    /**
     * A set of so many values that filters pass nearly every row group; a range tells nothing here.
     */
    public static boolean unselective(Domain domain)
    {
        ValueSet values = domain.getValues();
        if (!values.isDiscreteSet()) {
            return false;
        }
        return ValueSets.listedValues(values) >= UNSELECTIVE_FROM_VALUES;
    }

    /**
     * Every constrained column is such a set: pruning is expected to keep most row groups.
     */
    public boolean unselective()
    {
        return !none && !columnDomains.isEmpty() && columnDomains.values().stream().allMatch(PruningPlan::unselective);
    }

    /**
     * Files of at most this many bytes are read whole when their footer is read for pruning (0: never): where
     * dictionaries may prune, one GET then brings them too, as trino-parquet reads a small file.
     */
    public long readWholeFileUpTo()
    {
        return options.dictionaries() && !none && !columnDomains.isEmpty() ? options.smallFileThreshold() : 0;
    }

    /**
     * The file's fields of the constrained columns it stores readably as the table's types, by column name. A missing
     * column holds only NULLs and a mismatching one is the reader's error to report: neither prunes.
     */
    public Map<String, org.apache.parquet.schema.Type> constrainedFieldsIn(MessageType fileSchema, FileColumnResolver resolver)
    {
        Map<String, org.apache.parquet.schema.Type> fields = new HashMap<>();
        columnDomains.keySet().forEach(column -> {
            if (resolver.resolve(column.name(), column.fieldId(), column.mappedNames(), column.type(), fileSchema) instanceof FileColumnResolver.Resolution.Match match) {
                fields.put(column.name(), match.field());
            }
        });
        return fields;
    }

    /**
     * The predicate on the columns this file stores readably as the table's types, by column name.
     */
    public Map<String, Domain> domainsIn(MessageType fileSchema, FileColumnResolver resolver)
    {
        return domainsOf(constrainedFieldsIn(fileSchema, resolver));
    }

    /**
     * The predicate on the columns of {@code fileFields}, the file's readable fields by column name.
     */
    public Map<String, Domain> domainsOf(Map<String, org.apache.parquet.schema.Type> fileFields)
    {
        Map<String, Domain> domains = new HashMap<>();
        columnDomains.forEach((column, domain) -> {
            if (fileFields.containsKey(column.name())) {
                domains.put(column.name(), domain);
            }
        });
        return domains;
    }

    /**
     * Hashes of a column's values per physical column type, so a query hashes each value once, not once per file.
     */
    public static final class HashMemo
    {
        private record Key(String column, PrimitiveType type) {}

        private final Map<Key, Optional<BloomColumnPredicate>> predicates = new ConcurrentHashMap<>();

        Optional<BloomColumnPredicate> get(ColumnDescriptor descriptor, Domain domain, int maxValues)
        {
            return predicates.computeIfAbsent(new Key(String.join(".", descriptor.getPath()), descriptor.getPrimitiveType()),
                    _ -> BloomColumnPredicate.create(descriptor, domain, maxValues));
        }
    }
}
