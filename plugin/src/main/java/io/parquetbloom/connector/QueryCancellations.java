package io.parquetbloom.connector;

import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Tells a running procedure that its query was cancelled or timed out. Trino ends such a query by its state and never
 * interrupts the thread running a {@code CALL}; it then rolls back the query's transaction. The connector's access
 * control learns which transaction a procedure's query runs in when the procedure checks access
 * ({@link ParquetBloomAccessControl}), so the rollback of that transaction marks the query cancelled.
 */
public class QueryCancellations
{
    private final Map<String, AtomicBoolean> byQuery = new ConcurrentHashMap<>();
    private final Map<ConnectorTransactionHandle, String> queryOfTransaction = new ConcurrentHashMap<>();

    void observe(String queryId, ConnectorTransactionHandle transaction)
    {
        byQuery.computeIfAbsent(queryId, _ -> new AtomicBoolean());
        queryOfTransaction.put(transaction, queryId);
    }

    void ended(ConnectorTransactionHandle transaction, boolean rolledBack)
    {
        String queryId = queryOfTransaction.remove(transaction);
        if (queryId == null) {
            return;
        }
        AtomicBoolean cancelled = byQuery.remove(queryId);
        if (cancelled != null && rolledBack) {
            cancelled.set(true);
        }
    }

    /**
     * Whether the query was cancelled (or failed, or timed out) since; never true for a query whose transaction the
     * access control did not see.
     */
    public BooleanSupplier cancelled(String queryId)
    {
        AtomicBoolean cancelled = byQuery.get(queryId);
        return cancelled == null ? () -> false : cancelled::get;
    }
}
