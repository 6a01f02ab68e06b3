package io.parquetbloom.connector;

import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Identifies a transaction so table listings can be reused within it (and never across transactions).
 */
public record ParquetBloomTransactionHandle(UUID uuid)
        implements ConnectorTransactionHandle
{
    public ParquetBloomTransactionHandle
    {
        requireNonNull(uuid, "uuid is null");
    }

    public static ParquetBloomTransactionHandle create()
    {
        return new ParquetBloomTransactionHandle(UUID.randomUUID());
    }
}
