package io.parquetbloom.keyindex;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.util.function.BooleanSupplier;

import static io.trino.spi.StandardErrorCode.USER_CANCELED;

/**
 * A build's query, cancelled or timed out: Trino does not interrupt a procedure, so the build asks before each row
 * group it reads and before each write.
 */
public record BuildCancellation(SchemaTableName table, String column, BooleanSupplier cancelled)
{
    /**
     * A build nothing cancels but its query's failure: the coordinator's planning and publishing of a build by the
     * cluster, whose query Trino stops itself.
     */
    public static BuildCancellation never(SchemaTableName table, String column)
    {
        return new BuildCancellation(table, column, () -> false);
    }

    public void check()
    {
        if (cancelled.getAsBoolean()) {
            throw new TrinoException(USER_CANCELED, "create_key_index of %s.%s stopped: its query was cancelled or timed out; the index is as it was".formatted(table, column));
        }
    }
}
