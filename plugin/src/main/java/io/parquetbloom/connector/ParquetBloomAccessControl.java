package io.parquetbloom.connector;

import com.google.inject.Inject;
import io.trino.plugin.base.security.AllowAllAccessControl;
import io.trino.spi.connector.ConnectorSecurityContext;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Allows what the catalog allowed before it had an access control of its own (Trino's system access control still
 * decides); it exists to learn, from the access check {@code create_key_index} makes, which transaction the
 * procedure's query runs in, so that a cancelled query stops its build ({@link QueryCancellations}).
 */
public class ParquetBloomAccessControl
        extends AllowAllAccessControl
{
    private final QueryCancellations cancellations;

    @Inject
    public ParquetBloomAccessControl(QueryCancellations cancellations)
    {
        this.cancellations = requireNonNull(cancellations, "cancellations is null");
    }

    @Override
    public void checkCanInsertIntoTable(ConnectorSecurityContext context, SchemaTableName tableName, Optional<String> branch)
    {
        cancellations.observe(context.getQueryId().getId(), context.getTransactionHandle());
    }
}
