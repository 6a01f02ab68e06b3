package io.parquetbloom.delta;

import io.trino.spi.TrinoException;

import java.util.List;
import java.util.Set;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;

/**
 * What a Delta Lake table asks of its readers, checked before any of its files is read: a reader version this
 * connector does not know, or a reader feature it does not implement, fails naming it, never a partial answer.
 */
public final class DeltaProtocols
{
    /**
     * The reader features this connector implements (PROTOCOL.md, "Table Features"); Trino 483's Delta Lake connector
     * reads the same ones, and {@code variantType}, which has no column type here.
     */
    static final Set<String> READER_FEATURES = Set.of(
            "columnMapping",
            "deletionVectors",
            "timestampNtz",
            "v2Checkpoint",
            "typeWidening",
            "typeWidening-preview",
            "vacuumProtocolCheck");

    private DeltaProtocols() {}

    public static void check(String table, DeltaAction.Protocol protocol)
    {
        int version = protocol.minReaderVersion();
        if (version < 1 || version > 3) {
            throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s needs reader version %d; this connector reads versions 1 to 3".formatted(table, version));
        }
        if (version < 3) {
            // version 2 is column mapping, which the metadata's mode says how to apply
            return;
        }
        List<String> unsupported = protocol.readerFeatures().stream()
                .filter(feature -> !READER_FEATURES.contains(feature))
                .sorted()
                .toList();
        if (!unsupported.isEmpty()) {
            throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s uses reader features this connector does not implement: %s".formatted(table, String.join(", ", unsupported)));
        }
    }
}
