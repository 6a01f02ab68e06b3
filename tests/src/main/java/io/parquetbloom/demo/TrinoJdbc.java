package io.parquetbloom.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Queries through Trino's JDBC driver, as a dashboard would, and reads the connector's pruning metrics from
 * {@code EXPLAIN ANALYZE VERBOSE}.
 */
public final class TrinoJdbc
{
    private static final Pattern LONG_COUNT = Pattern.compile("'(\\w+)' = LongCount\\{total=(\\d+)}");

    private final String url;

    public TrinoJdbc(int port, String catalog, String schema)
    {
        this.url = "jdbc:trino://127.0.0.1:%d/%s/%s".formatted(port, catalog, schema);
    }

    public String url()
    {
        return url;
    }

    public List<List<Object>> query(String sql, Map<String, String> sessionProperties)
            throws SQLException
    {
        try (Connection connection = connect(sessionProperties);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /**
     * Runs a statement without a result ({@code CALL}, {@code SET SESSION}).
     */
    public void execute(String sql)
            throws SQLException
    {
        try (Connection connection = connect(Map.of());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * The connector's counters for a query, summed over its table scans.
     */
    public Map<String, Long> metrics(String sql, Map<String, String> sessionProperties)
            throws SQLException
    {
        StringBuilder plan = new StringBuilder();
        for (List<Object> row : query("EXPLAIN ANALYZE VERBOSE " + sql, sessionProperties)) {
            plan.append(row.getFirst()).append('\n');
        }
        Map<String, Long> metrics = new HashMap<>();
        Matcher matcher = LONG_COUNT.matcher(plan);
        while (matcher.find()) {
            metrics.merge(matcher.group(1), Long.parseLong(matcher.group(2)), Long::sum);
        }
        return metrics;
    }

    private Connection connect(Map<String, String> sessionProperties)
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("user", "demo");
        if (!sessionProperties.isEmpty()) {
            StringBuilder value = new StringBuilder();
            sessionProperties.forEach((name, property) -> value.append(value.isEmpty() ? "" : ";").append(name).append(':').append(property));
            properties.setProperty("sessionProperties", value.toString());
        }
        return DriverManager.getConnection(url, properties);
    }
}
