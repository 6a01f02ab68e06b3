package io.parquetbloom.tests.differential;

import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TrinoIcebergCatalog;
import io.trino.Session;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.testing.QueryRunner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Iceberg tables for the differential test, written by Trino's own Iceberg connector into the lake's schema folder
 * {@code diff/}, where this connector's layout finds them, and kept in step in the generated rows (the oracle): a
 * format v2 table (position delete files) and a v3 one (deletion vectors), each in several commits of small row groups,
 * with a column renamed, a column widened from integer to bigint and a column added between commits, sometimes an
 * {@code OPTIMIZE} that leaves every earlier file dead, then a {@code DELETE} and an {@code UPDATE}. Every pruning path
 * of this connector then runs over live and dead files, deletes and field ids, against the rows that are live.
 */
final class IcebergDiffTables
{
    static final String CATALOG = "iceberg";
    private static final Set<ColumnKind> FILTERED_KINDS = Set.of(ColumnKind.INT32, ColumnKind.INT64, ColumnKind.STRING, ColumnKind.DOUBLE_, ColumnKind.FLOAT);

    private IcebergDiffTables() {}

    static List<RandomTable> write(QueryRunner runner, String endpoint, SplittableRandom random)
    {
        runner.installPlugin(new IcebergPlugin());
        runner.createCatalog(CATALOG, "iceberg", TrinoIcebergCatalog.properties(endpoint));
        runner.execute("CREATE SCHEMA %s.diff WITH (location = '%sdiff')".formatted(CATALOG, TestingLake.ROOT));
        List<RandomTable> tables = new ArrayList<>();
        for (int formatVersion = 2; formatVersion <= 3; formatVersion++) {
            tables.add(write(runner, RandomTable.iceberg("ice_v" + formatVersion, random), formatVersion, random));
        }
        return tables;
    }

    private static RandomTable write(QueryRunner runner, RandomTable table, int formatVersion, SplittableRandom random)
    {
        List<RandomTable.Column> columns = table.columns();
        int added = columns.size() - 1;
        int widened = columns.size() - 2;
        int renamed = random.nextInt(widened);
        String qualified = "%s.diff.%s".formatted(CATALOG, table.name());
        Session session = Session.builder(runner.getDefaultSession())
                .setCatalogSessionProperty(CATALOG, "parquet_writer_row_group_max_row_count", String.valueOf(table.rowsPerRowGroup()))
                .build();
        List<String> definitions = new ArrayList<>(List.of("id bigint"));
        List<String> filtered = new ArrayList<>();
        for (int i = 0; i < added; i++) {
            RandomTable.Column column = columns.get(i);
            String name = i == renamed ? column.sqlName() + "_before" : column.sqlName();
            definitions.add("%s %s".formatted(name, i == widened ? "integer" : column.kind().trinoWriterType().orElseThrow().getDisplayName()));
            // the types Trino's Iceberg connector writes bloom filters for
            if (FILTERED_KINDS.contains(column.kind()) && random.nextInt(3) > 0) {
                filtered.add("'%s'".formatted(name));
            }
        }
        runner.execute("CREATE TABLE %s (%s) WITH (format_version = %d%s)".formatted(qualified, String.join(", ", definitions), formatVersion,
                filtered.isEmpty() ? "" : ", parquet_bloom_filter_columns = ARRAY[%s]".formatted(String.join(", ", filtered))));

        List<Object[]> rows = new ArrayList<>(table.rows().stream().map(Object[]::clone).toList());
        int evolveAt = random.nextInt(rows.size() / 4, rows.size() * 3 / 4);
        for (Object[] row : rows.subList(0, evolveAt)) {
            // written before the column was added: NULL to every reader
            row[added + 1] = null;
        }
        insert(runner, session, qualified, columns, rows.subList(0, evolveAt), added, renamed, random);
        runner.execute("ALTER TABLE %s RENAME COLUMN %s_before TO %s".formatted(qualified, columns.get(renamed).sqlName(), columns.get(renamed).sqlName()));
        runner.execute("ALTER TABLE %s ALTER COLUMN %s SET DATA TYPE bigint".formatted(qualified, columns.get(widened).sqlName()));
        runner.execute("ALTER TABLE %s ADD COLUMN %s %s".formatted(qualified, columns.get(added).sqlName(), columns.get(added).kind().trinoWriterType().orElseThrow().getDisplayName()));
        insert(runner, session, qualified, columns, rows.subList(evolveAt, rows.size()), columns.size(), -1, random);
        boolean optimized = random.nextBoolean();
        if (optimized) {
            runner.execute(session, "ALTER TABLE %s EXECUTE optimize".formatted(qualified));
        }

        long modulus = random.nextInt(5, 14);
        long remainder = random.nextInt((int) modulus);
        runner.execute("DELETE FROM %s WHERE id %% %d = %d".formatted(qualified, modulus, remainder));
        rows.removeIf(row -> (Long) row[0] % modulus == remainder);
        int updated = random.nextInt(columns.size());
        RandomTable.Column column = columns.get(updated);
        Object value = column.pool().get(random.nextInt(column.pool().size()));
        long from = random.nextLong(rows.size());
        long to = from + random.nextInt(1, 300);
        runner.execute("UPDATE %s SET %s = %s WHERE id BETWEEN %d AND %d".formatted(qualified, column.sqlName(), column.kind().literal(value), from, to));
        rows.stream().filter(row -> (Long) row[0] >= from && (Long) row[0] <= to).forEach(row -> row[updated + 1] = value);
        System.out.println("[differential] %s: Iceberg format v%d, %d live rows in row groups of %d, %s renamed, %s widened, %s added after %d rows%s, id %% %d = %d deleted, %s updated for ids %d to %d, bloom filters on %s".formatted(
                table.name(), formatVersion, rows.size(), table.rowsPerRowGroup(), columns.get(renamed).sqlName(), columns.get(widened).sqlName(), columns.get(added).sqlName(), evolveAt,
                optimized ? ", optimized" : "", modulus, remainder, column.sqlName(), from, to, filtered));
        return table.withRows(rows);
    }

    /**
     * The rows in commits of 200 to 2,500 rows, each a file of one to three row groups.
     *
     * @param width how many of the columns the table has now
     * @param renamed the column still under its first name, before the schema change (whose widened column is still an
     * integer then), or -1 after it
     */
    private static void insert(QueryRunner runner, Session session, String table, List<RandomTable.Column> columns, List<Object[]> rows, int width, int renamed, SplittableRandom random)
    {
        boolean narrow = renamed >= 0;
        int widened = columns.size() - 2;
        List<String> columnNames = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            columnNames.add(i == renamed ? columns.get(i).sqlName() + "_before" : columns.get(i).sqlName());
        }
        String names = String.join(", ", columnNames);
        for (int start = 0; start < rows.size(); ) {
            int end = Math.min(rows.size(), start + random.nextInt(200, 2_500));
            List<String> values = new ArrayList<>();
            for (Object[] row : rows.subList(start, end)) {
                List<String> literals = new ArrayList<>(List.of("BIGINT '%s'".formatted(row[0])));
                for (int i = 0; i < width; i++) {
                    Object value = row[i + 1];
                    literals.add(value != null && i == widened && narrow ? "INTEGER '%s'".formatted(value) : columns.get(i).kind().literal(value));
                }
                values.add("(" + String.join(", ", literals) + ")");
            }
            runner.execute(session, "INSERT INTO %s (id, %s) VALUES %s".formatted(table, names, String.join(", ", values)));
            start = end;
        }
    }
}
