package io.parquetbloom.iceberg;

import io.airlift.slice.Slice;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static java.lang.Math.toIntExact;

/**
 * A query's domains as an Iceberg expression, only where the translation is exact: integer, long and date columns
 * (values and ranges), string columns (values only: Iceberg and Trino agree on equality, and ranges would need their
 * orders to agree too). Anything else is left out, which keeps files: an expression here may only be weaker than the
 * query's predicate, never stronger.
 */
final class IcebergExpressions
{
    // more ranges than this are left out rather than evaluated against every file
    private static final int MAX_RANGES = 64;

    private IcebergExpressions() {}

    static Expression toExpression(Schema schema, Map<Integer, Domain> domains)
    {
        Expression expression = Expressions.alwaysTrue();
        for (Map.Entry<Integer, Domain> entry : domains.entrySet()) {
            Types.NestedField field = schema.findField(entry.getKey());
            if (field != null && field.equals(schema.findField(field.name()))) {
                expression = Expressions.and(expression, toExpression(field, entry.getValue()).orElse(Expressions.alwaysTrue()));
            }
        }
        return expression;
    }

    private static Optional<Expression> toExpression(Types.NestedField field, Domain domain)
    {
        if (!supported(field.type(), domain.getType()) || domain.isNone()) {
            return Optional.empty();
        }
        String name = field.name();
        ValueSet values = domain.getValues();
        if (values.isNone()) {
            return domain.isNullAllowed() ? Optional.of(Expressions.isNull(name)) : Optional.empty();
        }
        if (values.isAll()) {
            return domain.isNullAllowed() ? Optional.empty() : Optional.of(Expressions.notNull(name));
        }
        List<Range> ranges = values.getRanges().getOrderedRanges();
        if (ranges.size() > MAX_RANGES) {
            return Optional.empty();
        }
        Expression any = Expressions.alwaysFalse();
        for (Range range : ranges) {
            Optional<Expression> one = toExpression(name, field.type(), range);
            if (one.isEmpty()) {
                return Optional.empty();
            }
            any = Expressions.or(any, one.get());
        }
        return Optional.of(domain.isNullAllowed() ? Expressions.or(any, Expressions.isNull(name)) : any);
    }

    private static Optional<Expression> toExpression(String name, org.apache.iceberg.types.Type type, Range range)
    {
        if (range.isSingleValue()) {
            return Optional.of(Expressions.equal(name, literal(type, range.getSingleValue())));
        }
        if (type instanceof Types.StringType) {
            return Optional.empty();
        }
        Expression expression = Expressions.alwaysTrue();
        if (range.getLowValue().isPresent()) {
            Object low = literal(type, range.getLowValue().get());
            expression = Expressions.and(expression, range.isLowInclusive() ? Expressions.greaterThanOrEqual(name, low) : Expressions.greaterThan(name, low));
        }
        if (range.getHighValue().isPresent()) {
            Object high = literal(type, range.getHighValue().get());
            expression = Expressions.and(expression, range.isHighInclusive() ? Expressions.lessThanOrEqual(name, high) : Expressions.lessThan(name, high));
        }
        return Optional.of(expression);
    }

    private static boolean supported(org.apache.iceberg.types.Type icebergType, Type type)
    {
        return switch (icebergType) {
            case Types.IntegerType _ -> type.equals(INTEGER);
            case Types.LongType _ -> type.equals(BIGINT);
            case Types.DateType _ -> type.equals(DATE);
            case Types.StringType _ -> type instanceof VarcharType varchar && varchar.isUnbounded();
            default -> false;
        };
    }

    private static Object literal(org.apache.iceberg.types.Type type, Object value)
    {
        return switch (type) {
            case Types.IntegerType _, Types.DateType _ -> toIntExact((Long) value);
            case Types.LongType _ -> (Long) value;
            case Types.StringType _ -> ((Slice) value).toStringUtf8();
            default -> throw new IllegalArgumentException("unsupported type " + type);
        };
    }
}
