package io.parquetbloom.tests.differential;

import io.parquetbloom.fixtures.ParquetFixtureWriter;
import io.parquetbloom.testing.BadFiles;
import io.parquetbloom.testing.TestingLake;
import io.parquetbloom.testing.TrinoParquetFiles;
import io.trino.spi.type.Type;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static io.trino.spi.type.BigintType.BIGINT;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A random table for the differential test: an {@code id} column plus a few columns of random type pairings, names
 * in mixed case, NULL patterns from none to all, value pools from 2 distinct values to all distinct, 1-64 row groups
 * over 1-3 files written by parquet-java (filters sized well or badly, dictionary or not, dictionaries that overflow a
 * small bound and fall back to PLAIN midway, footers with null counts, encoding stats, dictionary extents,
 * statistics or {@code bloom_filter_length} removed, filter offsets outside the data) or by Trino's own
 * {@code ParquetWriter}. Two in five tables are partitioned by a varchar whose folder names are prefixes of each
 * other followed by bytes below {@code /}, Hive escapes and supplementary characters; a few have a row group that
 * trino-parquet cannot locate, which every query must refuse.
 */
public final class RandomTable
{
    public enum Writer
    {
        PARQUET_JAVA, TRINO,
        /**
         * Trino's Iceberg connector, in commits, with a schema change, deletes and an update ({@link IcebergDiffTables})
         */
        ICEBERG,
        /**
         * parquet-java's files under a Delta Lake log written by the test, with dead files and deletion vectors
         * ({@link DeltaDiffTables})
         */
        DELTA_LAKE
    }

    /**
     * How the writer names data files: ours, Hive ({@code 000000_0}), Trino ({@code <query id>_<uuid>}), Flink
     * ({@code part-<uuid>-0-N}) and Spark ({@code part-N-<uuid>-c000.snappy.parquet}); file N sorts after file N-1.
     */
    public enum Naming
    {
        PLAIN, HIVE, TRINO, FLINK, SPARK;

        String fileName(int file)
        {
            return switch (this) {
                case PLAIN -> "part-%05d.parquet".formatted(file);
                case HIVE -> "%06d_0".formatted(file);
                case TRINO -> "20261206_010203_%05d_abcde_6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1".formatted(file);
                case FLINK -> "part-6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1-0-%d".formatted(file);
                case SPARK -> "part-%05d-6d1f1b2c-4f4e-4a57-9d3b-0c8f00c7e5a1-c000.snappy.parquet".formatted(file);
            };
        }
    }

    /**
     * Where the table's files are: the folder layout's {@code warehouse/diff/<table>/}, or registered with
     * {@code register_table} at the root of a bucket of its own or at a deep prefix with odd folder names.
     */
    public enum Placement
    {
        FOLDER, BUCKET_ROOT, DEEP_PREFIX
    }

    /**
     * @param fileName the column's name in the files (mixed case); Trino names it in lower case
     * @param nullRate share of NULLs (1.0: all NULL)
     * @param pool the distinct values drawn from
     * @param partition a {@code key=value} folder level rather than a column of the files
     */
    public record Column(String fileName, ColumnKind kind, double nullRate, List<Object> pool, boolean partition)
    {
        public Column(String fileName, ColumnKind kind, double nullRate, List<Object> pool)
        {
            this(fileName, kind, nullRate, pool, false);
        }

        public String sqlName()
        {
            return fileName.toLowerCase(Locale.ROOT);
        }

        // a table's columns differ by name; hashing the value pool (thousands of values) on every query is what
        // made generating queries slower than running them
        @Override
        public boolean equals(Object other)
        {
            return other instanceof Column column && column.fileName.equals(fileName);
        }

        @Override
        public int hashCode()
        {
            return fileName.hashCode();
        }
    }

    private final String name;
    private final Writer writer;
    private final List<Column> columns;
    private final List<Object[]> rows;
    private final int rowsPerRowGroup;
    private final int files;
    private final boolean bigPayload;
    private final boolean unlocatableRowGroup;
    private final Naming naming;
    private final Placement placement;
    private final boolean debris;
    // the data column only the newest file has (older files were written before it was added), or -1
    private final int addedColumn;
    // the INT32 or FLOAT column the newest file holds as INT64 or DOUBLE, or -1
    private final int widenedColumn;
    private final boolean dictionaryTrouble;

    /**
     * A file of the table: its path below the table's folder and its bytes.
     */
    public record TableFile(String path, byte[] bytes) {}

    private RandomTable(String name, Writer writer, List<Column> columns, List<Object[]> rows, int rowsPerRowGroup, int files, boolean bigPayload, boolean unlocatableRowGroup, Naming naming, Placement placement, boolean debris, int addedColumn, int widenedColumn, boolean dictionaryTrouble)
    {
        this.dictionaryTrouble = dictionaryTrouble;
        this.widenedColumn = widenedColumn;
        this.naming = naming;
        this.placement = placement;
        this.debris = debris;
        this.addedColumn = addedColumn;
        this.unlocatableRowGroup = unlocatableRowGroup;
        this.name = name;
        this.writer = writer;
        this.columns = columns;
        this.rows = rows;
        this.rowsPerRowGroup = rowsPerRowGroup;
        this.files = files;
        this.bigPayload = bigPayload;
    }

    /**
     * @param big one file larger than several splits
     * @param unlocatable a table whose first file has a row group trino-parquet cannot locate (others may have one
     * by chance)
     */
    public static RandomTable generate(String name, SplittableRandom random, boolean big, boolean unlocatable)
    {
        return generate(name, random, new Shape(big, unlocatable, false, Optional.empty(), Optional.empty(), Optional.empty(), List.of()));
    }

    /**
     * What a table must have, so that every shape the connector has a branch for is generated whatever the seed.
     *
     * @param big one file larger than several splits
     * @param unlocatable a table whose first file has a row group trino-parquet cannot locate
     * @param dictionaryTrouble every file dictionary-encoded (so parquet-java writes no filters) with every chunk's
     * dictionary extent moved: lookups must prune by the dictionaries that still decode and fail open on the others
     * @param evolvedFrom a schema a later writer evolved, widening a column of this kind (INT32 or FLOAT)
     * @param naming the writer's file names (random when empty)
     * @param placement where the files are (random when empty; a big or damaged table is always in its folder)
     */
    /**
     * @param extraKinds columns of these kinds, whatever else is drawn (so every seed reads and indexes them)
     */
    public record Shape(boolean big, boolean unlocatable, boolean dictionaryTrouble, Optional<ColumnKind> evolvedFrom, Optional<Naming> naming, Optional<Placement> placement, List<ColumnKind> extraKinds) {}

    public static RandomTable generate(String name, SplittableRandom random, Shape shape)
    {
        boolean big = shape.big();
        boolean unlocatable = shape.unlocatable();
        boolean dictionaryTrouble = shape.dictionaryTrouble();
        boolean forced = dictionaryTrouble || shape.evolvedFrom().isPresent() || !shape.extraKinds().isEmpty();
        Writer writer = !big && !unlocatable && !forced && random.nextInt(4) == 0 ? Writer.TRINO : Writer.PARQUET_JAVA;
        List<ColumnKind> kinds = writer == Writer.TRINO ? ColumnKind.trinoWritable() : Arrays.asList(ColumnKind.values());
        int columnCount = random.nextInt(3, 8);
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < columnCount; i++) {
            ColumnKind kind = kinds.get(random.nextInt(kinds.size()));
            String fileName = mixedCase("c%d_%s".formatted(i, kind.name().toLowerCase(Locale.ROOT).replace("_", "")), random);
            double nullRate = switch (random.nextInt(6)) {
                case 0 -> 0.1;
                case 1 -> 0.5;
                case 2 -> random.nextInt(4) == 0 ? 1.0 : 0.02;
                default -> 0;
            };
            int poolSize = switch (random.nextInt(4)) {
                case 0 -> 2;
                case 1 -> 30;
                case 2 -> 500;
                default -> 100_000;
            };
            columns.add(new Column(fileName, kind, nullRate, pool(kind, poolSize, random)));
        }
        for (ColumnKind kind : shape.extraKinds()) {
            String fileName = "c%d_%s".formatted(columns.size(), kind.name().toLowerCase(Locale.ROOT).replace("_", ""));
            columns.add(new Column(fileName, kind, random.nextBoolean() ? 0.1 : 0, pool(kind, 500, random)));
        }
        if (big) {
            // incompressible values make files larger than the 1 MB splits of catalog lake_small_splits
            columns.add(new Column("Payload", ColumnKind.BINARY, 0, List.of()));
        }
        else if (!unlocatable && shape.evolvedFrom().isEmpty() && random.nextInt(5) < 2) {
            columns.add(partitionColumn(random));
        }

        int rowGroups = switch (random.nextInt(10)) {
            case 0 -> random.nextInt(25, 65);
            case 1, 2, 3 -> random.nextInt(9, 25);
            default -> random.nextInt(1, 9);
        };
        int rowsPerRowGroup = big ? 1_000 : random.nextInt(20, 200);
        if (big) {
            rowGroups = 12;
        }
        // the big table is one file: larger than a split of lake_small_splits, so row groups fall on split boundaries
        int files = big ? 1 : Math.min(rowGroups, random.nextInt(1, 4));
        if (unlocatable) {
            rowGroups = Math.max(rowGroups, 4);
            files = 2;
        }
        if (shape.evolvedFrom().isPresent()) {
            rowGroups = Math.max(rowGroups, 2);
            files = Math.max(files, 2);
        }
        // a schema a later writer evolved: it added the last column (only the newest file has it) and widened an
        // INT32 to INT64 or a FLOAT to DOUBLE (older files hold the narrow type)
        boolean evolves = shape.evolvedFrom().isPresent() || (!unlocatable && !big && writer == Writer.PARQUET_JAVA && files >= 2 && columns.stream().noneMatch(Column::partition) && random.nextInt(3) == 0);
        int widenedColumn = -1;
        if (evolves) {
            widenedColumn = random.nextInt(columns.size() - 1);
            ColumnKind narrow = shape.evolvedFrom().orElseGet(() -> random.nextBoolean() ? ColumnKind.INT32 : ColumnKind.FLOAT);
            Column replaced = columns.get(widenedColumn);
            columns.set(widenedColumn, new Column(mixedCase("c%d_widened%s".formatted(widenedColumn, narrow.name().toLowerCase(Locale.ROOT)), random), narrow, replaced.nullRate(), pool(narrow, replaced.pool().size(), random)));
        }
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < rowGroups * rowsPerRowGroup; id++) {
            Object[] row = new Object[columns.size() + 1];
            row[0] = (long) id;
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                if (column.pool().isEmpty()) {
                    byte[] payload = new byte[180];
                    random.nextBytes(payload);
                    row[i + 1] = payload;
                }
                else if (column.nullRate() > 0 && random.nextDouble() < column.nullRate()) {
                    row[i + 1] = null;
                }
                else {
                    row[i + 1] = column.pool().get(random.nextInt(column.pool().size()));
                }
            }
            rows.add(row);
        }
        // a footer that trino-parquet reads without one of its row groups: every query must refuse the table (the
        // first file's, so that the newest file still gives the table its columns)
        boolean damaged = unlocatable || (!big && writer == Writer.PARQUET_JAVA && columns.stream().noneMatch(Column::partition) && files >= 2 && rowGroups >= 2 * files && random.nextInt(8) == 0);
        Naming naming = shape.naming().orElseGet(() -> Naming.values()[random.nextInt(Naming.values().length)]);
        Placement placement = damaged || big ? Placement.FOLDER : shape.placement().orElseGet(() -> Placement.values()[random.nextInt(4) % 3]);
        // a column a later writer added: only the newest file has it, older ones read NULL
        int addedColumn = evolves ? columns.size() - 1 : -1;
        return new RandomTable(name, writer, List.copyOf(columns), List.copyOf(rows), rowsPerRowGroup, files, big, damaged, naming, placement, random.nextBoolean(), addedColumn, widenedColumn, dictionaryTrouble);
    }

    /**
     * A table for Trino's Iceberg connector to write ({@link IcebergDiffTables}): 2 to 4 columns of the kinds it writes,
     * then a bigint column whose values fit an integer (created as one and widened) and a column a schema change adds
     * after the first commits (its rows before then are NULL here once written); 2,000 to 6,000 rows in row groups of
     * 1,000.
     */
    static RandomTable iceberg(String name, SplittableRandom random)
    {
        List<ColumnKind> kinds = ColumnKind.icebergWritable();
        List<Column> columns = new ArrayList<>();
        int count = random.nextInt(2, 5);
        for (int i = 0; i < count; i++) {
            ColumnKind kind = kinds.get(random.nextInt(kinds.size()));
            double nullRate = random.nextInt(3) == 0 ? 0.2 : 0;
            int poolSize = List.of(2, 30, 500, 100_000).get(random.nextInt(4));
            columns.add(new Column("c%d_%s".formatted(i, kind.name().toLowerCase(Locale.ROOT).replace("_", "")), kind, nullRate, pool(kind, poolSize, random)));
        }
        columns.add(new Column("c%d_widened".formatted(count), ColumnKind.INT64, 0.1, pool(ColumnKind.INT32, 500, random)));
        ColumnKind addedKind = kinds.get(random.nextInt(kinds.size()));
        columns.add(new Column("c%d_added".formatted(count + 1), addedKind, 0.1, pool(addedKind, 30, random)));
        List<Object[]> rows = new ArrayList<>();
        int rowCount = random.nextInt(2_000, 6_000);
        for (int id = 0; id < rowCount; id++) {
            Object[] row = new Object[columns.size() + 1];
            row[0] = (long) id;
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                row[i + 1] = column.nullRate() > 0 && random.nextDouble() < column.nullRate() ? null : column.pool().get(random.nextInt(column.pool().size()));
            }
            rows.add(row);
        }
        // row groups of 1,000 rows: the fewest Trino's Iceberg writer takes
        return new RandomTable(name, Writer.ICEBERG, List.copyOf(columns), List.copyOf(rows), 1_000, 1, false, false, Naming.PLAIN, Placement.FOLDER, false, -1, -1, false);
    }

    /**
     * A table whose parquet-java files a Delta Lake log names ({@link DeltaDiffTables}): 2 to 5 columns of the kinds a
     * Delta schema has a type for, sometimes a partition column, 4 to 30 row groups of 20 to 200 rows in 2 to 5
     * files; its columns named as given (the physical names of a table with column mapping).
     */
    static RandomTable delta(String name, SplittableRandom random, List<ColumnKind> kinds)
    {
        List<Column> columns = new ArrayList<>();
        int count = random.nextInt(2, 6);
        for (int i = 0; i < count; i++) {
            ColumnKind kind = kinds.get(random.nextInt(kinds.size()));
            double nullRate = List.of(0.0, 0.0, 0.1, 0.5).get(random.nextInt(4));
            int poolSize = List.of(2, 30, 500, 100_000).get(random.nextInt(4));
            columns.add(new Column(mixedCase("c%d_%s".formatted(i, kind.name().toLowerCase(Locale.ROOT).replace("_", "")), random), kind, nullRate, pool(kind, poolSize, random)));
        }
        if (random.nextInt(5) < 2) {
            columns.add(partitionColumn(random));
        }
        int rowsPerRowGroup = random.nextInt(20, 200);
        int rowGroups = random.nextInt(4, 31);
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < rowGroups * rowsPerRowGroup; id++) {
            Object[] row = new Object[columns.size() + 1];
            row[0] = (long) id;
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                row[i + 1] = column.nullRate() > 0 && random.nextDouble() < column.nullRate() ? null : column.pool().get(random.nextInt(column.pool().size()));
            }
            rows.add(row);
        }
        int files = Math.min(rowGroups, random.nextInt(2, 6));
        return new RandomTable(name, Writer.DELTA_LAKE, List.copyOf(columns), List.copyOf(rows), rowsPerRowGroup, files, false, false, Naming.SPARK, Placement.FOLDER, false, -1, -1, false);
    }

    /**
     * This table with its columns under other names (in order), its rows the same: a Delta Lake table's columns by
     * their logical names, whose files name them by physical names.
     */
    RandomTable withColumnNames(List<String> names)
    {
        List<Column> renamed = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            renamed.add(new Column(names.get(i), column.kind(), column.nullRate(), column.pool(), column.partition()));
        }
        return new RandomTable(name, writer, List.copyOf(renamed), rows, rowsPerRowGroup, files, bigPayload, unlocatableRowGroup, naming, placement, debris, addedColumn, widenedColumn, dictionaryTrouble);
    }

    /**
     * This table holding {@code rows}: what its writer left live.
     */
    RandomTable withRows(List<Object[]> rows)
    {
        return new RandomTable(name, writer, columns, List.copyOf(rows), rowsPerRowGroup, files, bigPayload, unlocatableRowGroup, naming, placement, debris, addedColumn, widenedColumn, dictionaryTrouble);
    }

    int rowsPerRowGroup()
    {
        return rowsPerRowGroup;
    }

    public Naming naming()
    {
        return naming;
    }

    public Placement placement()
    {
        return placement;
    }

    /**
     * Whether a later writer added a column that only the newest file holds.
     */
    public boolean evolves()
    {
        return addedColumn >= 0;
    }

    /**
     * The column the newest file holds in a wider type than older files, if any.
     */
    public Optional<Column> widenedColumn()
    {
        return widenedColumn < 0 ? Optional.empty() : Optional.of(columns.get(widenedColumn));
    }

    /**
     * The bucket of the table's files.
     */
    public String bucket()
    {
        return placement == Placement.BUCKET_ROOT ? "diff-root-" + name : TestingLake.BUCKET;
    }

    /**
     * The key prefix of the table's files in {@link #bucket()} ("" for a bucket root).
     */
    public String prefix()
    {
        return switch (placement) {
            case FOLDER -> "warehouse/diff/%s/".formatted(name);
            case BUCKET_ROOT -> "";
            case DEEP_PREFIX -> "deep/Q1 a+b/run=7/\u00FCber %s/data/".formatted(name);
        };
    }

    public String location()
    {
        return "s3://%s/%s".formatted(bucket(), prefix());
    }

    /**
     * What writers leave beside data files, none of which may add a row: Spark's {@code _SUCCESS} and a task's
     * {@code _temporary/} copy of a file, Hadoop's hidden checksums, a README and a schema sidecar.
     */
    public List<TableFile> debris(List<TableFile> files)
    {
        if (!debris || files.isEmpty()) {
            return List.of();
        }
        TableFile first = files.getFirst();
        String folder = first.path().contains("/") ? first.path().substring(0, first.path().lastIndexOf('/') + 1) : "";
        return List.of(
                new TableFile("_SUCCESS", new byte[0]),
                new TableFile(folder + "." + first.path().substring(folder.length()) + ".crc", new byte[] {1, 2, 3, 4}),
                new TableFile("_temporary/0/_temporary/attempt_0/" + first.path(), first.bytes()),
                new TableFile(folder + "README.md", "written by the differential test".getBytes(UTF_8)),
                new TableFile("schema.json", "{}".getBytes(UTF_8)));
    }

    /**
     * Partition values as Hive writes their folders ({@code %XX} escapes), chosen so that folder names are prefixes
     * of each other followed by bytes below {@code /} ({@code us}, {@code us-east}, {@code us x}, {@code us%2Fx}),
     * with supplementary characters beside escapes, and the default (NULL) partition.
     */
    private static final Map<String, String> PARTITION_FOLDERS = folders(
            "us", "us", "us-east", "us-east", "us-west", "us-west", "us.1", "us.1", "us x", "us x", "us!", "us!",
            "us(1)", "us(1)", "us/x", "us%2Fx", "us:x", "us%3Ax", "\uD83D\uDE00:x", "\uD83D\uDE00%3Ax", "\uD83D\uDE00", "\uD83D\uDE00",
            "v=1", "v%3D1", "v=1.5", "v%3D1.5", "a%b", "a%25b", "a", "a", "\u00E9t\u00E9", "\u00E9t\u00E9");

    private static Map<String, String> folders(String... valueAndFolder)
    {
        Map<String, String> folders = new LinkedHashMap<>();
        for (int i = 0; i < valueAndFolder.length; i += 2) {
            folders.put(valueAndFolder[i], valueAndFolder[i + 1]);
        }
        return folders;
    }

    private static Column partitionColumn(SplittableRandom random)
    {
        List<String> all = new ArrayList<>(PARTITION_FOLDERS.keySet());
        List<Object> values = new ArrayList<>();
        for (int count = random.nextInt(3, 12); count > 0 && !all.isEmpty(); count--) {
            values.add(all.remove(random.nextInt(all.size())));
        }
        return new Column(mixedCase("p_region", random), ColumnKind.STRING, random.nextInt(4) == 0 ? 0.1 : 0, List.copyOf(values), true);
    }

    public boolean unlocatableRowGroup()
    {
        return unlocatableRowGroup;
    }

    private static List<Object> pool(ColumnKind kind, int size, SplittableRandom random)
    {
        Map<Object, Object> values = new LinkedHashMap<>();
        for (int attempt = 0; attempt < size * 3 && values.size() < size; attempt++) {
            Object value = kind.random(random);
            values.putIfAbsent(kind.identity(value), value);
        }
        // NaN in half the floating columns: row groups where it is not the first value have min/max without it (as
        // parquet-java and Arrow write them), and predicates that admit NaN must still find its rows
        Object nan = kind == ColumnKind.FLOAT ? (Object) Float.NaN : kind == ColumnKind.DOUBLE_ ? (Object) Double.NaN : null;
        if (nan != null && random.nextBoolean()) {
            values.putIfAbsent(kind.identity(nan), nan);
        }
        return List.copyOf(values.values());
    }

    private static String mixedCase(String name, SplittableRandom random)
    {
        if (random.nextInt(3) != 0) {
            return name;
        }
        StringBuilder mixed = new StringBuilder();
        for (char c : name.toCharArray()) {
            mixed.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
        }
        return mixed.toString();
    }

    public String name()
    {
        return name;
    }

    public Writer writer()
    {
        return writer;
    }

    public List<Column> columns()
    {
        return columns;
    }

    /**
     * Rows as {@code [id, column values...]}.
     */
    public List<Object[]> rows()
    {
        return rows;
    }

    public boolean big()
    {
        return bigPayload;
    }

    public int rowGroups()
    {
        return rows.size() / rowsPerRowGroup;
    }

    /**
     * The table's files, in order; each holds whole row groups. A partitioned table has a folder per value
     * ({@code p_region=us%2Fx/}), each with one or two files of its rows, below, beside and above plain folders.
     */
    private static final List<String> PLAIN_ABOVE = List.of("", "", "raw/", "data/v2/");

    public List<TableFile> write(Path work, SplittableRandom random)
    {
        if (writer == Writer.ICEBERG) {
            throw new IllegalStateException("an Iceberg table is written by Trino's Iceberg connector: " + name);
        }
        int partition = columns.stream().filter(Column::partition).findFirst().map(columns::indexOf).orElse(-1);
        if (partition < 0) {
            List<TableFile> result = new ArrayList<>();
            List<byte[]> files = writeFiles(work, "", rows, this.files, random);
            for (int file = 0; file < files.size(); file++) {
                result.add(new TableFile(naming.fileName(file), files.get(file)));
            }
            return result;
        }
        Map<Object, List<Object[]>> byValue = new LinkedHashMap<>();
        for (Object[] row : rows) {
            byValue.computeIfAbsent(row[partition + 1] == null ? "" : row[partition + 1], _ -> new ArrayList<>()).add(row);
        }
        List<TableFile> result = new ArrayList<>();
        // plain folders as writers put them: above the partitions (Firehose's raw/, Glue's data/v2/), below them, and an
        // archive/ beside them holding some partitions; every file's partition is still its p_region= folder
        String above = PLAIN_ABOVE.get(random.nextInt(PLAIN_ABOVE.size()));
        String below = random.nextInt(4) == 0 ? "data/" : "";
        boolean archive = random.nextInt(3) == 0;
        byValue.forEach((value, partitionRows) -> {
            String folder = "%s=%s".formatted(columns.get(partition).fileName(), value.equals("") ? "__HIVE_DEFAULT_PARTITION__" : PARTITION_FOLDERS.get(value));
            String beside = archive && random.nextBoolean() ? "archive/" : "";
            int fileCount = partitionRows.size() > rowsPerRowGroup && random.nextBoolean() ? 2 : 1;
            List<byte[]> files = writeFiles(work, "-" + result.size(), partitionRows, fileCount, random);
            for (int file = 0; file < files.size(); file++) {
                result.add(new TableFile("%s%s%s/%s%s".formatted(above, beside, folder, below, naming.fileName(file)), files.get(file)));
            }
        });
        return result;
    }

    /**
     * One file of {@code fileRows} (in that order), written by parquet-java as this table's files are: what a table
     * format's log names ({@link DeltaDiffTables}).
     */
    byte[] writeFile(Path work, String fileName, List<Object[]> fileRows, SplittableRandom random)
    {
        byte[] bytes = writeParquetJava(work.resolve(name + "-" + fileName), fileRows, fileColumns(), true, random);
        return random.nextInt(5) == 0 ? damagedOffsetIndexes(bytes, random) : bytes;
    }

    private List<byte[]> writeFiles(Path work, String suffix, List<Object[]> tableRows, int fileCount, SplittableRandom random)
    {
        int rowGroups = (tableRows.size() + rowsPerRowGroup - 1) / rowsPerRowGroup;
        List<byte[]> result = new ArrayList<>();
        int firstRowGroup = 0;
        for (int file = 0; file < fileCount; file++) {
            int count = file == fileCount - 1 ? rowGroups - firstRowGroup : Math.max(1, (rowGroups - firstRowGroup) / (fileCount - file));
            List<Object[]> fileRows = tableRows.subList(firstRowGroup * rowsPerRowGroup, Math.min(tableRows.size(), (firstRowGroup + count) * rowsPerRowGroup));
            firstRowGroup += count;
            boolean newest = file == fileCount - 1;
            if (!newest && addedColumn >= 0) {
                // written before the column existed: its rows hold NULL there, in the oracle too
                fileRows.forEach(row -> row[addedColumn + 1] = null);
            }
            byte[] bytes = writer == Writer.TRINO ? writeTrino(fileRows) : writeParquetJava(work.resolve(name + suffix + "-" + file + ".parquet"), fileRows, newest || addedColumn < 0 ? fileColumns() : fileColumns().subList(0, addedColumn), newest, random);
            if (unlocatableRowGroup && file == 0) {
                bytes = unlocatableRowGroup(bytes, random);
            }
            else if (writer == Writer.PARQUET_JAVA && random.nextInt(5) == 0) {
                bytes = damagedOffsetIndexes(bytes, random);
            }
            result.add(bytes);
        }
        return result;
    }

    /**
     * Every chunk's offset index made unusable, one way for the whole file: each chunk given the next chunk's (well
     * formed, but it locates another chunk's pages), each cut to half its length (it does not parse), or each placed
     * past the end of the file. Reading by pages must read such chunks whole.
     */
    private static byte[] damagedOffsetIndexes(byte[] file, SplittableRandom random)
    {
        int damage = random.nextInt(3);
        return BadFiles.rewriteFooter(file, footer -> {
            for (RowGroup rowGroup : footer.getRow_groups()) {
                List<ColumnChunk> chunks = rowGroup.getColumns().stream().filter(ColumnChunk::isSetOffset_index_offset).toList();
                long[] offsets = chunks.stream().mapToLong(ColumnChunk::getOffset_index_offset).toArray();
                int[] lengths = chunks.stream().mapToInt(ColumnChunk::getOffset_index_length).toArray();
                for (int i = 0; i < chunks.size(); i++) {
                    ColumnChunk chunk = chunks.get(i);
                    switch (damage) {
                        case 0 -> {
                            int next = (i + 1) % chunks.size();
                            chunk.setOffset_index_offset(offsets[next]);
                            chunk.setOffset_index_length(lengths[next]);
                        }
                        case 1 -> chunk.setOffset_index_length(Math.max(1, chunk.getOffset_index_length() / 2));
                        default -> chunk.setOffset_index_offset(file.length + 1_000L);
                    }
                }
            }
        });
    }

    /**
     * The first column chunk of a row group other than the first made to start before the file.
     */
    private static byte[] unlocatableRowGroup(byte[] file, SplittableRandom random)
    {
        return BadFiles.rewriteFooter(file, footer -> {
            int rowGroup = random.nextInt(1, footer.getRow_groupsSize());
            footer.getRow_groups().get(rowGroup).getColumns().getFirst().getMeta_data().setData_page_offset(-random.nextInt(1, 1000));
        });
    }

    /**
     * Pages as writers cut them: a few rows each (a key's rows across many page boundaries), 20 rows, the reference
     * writer's 64 KiB, or one page a chunk.
     */
    private static ParquetFixtureWriter.Options pageLayout(ParquetFixtureWriter.Options options, SplittableRandom random)
    {
        return switch (random.nextInt(6)) {
            case 0, 1 -> options.withPageRows(5);
            case 2, 3 -> options.withPageRows(20);
            case 4 -> options.withPageRows(20_000).withPageBytes(64 << 10);
            default -> options.withPageRows(20_000);
        };
    }

    private byte[] writeParquetJava(Path file, List<Object[]> fileRows, List<Column> fileColumns, boolean newest, SplittableRandom random)
    {
        StringBuilder schemaText = new StringBuilder("message t { required int64 id;\n");
        for (Column column : fileColumns) {
            String repetition = column.nullRate() > 0 ? "optional" : "required";
            boolean wide = newest && widenedColumn().map(column::equals).orElse(false);
            schemaText.append(wide ? widenedField(column, repetition) : column.kind().parquetField(repetition, column.fileName())).append('\n');
        }
        MessageType schema = MessageTypeParser.parseMessageType(schemaText.append('}').toString());
        try {
            ParquetFixtureWriter.Options options = pageLayout(ParquetFixtureWriter.Options.rowsPerRowGroup(rowsPerRowGroup), random)
                    .withDictionary(dictionaryTrouble || random.nextInt(3) == 0)
                    // a small dictionary bound makes chunks of many distinct values fall back to PLAIN midway
                    .withDictionaryPageSize(random.nextInt(3) == 0 ? random.nextInt(64, 2048) : 0);
            for (Column column : fileColumns) {
                if (column.kind().hasBloomFilters() && random.nextInt(5) != 0) {
                    // from badly undersized (many false positives) to generous
                    long ndv = switch (random.nextInt(3)) {
                        case 0 -> Math.max(1, rowsPerRowGroup / 20);
                        case 1 -> rowsPerRowGroup;
                        default -> rowsPerRowGroup * 10L;
                    };
                    options = options.withBloomFilter(column.fileName(), ndv, new double[] {0.01, 0.1, 0.4}[random.nextInt(3)]);
                }
            }
            try (ParquetFixtureWriter.GroupWriter parquetWriter = ParquetFixtureWriter.parquetJava(file, schema, options)) {
                for (Object[] row : fileRows) {
                    Group group = parquetWriter.newRow().append("id", (long) (Long) row[0]);
                    for (int i = 0; i < columns.size(); i++) {
                        if (row[i + 1] != null && !columns.get(i).partition() && fileColumns.contains(columns.get(i))) {
                            if (newest && i == widenedColumn) {
                                appendWidened(group, columns.get(i), row[i + 1]);
                                continue;
                            }
                            columns.get(i).kind().append(group, columns.get(i).fileName(), row[i + 1]);
                        }
                    }
                    parquetWriter.write(group);
                }
            }
            byte[] bytes = Files.readAllBytes(file);
            if (dictionaryTrouble) {
                return damageFooter(bytes, random, 1);
            }
            return random.nextInt(3) == 0 ? damageFooter(bytes, random, 4) : bytes;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String widenedField(Column column, String repetition)
    {
        return "%s %s %s;".formatted(repetition, column.kind() == ColumnKind.INT32 ? "int64" : "double", column.fileName());
    }

    private static void appendWidened(Group group, Column column, Object value)
    {
        if (column.kind() == ColumnKind.INT32) {
            group.append(column.fileName(), (long) (Long) value);
        }
        else {
            group.append(column.fileName(), (double) (Float) value);
        }
    }

    /**
     * Rewrites the footer the way other writers leave it: chunks without a null count, without statistics, or
     * filters without {@code bloom_filter_length}; and, now and then, a filter offset before or past the data or a
     * length running past it (each such filter must fail open). Data offsets stay valid: the footer is last.
     */
    static byte[] damageFooter(byte[] file, SplittableRandom random, int extentsDamagedOneIn)
    {
        boolean dropLengths = random.nextBoolean();
        return BadFiles.rewriteFooter(file, footer -> damage(footer, file.length, dropLengths, extentsDamagedOneIn, random));
    }

    private static void damage(FileMetaData footer, long fileSize, boolean dropLengths, int extentsDamagedOneIn, SplittableRandom random)
    {
        for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
                if (dropLengths) {
                    chunk.getMeta_data().unsetBloom_filter_length();
                }
                if (chunk.getMeta_data().isSetBloom_filter_offset() && random.nextInt(10) == 0) {
                    // a filter offset before or past the data, or a length running past it: that filter fails open
                    switch (random.nextInt(3)) {
                        case 0 -> chunk.getMeta_data().setBloom_filter_offset(-random.nextInt(1, 100));
                        case 1 -> chunk.getMeta_data().setBloom_filter_offset(fileSize + random.nextInt(0, 100));
                        default -> chunk.getMeta_data().setBloom_filter_length((int) fileSize);
                    }
                }
                damageDictionaryExtent(chunk.getMeta_data(), extentsDamagedOneIn, random);
                if (random.nextInt(4) == 0) {
                    // as parquet-java before 1.9 wrote: only the encodings tell whether every page used the dictionary
                    chunk.getMeta_data().unsetEncoding_stats();
                }
                if (chunk.getMeta_data().isSetStatistics()) {
                    int choice = random.nextInt(4);
                    if (choice == 0) {
                        chunk.getMeta_data().getStatistics().unsetNull_count();
                    }
                    else if (choice == 1 && random.nextInt(3) == 0) {
                        chunk.getMeta_data().unsetStatistics();
                    }
                }
            }
        }
    }

    /**
     * Now and then, moves where the footer says a chunk's data pages begin, inside the chunk and after its dictionary
     * page: the reader starts at the dictionary page and walks the pages by their headers, so only the dictionary's
     * recorded extent is wrong. Moved earlier, the page runs past its extent and must fail open; moved later, the page
     * still lies within it and must decode to the same dictionary.
     */
    private static void damageDictionaryExtent(ColumnMetaData chunk, int oneIn, SplittableRandom random)
    {
        if (!chunk.isSetDictionary_page_offset() || chunk.getDictionary_page_offset() <= 0 || random.nextInt(oneIn) != 0) {
            return;
        }
        long dictionary = chunk.getDictionary_page_offset();
        long data = chunk.getData_page_offset();
        long moved = data + (random.nextBoolean() ? random.nextInt(1, 8) : -random.nextInt(1, 8));
        if (moved > dictionary && moved < dictionary + chunk.getTotal_compressed_size()) {
            chunk.setData_page_offset(moved);
        }
    }

    private byte[] writeTrino(List<Object[]> fileRows)
    {
        List<Type> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        types.add(BIGINT);
        names.add("id");
        for (Column column : fileColumns()) {
            types.add(column.kind().trinoWriterType().orElseThrow());
            names.add(column.fileName());
        }
        // channel c > 0 is the c-th column of the files, which skip the partition column
        List<Integer> rowIndex = new ArrayList<>(List.of(0));
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).partition()) {
                rowIndex.add(i + 1);
            }
        }
        return TrinoParquetFiles.write(types, names, rowsPerRowGroup, fileRows.size(), (channel, row) -> {
            Object value = fileRows.get(row)[rowIndex.get(channel)];
            return value == null || channel == 0 ? value : columns.get(rowIndex.get(channel) - 1).kind().trinoNative(value);
        });
    }

    private List<Column> fileColumns()
    {
        return columns.stream().filter(column -> !column.partition()).toList();
    }
}
