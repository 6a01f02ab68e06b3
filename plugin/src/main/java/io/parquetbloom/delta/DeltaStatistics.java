package io.parquetbloom.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.slice.Slices;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an {@code add} action's {@code stats} prove about its file, before the file is read: a column all NULL, or
 * values all outside a constraint's ranges (PROTOCOL.md, "Per-file Statistics"). Only what is exact is used: integers,
 * dates, and strings shorter than Delta's 32-character prefix (a longer string's maximum is a truncated prefix, no
 * bound); floating point (NaN is left out of the bounds), timestamps (kept at milliseconds) and decimals prune nothing
 * here, nor do statistics that cannot be read. Bounds still hold after rows are deleted (they are then wider, not
 * tight), so a file with a deletion vector is judged by them too.
 */
public final class DeltaStatistics
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int STRING_PREFIX_LENGTH = 32;

    private final Optional<JsonNode> stats;

    private DeltaStatistics(Optional<JsonNode> stats)
    {
        this.stats = stats;
    }

    public static DeltaStatistics of(Optional<String> stats)
    {
        return new DeltaStatistics(stats.flatMap(DeltaStatistics::parse));
    }

    private static Optional<JsonNode> parse(String json)
    {
        try {
            JsonNode node = MAPPER.readTree(json);
            return node.isObject() ? Optional.of(node) : Optional.empty();
        }
        catch (JsonProcessingException e) {
            // statistics that cannot be read prove nothing
            return Optional.empty();
        }
    }

    public OptionalLong numRecords()
    {
        return stats.filter(node -> node.path("numRecords").canConvertToExactIntegral())
                .map(node -> OptionalLong.of(node.get("numRecords").asLong()))
                .orElse(OptionalLong.empty());
    }

    /**
     * Whether the file may hold a row of the column (by its physical name) in the domain.
     */
    public boolean mightMatch(String physicalName, Type type, Domain domain)
    {
        if (stats.isEmpty() || domain.isAll()) {
            return true;
        }
        OptionalLong records = numRecords();
        JsonNode nullCount = stats.get().path("nullCount").path(physicalName);
        boolean allNull = records.isPresent() && nullCount.canConvertToExactIntegral() && nullCount.asLong() == records.getAsLong() && records.getAsLong() > 0;
        boolean noNull = nullCount.canConvertToExactIntegral() && nullCount.asLong() == 0;
        if (allNull) {
            return domain.isNullAllowed();
        }
        Optional<Object> min = value(type, stats.get().path("minValues").path(physicalName));
        Optional<Object> max = value(type, stats.get().path("maxValues").path(physicalName));
        if (min.isEmpty() || max.isEmpty()) {
            return true;
        }
        Domain file = Domain.create(ValueSet.ofRanges(Range.range(type, min.get(), true, max.get(), true)), !noNull);
        return domain.overlaps(file);
    }

    /**
     * The statistic as the value Trino holds for the type, where it is exact.
     */
    private static Optional<Object> value(Type type, JsonNode node)
    {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (type instanceof BigintType || type instanceof IntegerType || type instanceof SmallintType || type instanceof TinyintType) {
            return node.canConvertToExactIntegral() ? Optional.of(node.asLong()) : Optional.empty();
        }
        if (type instanceof DateType && node.isTextual()) {
            try {
                return Optional.of(LocalDate.parse(node.asText()).toEpochDay());
            }
            catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        if (type instanceof VarcharType && node.isTextual() && node.asText().length() < STRING_PREFIX_LENGTH) {
            return Optional.of(Slices.utf8Slice(node.asText()));
        }
        return Optional.empty();
    }
}
