package io.parquetbloom.connector.procedure;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.parquetbloom.connector.MetadataCacheFlusher;
import io.trino.spi.TrinoException;
import io.trino.spi.procedure.Procedure;

import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code CALL <catalog>.system.flush_metadata_cache()}, or with {@code schema_name} (and {@code table_name}): drops
 * cached footers, filters, no-match facts and listings, like Hive's and Iceberg's procedure of the same name.
 */
public class FlushMetadataCacheProcedure
        implements Provider<Procedure>
{
    private static final MethodHandle FLUSH = Procedures.handle(FlushMetadataCacheProcedure.class, "flushMetadataCache", String.class, String.class);

    private final MetadataCacheFlusher flusher;

    @Inject
    public FlushMetadataCacheProcedure(MetadataCacheFlusher flusher)
    {
        this.flusher = requireNonNull(flusher, "flusher is null");
    }

    @Override
    public Procedure get()
    {
        return new Procedure(
                "system",
                "flush_metadata_cache",
                List.of(
                        new Procedure.Argument("SCHEMA_NAME", VARCHAR, false, null),
                        new Procedure.Argument("TABLE_NAME", VARCHAR, false, null)),
                FLUSH.bindTo(this));
    }

    public void flushMetadataCache(String schemaName, String tableName)
    {
        if (schemaName == null && tableName != null) {
            throw new TrinoException(INVALID_PROCEDURE_ARGUMENT, "flush_metadata_cache: table_name needs schema_name");
        }
        flusher.flush(Optional.ofNullable(schemaName), Optional.ofNullable(tableName));
    }
}
