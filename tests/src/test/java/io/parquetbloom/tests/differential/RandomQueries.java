package io.parquetbloom.tests.differential;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

import static java.util.stream.Collectors.joining;

/**
 * Random lookups over a {@link RandomTable}: {@code =} with present and absent values, {@code IN} lists of 1 to
 * 3,000 values, ranges, {@code IS NULL}, {@code = OR IS NULL}, {@code OR} and {@code AND} of two columns, joins whose
 * build side becomes a dynamic filter, and {@code LIMIT}. Each is spelled once with a placeholder for the table, so
 * the same text runs against the lake and against the oracle.
 */
final class RandomQueries
{
    static final String TABLE = "${table}";

    private RandomQueries() {}

    /**
     * @return a query with {@link #TABLE} where the table goes, whose result is a multiset of rows of two columns:
     * {@code id} (bigint, may be NULL) and {@code v} (the other projected values spelled as one varchar), so that
     * many such queries run as one {@code UNION ALL} statement, each branch a table scan pruned on its own
     */
    record RandomQuery(String shape, String sql) {}

    static RandomQuery next(RandomTable table, SplittableRandom random)
    {
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            if (!table.columns().get(i).pool().isEmpty()) {
                candidates.add(i);
            }
        }
        int first = candidates.get(random.nextInt(candidates.size()));
        int second = candidates.get(random.nextInt(candidates.size()));
        RandomTable.Column column = table.columns().get(first);
        String name = column.sqlName();
        int choice = random.nextInt(100);
        String predicate;
        String shape;
        if ((column.kind() == ColumnKind.FLOAT || column.kind() == ColumnKind.DOUBLE_) && random.nextInt(3) == 0) {
            // predicates NaN satisfies: NaN is unordered and equal to nothing, so pruning by min/max or filters that
            // leave NaN out must keep its rows
            String value = value(table, first, random);
            shape = "admits NaN";
            predicate = switch (random.nextInt(7)) {
                case 0 -> "%s <> %s".formatted(name, value);
                case 1 -> "NOT (%s = %s)".formatted(name, value);
                case 2 -> "%s IS DISTINCT FROM %s".formatted(name, value);
                case 3 -> "NOT (%s < %s)".formatted(name, value);
                case 4 -> "%s NOT IN (%s)".formatted(name, values(table, first, random.nextInt(1, 4), random));
                case 5 -> "is_nan(%s)".formatted(name);
                default -> "(is_nan(%s) OR %s = %s)".formatted(name, name, value);
            };
        }
        else if (choice < 30) {
            shape = "=";
            predicate = "%s = %s".formatted(name, value(table, first, random));
        }
        else if (choice < 48) {
            shape = "IN (1-10)";
            predicate = "%s IN (%s)".formatted(name, values(table, first, random.nextInt(1, 11), random));
        }
        else if (choice < 50) {
            // beyond a few hundred values the engine may compact the list to a range; up to 3,000 as dashboards send
            shape = "IN (100-3000)";
            predicate = "%s IN (%s)".formatted(name, values(table, first, random.nextInt(100, 3_001), random));
        }
        else if (choice < 57 && column.kind() != ColumnKind.BOOLEAN_) {
            String low = value(table, first, random);
            String high = value(table, first, random);
            shape = "range";
            predicate = random.nextBoolean() ? "%s BETWEEN %s AND %s".formatted(name, low, high) : "%s > %s".formatted(name, low);
        }
        else if (choice < 61) {
            shape = "IS NULL";
            predicate = "%s IS NULL".formatted(name);
        }
        else if (choice < 68) {
            shape = "= OR IS NULL";
            predicate = "(%s = %s OR %s IS NULL)".formatted(name, value(table, first, random), name);
        }
        else if (choice < 76) {
            shape = "OR of two columns";
            predicate = "(%s = %s OR %s = %s)".formatted(name, value(table, first, random), table.columns().get(second).sqlName(), value(table, second, random));
        }
        else if (choice < 84) {
            shape = "AND of two columns";
            predicate = "%s = %s AND %s IN (%s)".formatted(name, value(table, first, random), table.columns().get(second).sqlName(), values(table, second, random.nextInt(1, 4), random));
        }
        // (a VALUES row of a ROW value would be read as a row of its fields: no join on a nested column)
        else if (choice < 94 && column.kind() != ColumnKind.BOOLEAN_ && column.kind() != ColumnKind.NESTED) {
            // the VALUES side is small: the engine builds a dynamic filter from it and the probe side waits for it
            return new RandomQuery("join (dynamic filter)", "SELECT t.id, %s AS v FROM %s t JOIN (VALUES %s) k(x) ON t.%s = k.x".formatted(spelled(List.of(column), "t."), TABLE, values(table, first, random.nextInt(1, 40), random), name));
        }
        else if (choice < 97) {
            // an early close: only the count is deterministic
            return new RandomQuery("LIMIT", "SELECT CAST(NULL AS bigint) AS id, CAST(count(*) AS varchar) AS v FROM (SELECT id FROM %s WHERE %s IN (%s) LIMIT %d)".formatted(TABLE, name, values(table, first, random.nextInt(1, 6), random), random.nextInt(1, 20)));
        }
        else {
            predicate = "%s = %s".formatted(name, value(table, first, random));
            return new RandomQuery("count", "SELECT CAST(NULL AS bigint) AS id, CAST(count(*) AS varchar) || '|' || CAST(count(%s) AS varchar) AS v FROM %s WHERE %s".formatted(table.columns().get(second).sqlName(), TABLE, predicate));
        }
        if (random.nextInt(5) == 0) {
            // nothing read but the predicate's columns: a reader on the node that planned reads with the compact
            // footer planning kept
            return new RandomQuery("count of the predicate", "SELECT CAST(NULL AS bigint) AS id, CAST(count(*) AS varchar) AS v FROM %s WHERE %s".formatted(TABLE, predicate));
        }
        Set<RandomTable.Column> projection = new LinkedHashSet<>(List.of(column, table.columns().get(second)));
        if (random.nextInt(3) == 0) {
            projection.add(table.columns().get(random.nextInt(table.columns().size())));
        }
        return new RandomQuery(shape, "SELECT id, %s AS v FROM %s WHERE %s".formatted(spelled(List.copyOf(projection), ""), TABLE, predicate));
    }

    /**
     * The whole table, for the first check of every table against the oracle.
     */
    static String all(RandomTable table)
    {
        return "SELECT id, %s AS v FROM %s".formatted(spelled(table.columns(), ""), TABLE);
    }

    /**
     * Values of several columns of any type as one varchar, NULL spelled distinctly (the engine's own casts, the
     * same on both sides of the comparison).
     */
    private static String spelled(List<RandomTable.Column> columns, String qualifier)
    {
        return columns.stream()
                .map(column -> {
                    String reference = qualifier + column.sqlName();
                    String text = switch (column.kind()) {
                        case BINARY, FIXED8 -> "to_hex(%s)".formatted(reference);
                        case NESTED -> "json_format(CAST(%s AS JSON))".formatted(reference);
                        default -> "CAST(%s AS varchar)".formatted(reference);
                    };
                    return "coalesce(%s, '<null>')".formatted(text);
                })
                .collect(joining(" || '|' || "));
    }

    /**
     * A value present in the table (most often), a fresh one (usually absent), or another column's value: a literal
     * of the column's read type, but sometimes of another type (an integer literal against a decimal column).
     */
    private static String value(RandomTable table, int column, SplittableRandom random)
    {
        RandomTable.Column spec = table.columns().get(column);
        int choice = random.nextInt(10);
        Object value;
        if (choice < 6) {
            Object[] row = table.rows().get(random.nextInt(table.rows().size()));
            value = row[column + 1];
            if (value == null) {
                value = spec.pool().get(random.nextInt(spec.pool().size()));
            }
        }
        else if (choice < 9) {
            value = spec.kind().random(random);
        }
        else {
            value = spec.pool().get(random.nextInt(spec.pool().size()));
        }
        return retyped(spec.kind(), notNaN(spec.kind(), value, random), random);
    }

    /**
     * NaN never appears in a predicate: Trino 483 turns {@code x IN (nan(), ...)} into a domain without NaN for a
     * connector that accepts filters (rows with NaN are not returned) but evaluates the same IN list as matching NaN
     * for one that does not (the memory oracle): an engine inconsistency, not a pruning question. NaN stays in the data.
     */
    private static Object notNaN(ColumnKind kind, Object value, SplittableRandom random)
    {
        Object result = value;
        while ((result instanceof Float real && real.isNaN()) || (result instanceof Double number && number.isNaN())) {
            result = kind.random(random);
        }
        return result;
    }

    private static String retyped(ColumnKind kind, Object value, SplittableRandom random)
    {
        String literal = kind.literal(value);
        if (random.nextInt(6) != 0) {
            return literal;
        }
        // the same value as a literal of a wider or different type: the pruner must hash what the column stores
        Function<String, String> cast = switch (kind) {
            case INT8, INT16, UINT8, UINT16, INT32, UINT32 -> text -> "CAST(%s AS bigint)".formatted(text);
            case INT64 -> text -> "CAST(%s AS decimal(25,0))".formatted(text);
            case DECIMAL_INT32, DECIMAL_INT64 -> text -> "CAST(%s AS decimal(30,8))".formatted(text);
            case FLOAT -> text -> "CAST(%s AS double)".formatted(text);
            case TIMESTAMP_MILLIS, TIMESTAMP_MICROS_ -> text -> "CAST(%s AS timestamp(9))".formatted(text);
            default -> Function.identity();
        };
        return cast.apply(literal);
    }

    private static String values(RandomTable table, int column, int count, SplittableRandom random)
    {
        List<String> values = new ArrayList<>();
        ColumnKind kind = table.columns().get(column).kind();
        for (int i = 0; i < count; i++) {
            values.add(kind.literal(notNaN(kind, pickValue(table, column, random), random)));
        }
        return values.stream().collect(joining(", "));
    }

    private static Object pickValue(RandomTable table, int column, SplittableRandom random)
    {
        RandomTable.Column spec = table.columns().get(column);
        if (random.nextInt(3) == 0) {
            return spec.kind().random(random);
        }
        return spec.pool().get(random.nextInt(spec.pool().size()));
    }
}
