package io.parquetbloom.connector.system;

import com.google.inject.Inject;
import io.parquetbloom.keyindex.KeyIndexLocations;
import io.parquetbloom.keyindex.KeyIndexPointer;
import io.parquetbloom.keyindex.KeyIndexPointers;
import io.parquetbloom.keyindex.KeyIndexReader;
import io.parquetbloom.keyindex.KeyIndexState;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeTable;
import io.parquetbloom.table.TableSchemaReader;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * {@code "<table>$key_index"}: one row per indexed column, saying how much of the table as listed now its index
 * covers (a stale index is slower, never wrong), how big it is and when it was built, and what of it cannot be
 * read.
 */
public class KeyIndexTable
        implements SystemTable
{
    private static final List<ColumnMetadata> COLUMNS = List.of(
            new ColumnMetadata("column_name", VARCHAR),
            new ColumnMetadata("segments", INTEGER),
            new ColumnMetadata("files_covered", BIGINT),
            new ColumnMetadata("files_stale", BIGINT),
            new ColumnMetadata("files_uncovered", BIGINT),
            new ColumnMetadata("files_deleted", BIGINT),
            new ColumnMetadata("entries", BIGINT),
            new ColumnMetadata("index_bytes", BIGINT),
            new ColumnMetadata("bytes_per_entry", DOUBLE),
            new ColumnMetadata("last_built", TIMESTAMP_TZ_MILLIS),
            new ColumnMetadata("last_build_millis", BIGINT),
            new ColumnMetadata("problems", VARCHAR));

    private final ConnectorTableMetadata metadata;
    private final Supplier<LakeTable> table;
    private final KeyIndexReader reader;
    private final S3ObjectStore store;
    private final TableSchemaReader schemaReader;

    public KeyIndexTable(SchemaTableName name, Supplier<LakeTable> table, KeyIndexReader reader, S3ObjectStore store, TableSchemaReader schemaReader)
    {
        this.metadata = new ConnectorTableMetadata(requireNonNull(name, "name is null"), COLUMNS);
        this.table = requireNonNull(table, "table is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.store = requireNonNull(store, "store is null");
        this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
    }

    @Override
    public Distribution getDistribution()
    {
        return Distribution.SINGLE_COORDINATOR;
    }

    @Override
    public ConnectorTableMetadata getTableMetadata()
    {
        return metadata;
    }

    @Override
    public RecordCursor cursor(ConnectorTransactionHandle transaction, ConnectorSession session, TupleDomain<Integer> constraint)
    {
        LakeTable lakeTable = table.get();
        InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(COLUMNS);
        S3RequestStats stats = new S3RequestStats();
        Map<String, String> currentNames = currentNames(lakeTable, stats);
        for (String column : new TreeMap<>(KeyIndexPointers.of(lakeTable).byColumn()).keySet()) {
            KeyIndexState state = KeyIndexState.read(reader, store, lakeTable.companionFolder(), column, stats);
            KeyIndexState.Coverage coverage = state.coverage(lakeTable.filesByRelativePath());
            List<KeyIndexPointer.Segment> segments = state.pointer().map(KeyIndexPointer::segments).orElse(List.of());
            long entries = segments.stream().mapToLong(KeyIndexPointer.Segment::entries).sum();
            long bytes = segments.stream().mapToLong(KeyIndexPointer.Segment::size).sum();
            KeyIndexPointer.Segment last = segments.isEmpty() ? null : segments.getLast();
            List<String> problems = problems(lakeTable, column, state, segments);
            String name = currentNames.get(column);
            if (name == null) {
                // kept as name@field-id[@names]: shown by the name it had, with the id
                name = column.replaceFirst("@([0-9]+)(@[0-9a-f]+)?$", "");
                problems.add("indexes a column this table no longer has under the same field id and names (%s): no lookup uses it".formatted(column));
            }
            rows.addRow(
                    name,
                    segments.size(),
                    (long) coverage.covered(),
                    (long) coverage.stale(),
                    (long) coverage.uncovered(),
                    (long) coverage.deleted(),
                    entries,
                    bytes,
                    entries == 0 ? null : (double) bytes / entries,
                    last == null ? null : packDateTimeWithZone(last.builtAtMillis(), UTC_KEY),
                    last == null ? null : last.buildMillis(),
                    problems.isEmpty() ? null : String.join("; ", problems));
        }
        return rows.build().cursor();
    }

    private List<String> problems(LakeTable table, String column, KeyIndexState state, List<KeyIndexPointer.Segment> segments)
    {
        List<String> problems = new ArrayList<>(state.problems());
        for (KeyIndexPointer.Segment segment : segments) {
            if (reader.isDamaged(table.companionFolder(), column, segment)) {
                problems.add("segment %s has a page that fails its checksum: lookups it answers plan without the index; create_key_index reads its files again".formatted(segment.name()));
            }
        }
        return problems;
    }

    /**
     * The table's columns by what their index is kept by ({@link KeyIndexLocations#indexedColumn}): a table format's
     * index is kept by field id, shown by the column's name now. A folder table's by name, read from no file.
     */
    private Map<String, String> currentNames(LakeTable lakeTable, S3RequestStats stats)
    {
        Map<String, String> names = new HashMap<>();
        if (lakeTable.snapshot().isEmpty()) {
            KeyIndexPointers.of(lakeTable).byColumn().keySet().forEach(column -> names.put(column, column));
            return names;
        }
        for (TableSchemaReader.DataColumn column : schemaReader.readColumns(lakeTable, stats)) {
            names.put(KeyIndexLocations.indexedColumn(column.name(), column.fieldId(), column.mappedNames()), column.name());
        }
        return names;
    }

    /**
     * {@code "<table>$key_index"}.
     */
    public static final class Provider
            implements MetadataTableProvider
    {
        private final KeyIndexReader reader;
        private final S3ObjectStore store;
        private final TableSchemaReader schemaReader;

        @Inject
        public Provider(KeyIndexReader reader, S3ObjectStore store, TableSchemaReader schemaReader)
        {
            this.reader = requireNonNull(reader, "reader is null");
            this.store = requireNonNull(store, "store is null");
            this.schemaReader = requireNonNull(schemaReader, "schemaReader is null");
        }

        @Override
        public String suffix()
        {
            return "key_index";
        }

        @Override
        public SystemTable create(MetadataTableRequest request)
        {
            return new KeyIndexTable(request.name(), request.lakeTable(), reader, store, schemaReader);
        }
    }
}
