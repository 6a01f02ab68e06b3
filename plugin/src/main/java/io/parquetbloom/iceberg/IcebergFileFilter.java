package io.parquetbloom.iceberg;

import io.parquetbloom.table.FileFilter;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.predicate.Domain;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.Projections;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Iceberg's own evaluation of a query's predicate against each live file's manifest entry: its partition (through
 * the file's own partition spec, whatever the spec evolved to since) and its column bounds, null and NaN counts. What
 * Iceberg cannot decide, or a predicate not translated ({@link IcebergExpressions}), keeps the file.
 */
final class IcebergFileFilter
        implements FileFilter
{
    private final Schema schema;
    private final Map<Integer, PartitionSpec> specs;
    private final Map<String, DataFile> files;
    private final Map<Map<Integer, Domain>, Evaluators> evaluators = new ConcurrentHashMap<>();

    IcebergFileFilter(Schema schema, Map<Integer, PartitionSpec> specs, Map<String, DataFile> files)
    {
        this.schema = requireNonNull(schema, "schema is null");
        this.specs = Map.copyOf(specs);
        this.files = Map.copyOf(files);
    }

    @Override
    public boolean mightMatch(LakeFile file, Map<DataColumn, Domain> domains)
    {
        DataFile dataFile = files.get(file.object().location().toString());
        // Iceberg's metadata knows columns by field id
        Map<Integer, Domain> byFieldId = new HashMap<>();
        domains.forEach((column, domain) -> column.fieldId().ifPresent(id -> byFieldId.put(id, domain)));
        if (dataFile == null || byFieldId.isEmpty()) {
            return true;
        }
        Evaluators evaluator = evaluators.computeIfAbsent(Map.copyOf(byFieldId), key -> new Evaluators(IcebergExpressions.toExpression(schema, key)));
        return evaluator.mightMatch(dataFile);
    }

    private final class Evaluators
    {
        private final Expression expression;
        private final InclusiveMetricsEvaluator metrics;
        private final Map<Integer, Evaluator> partitions = new ConcurrentHashMap<>();

        Evaluators(Expression expression)
        {
            this.expression = expression;
            this.metrics = expression.equals(Expressions.alwaysTrue()) ? null : new InclusiveMetricsEvaluator(schema, expression, true);
        }

        boolean mightMatch(DataFile file)
        {
            if (metrics == null) {
                return true;
            }
            PartitionSpec spec = specs.get(file.specId());
            if (spec != null && !spec.isUnpartitioned()) {
                Evaluator partition = partitions.computeIfAbsent(spec.specId(), _ -> new Evaluator(spec.partitionType(), Projections.inclusive(spec, true).project(expression), true));
                if (!partition.eval(file.partition())) {
                    return false;
                }
            }
            return metrics.eval(file);
        }
    }
}
