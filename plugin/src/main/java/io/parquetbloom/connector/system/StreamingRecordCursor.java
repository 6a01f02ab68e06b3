package io.parquetbloom.connector.system;

import io.airlift.slice.Slice;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.type.Type;

import java.util.Iterator;
import java.util.List;

import static io.airlift.slice.Slices.utf8Slice;
import static java.util.Objects.requireNonNull;

/**
 * A system table's rows as they are produced (Java values: String, Number, Boolean, or null), so that a table with
 * rows per row group and column is never materialised on the coordinator.
 */
final class StreamingRecordCursor
        implements RecordCursor
{
    private final List<Type> types;
    private final Iterator<List<Object>> rows;
    private final AutoCloseable onClose;
    private List<Object> current;

    StreamingRecordCursor(List<Type> types, Iterator<List<Object>> rows, AutoCloseable onClose)
    {
        this.types = List.copyOf(types);
        this.rows = requireNonNull(rows, "rows is null");
        this.onClose = requireNonNull(onClose, "onClose is null");
    }

    @Override
    public long getCompletedBytes()
    {
        return 0;
    }

    @Override
    public long getReadTimeNanos()
    {
        return 0;
    }

    @Override
    public Type getType(int field)
    {
        return types.get(field);
    }

    @Override
    public boolean advanceNextPosition()
    {
        if (!rows.hasNext()) {
            current = null;
            return false;
        }
        current = rows.next();
        return true;
    }

    @Override
    public boolean getBoolean(int field)
    {
        return (Boolean) current.get(field);
    }

    @Override
    public long getLong(int field)
    {
        return ((Number) current.get(field)).longValue();
    }

    @Override
    public double getDouble(int field)
    {
        return ((Number) current.get(field)).doubleValue();
    }

    @Override
    public Slice getSlice(int field)
    {
        return utf8Slice((String) current.get(field));
    }

    @Override
    public Object getObject(int field)
    {
        throw new UnsupportedOperationException("no structural columns");
    }

    @Override
    public boolean isNull(int field)
    {
        return current.get(field) == null;
    }

    @Override
    public void close()
    {
        try {
            onClose.close();
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
