package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.parquetbloom.connector.system.MetadataTableName;
import io.trino.plugin.base.security.ForwardingConnectorAccessControl;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSecurityContext;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.security.AccessDeniedException;

import java.util.Optional;
import java.util.Set;

import static io.trino.spi.security.AccessDeniedException.denySelectTable;
import static io.trino.spi.security.AccessDeniedException.denyShowColumns;
import static java.util.Objects.requireNonNull;

/**
 * The catalog's access control: the rules of {@link ParquetBloomSecurityModule}, with a metadata table
 * ({@code "t$properties"}, {@code "t$bloom_filters"}, ...) checked as its table {@code t}, as Hive checks its own:
 * whoever may not read {@code t} may not read what is told of it either. It also learns, from the access check
 * {@code create_key_index} makes, which transaction the procedure's query runs in, so that a cancelled query stops its
 * build ({@link QueryCancellations}).
 */
public class ParquetBloomAccessControl
        extends ForwardingConnectorAccessControl
{
    private final QueryCancellations cancellations;
    private final ConnectorAccessControl rules;

    @Inject
    public ParquetBloomAccessControl(QueryCancellations cancellations, ConnectorAccessControl rules)
    {
        this.cancellations = requireNonNull(cancellations, "cancellations is null");
        this.rules = requireNonNull(rules, "rules is null");
    }

    @Override
    protected ConnectorAccessControl delegate()
    {
        return rules;
    }

    @Override
    public void checkCanInsertIntoTable(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch)
    {
        cancellations.observe(context.getQueryId().getId(), context.getTransactionHandle());
        rules.checkCanInsertIntoTable(context, tableName, branch);
    }

    @Override
    public void checkCanSelectFromColumns(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch, Set<String> columnNames)
    {
        Optional<SchemaTableName> table = baseTable(tableName);
        if (table.isEmpty()) {
            rules.checkCanSelectFromColumns(context, tableName, branch, columnNames);
            return;
        }
        try {
            rules.checkCanSelectFromColumns(context, table.get(), branch, Set.of());
        }
        catch (AccessDeniedException e) {
            denySelectTable(tableName.toString());
        }
    }

    @Override
    public void checkCanShowColumns(ConnectorSecurityContext context, SchemaTableName tableName)
    {
        Optional<SchemaTableName> table = baseTable(tableName);
        if (table.isEmpty()) {
            rules.checkCanShowColumns(context, tableName);
            return;
        }
        try {
            rules.checkCanShowColumns(context, table.get());
        }
        catch (AccessDeniedException e) {
            denyShowColumns(tableName.toString());
        }
    }

    private static Optional<SchemaTableName> baseTable(SchemaTableName tableName)
    {
        return MetadataTableName.isMetadataTableName(tableName) ? MetadataTableName.parse(tableName).map(MetadataTableName::table) : Optional.empty();
    }
}
