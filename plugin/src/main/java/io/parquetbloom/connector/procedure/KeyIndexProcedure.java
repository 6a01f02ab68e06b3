package io.parquetbloom.connector.procedure;

/**
 * The key index's table procedures, by the names {@code ALTER TABLE ... EXECUTE} takes.
 */
public enum KeyIndexProcedure
{
    /**
     * Builds or refreshes a column's index: the cluster reads the files no segment covers, each node writing its own
     * segment, and the coordinator publishes them.
     */
    CREATE_KEY_INDEX,
    /**
     * Drops a column's index, on the coordinator.
     */
    DROP_KEY_INDEX,
}
