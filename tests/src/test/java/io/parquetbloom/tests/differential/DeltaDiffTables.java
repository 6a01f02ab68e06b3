package io.parquetbloom.tests.differential;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.parquetbloom.testing.DeltaLogWriter;
import io.parquetbloom.testing.TestingLake;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import static io.parquetbloom.testing.DeltaLogWriter.field;
import static io.parquetbloom.testing.DeltaLogWriter.metadata;
import static io.parquetbloom.testing.DeltaLogWriter.protocol;
import static io.parquetbloom.testing.DeltaLogWriter.remove;

/**
 * Delta Lake tables for the differential test: parquet-java files of random rows (the same writer, page layouts,
 * bloom filters and damaged footers as the folder tables) in the lake's schema folder {@code diff/}, named by a log the
 * test writes: a file added and removed again (dead, still in the folder, holding copies of live rows), a path removed
 * and added again, deletion vectors inline and in files, statistics in the adds (exact, missing or unreadable), and,
 * in one of the two tables, column mapping by name (files name columns by physical names the queries never use). The
 * oracle holds the live rows only.
 */
final class DeltaDiffTables
{
    private static final List<ColumnKind> KINDS = List.of(ColumnKind.INT32, ColumnKind.INT64, ColumnKind.INT8, ColumnKind.INT16, ColumnKind.DECIMAL_INT32, ColumnKind.DECIMAL_INT64,
            ColumnKind.DECIMAL_FIXED, ColumnKind.DECIMAL_BINARY, ColumnKind.FLOAT, ColumnKind.DOUBLE_, ColumnKind.STRING, ColumnKind.BINARY, ColumnKind.DATE_,
            ColumnKind.TIMESTAMP_TZ_MICROS, ColumnKind.TIMESTAMP_MICROS_, ColumnKind.BOOLEAN_);
    private static final long COMMITTED = 1_760_000_000_000L;

    private DeltaDiffTables() {}

    static List<RandomTable> write(S3Client client, Path work, SplittableRandom random)
    {
        return List.of(write(client, work, "delta_plain", false, random), write(client, work, "delta_mapped", true, random));
    }

    private static RandomTable write(S3Client client, Path work, String name, boolean mapped, SplittableRandom random)
    {
        RandomTable table = RandomTable.delta(name, random, KINDS);
        List<String> physicalNames = table.columns().stream()
                .map(column -> mapped ? "col-%s".formatted(UUID.nameUUIDFromBytes((name + column.fileName()).getBytes(StandardCharsets.UTF_8))) : column.fileName())
                .toList();
        RandomTable physical = table.withColumnNames(physicalNames);
        DeltaLogWriter log = new DeltaLogWriter(client, TestingLake.BUCKET, table.prefix());
        List<DataFile> files = writeFiles(physical, work, log, random);
        Map<Long, Object[]> live = new LinkedHashMap<>();
        table.rows().forEach(row -> live.put((Long) row[0], row));

        List<ObjectNode> first = new ArrayList<>();
        List<String> features = new ArrayList<>(List.of("deletionVectors"));
        if (mapped) {
            features.add("columnMapping");
        }
        if (table.columns().stream().anyMatch(column -> column.kind() == ColumnKind.TIMESTAMP_MICROS_)) {
            features.add("timestampNtz");
        }
        first.add(protocol(3, 7, features));
        first.add(metadata(name, schema(table, physicalNames, mapped), partitionColumn(table).map(column -> List.of(column.fileName())).orElse(List.of()),
                mapped ? Map.of("delta.columnMapping.mode", "name", "delta.columnMapping.maxColumnId", String.valueOf(physicalNames.size() + 1)) : Map.of()));
        int half = files.size() / 2;
        files.subList(0, half).forEach(file -> first.add(file.add(Optional.empty(), random)));
        // a copy of a live file, added and then removed: its rows would be counted twice if it were read
        DataFile copied = files.get(random.nextInt(files.size()));
        DataFile dead = new DataFile("dead/" + copied.path(), copied.bytes(), copied.rows(), copied.partition(), copied.stats());
        log.put(dead.key(), dead.bytes());
        first.add(dead.add(Optional.empty(), random));
        log.commit(0, COMMITTED, first);

        List<ObjectNode> second = new ArrayList<>();
        files.subList(half, files.size()).forEach(file -> second.add(file.add(Optional.empty(), random)));
        second.add(remove(dead.logPath(), COMMITTED + 1_000, Optional.empty()));
        log.commit(1, COMMITTED + 1_000, second);

        // DELETEs as deletion vectors, one inline, one in a file; a path removed and then added again
        List<ObjectNode> third = new ArrayList<>();
        Set<DataFile> changed = new HashSet<>();
        for (int vector = 0; vector < 2; vector++) {
            DataFile file = files.get(random.nextInt(files.size()));
            if (!changed.add(file)) {
                continue;
            }
            long[] positions = random.ints(Math.max(1, file.rows().size() / random.nextInt(3, 30)), 0, file.rows().size()).asLongStream().toArray();
            Arrays.stream(positions).forEach(position -> live.remove((Long) file.rows().get((int) position)[0]));
            ObjectNode deletionVector = vector == 0 ? DeltaLogWriter.inlineVector(positions) : log.fileVector(random.nextBoolean() ? "dv" : "", new UUID(random.nextLong(), random.nextLong()), positions);
            third.add(remove(file.logPath(), COMMITTED + 2_000, Optional.empty()));
            third.add(file.add(Optional.of(deletionVector), random));
        }
        log.commit(2, COMMITTED + 2_000, third);
        // (a file with a vector is removed by its path and vector together: one without stays live)
        Optional<DataFile> readded = files.stream().filter(file -> !changed.contains(file)).findFirst();
        log.commit(3, COMMITTED + 3_000, readded.map(file -> List.of(remove(file.logPath(), COMMITTED + 3_000, Optional.empty()))).orElse(List.of()));
        log.commit(4, COMMITTED + 4_000, readded.map(file -> List.of(file.add(Optional.empty(), random))).orElse(List.of()));

        System.out.println("[differential] %s: Delta Lake, %d live files and a dead one, %d of %d rows live after deletion vectors in %s%s, %s re-added, columns %s".formatted(
                name, files.size(), live.size(), table.rows().size(), changed.stream().map(DataFile::path).toList(), mapped ? ", column mapping by name" : "", readded.map(DataFile::path).orElse("no file"),
                table.columns().stream().map(column -> column.sqlName() + " " + column.kind() + (column.partition() ? " (partition)" : "")).toList()));
        return table.withRows(List.copyOf(live.values()));
    }

    /**
     * A data file and the rows it holds, in their order (a deletion vector's positions).
     */
    private record DataFile(String path, byte[] bytes, List<Object[]> rows, Map<String, String> partition, String stats)
    {
        /**
         * The file's object key below the table's folder: its log path decoded.
         */
        String key()
        {
            return path;
        }

        String logPath()
        {
            return encode(path);
        }

        ObjectNode add(Optional<ObjectNode> deletionVector, SplittableRandom random)
        {
            // statistics: mostly exact, sometimes missing or unreadable (neither may drop a file)
            Optional<String> written = switch (random.nextInt(8)) {
                case 0 -> Optional.empty();
                case 1 -> Optional.of("{\"numRecords\": 3, \"minValues\": ");
                default -> Optional.of(stats);
            };
            return DeltaLogWriter.add(logPath(), partition, bytes.length, COMMITTED, written, deletionVector);
        }
    }

    private static List<DataFile> writeFiles(RandomTable physical, Path work, DeltaLogWriter log, SplittableRandom random)
    {
        Optional<RandomTable.Column> partition = partitionColumn(physical);
        int partitionIndex = partition.map(physical.columns()::indexOf).orElse(-1);
        Map<Optional<Object>, List<Object[]>> groups = new LinkedHashMap<>();
        for (Object[] row : physical.rows()) {
            groups.computeIfAbsent(partitionIndex < 0 ? Optional.empty() : Optional.ofNullable(row[partitionIndex + 1]), _ -> new ArrayList<>()).add(row);
        }
        List<DataFile> files = new ArrayList<>();
        groups.forEach((value, rows) -> {
            int count = Math.min(rows.size(), random.nextInt(groups.size() == 1 ? 2 : 1, 4));
            for (int file = 0; file < count; file++) {
                List<Object[]> fileRows = rows.subList(file * rows.size() / count, (file + 1) * rows.size() / count);
                String folder = partition.map(column -> "%s=%s/".formatted(column.fileName(), value.map(Object::toString).map(DeltaDiffTables::hiveEscape).orElse("__HIVE_DEFAULT_PARTITION__"))).orElse("");
                String path = "%spart-%05d-%s.c000.snappy.parquet".formatted(folder, files.size(), new UUID(random.nextLong(), random.nextLong()));
                byte[] bytes = physical.writeFile(work, "%d.parquet".formatted(files.size()), fileRows, random);
                log.put(path, bytes);
                Map<String, String> values = new HashMap<>();
                partition.ifPresent(column -> values.put(column.fileName(), value.map(Object::toString).orElse(null)));
                files.add(new DataFile(path, bytes, fileRows, values, stats(physical, fileRows)));
            }
        });
        return files;
    }

    /**
     * Exact statistics of the rows, by physical name, for the kinds whose bounds the connector reads (integers, dates,
     * strings) and a few it does not; NULL counts of every data column.
     */
    private static String stats(RandomTable physical, List<Object[]> rows)
    {
        Map<String, Object> min = new HashMap<>();
        Map<String, Object> max = new HashMap<>();
        Map<String, Long> nulls = new HashMap<>();
        min.put("id", rows.stream().mapToLong(row -> (Long) row[0]).min().orElse(0));
        max.put("id", rows.stream().mapToLong(row -> (Long) row[0]).max().orElse(0));
        nulls.put("id", 0L);
        for (int i = 0; i < physical.columns().size(); i++) {
            RandomTable.Column column = physical.columns().get(i);
            if (column.partition()) {
                continue;
            }
            int index = i + 1;
            List<Object> values = rows.stream().map(row -> row[index]).filter(Objects::nonNull).toList();
            nulls.put(column.fileName(), (long) (rows.size() - values.size()));
            if (values.isEmpty()) {
                continue;
            }
            switch (column.kind()) {
                case INT32, INT64, INT8, INT16 -> {
                    min.put(column.fileName(), values.stream().map(Long.class::cast).min(Long::compare).orElseThrow());
                    max.put(column.fileName(), values.stream().map(Long.class::cast).max(Long::compare).orElseThrow());
                }
                case DATE_ -> {
                    min.put(column.fileName(), LocalDate.ofEpochDay(values.stream().map(Long.class::cast).min(Long::compare).orElseThrow()).toString());
                    max.put(column.fileName(), LocalDate.ofEpochDay(values.stream().map(Long.class::cast).max(Long::compare).orElseThrow()).toString());
                }
                case STRING -> {
                    // in UTF-8 byte order, as Delta's writers and Trino compare strings
                    Comparator<Object> utf8 = Comparator.comparing(value -> ((String) value).getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
                    min.put(column.fileName(), values.stream().min(utf8).orElseThrow());
                    max.put(column.fileName(), values.stream().max(utf8).orElseThrow());
                }
                default -> {}
            }
        }
        return DeltaLogWriter.stats(rows.size(), min, max, nulls);
    }

    private static List<ObjectNode> schema(RandomTable table, List<String> physicalNames, boolean mapped)
    {
        List<ObjectNode> fields = new ArrayList<>();
        fields.add(mapped ? field("id", "long", Optional.of("id"), Optional.of(1)) : field("id", "long"));
        for (int i = 0; i < table.columns().size(); i++) {
            RandomTable.Column column = table.columns().get(i);
            String type = deltaType(column.kind());
            fields.add(mapped ? field(column.fileName(), type, Optional.of(physicalNames.get(i)), Optional.of(i + 2)) : field(column.fileName(), type));
        }
        return fields;
    }

    private static String deltaType(ColumnKind kind)
    {
        return switch (kind) {
            case INT32 -> "integer";
            case INT64 -> "long";
            case INT8 -> "byte";
            case INT16 -> "short";
            case DECIMAL_INT32 -> "decimal(9,2)";
            case DECIMAL_INT64 -> "decimal(18,4)";
            case DECIMAL_FIXED -> "decimal(20,4)";
            case DECIMAL_BINARY -> "decimal(30,5)";
            case FLOAT -> "float";
            case DOUBLE_ -> "double";
            case STRING -> "string";
            case BINARY -> "binary";
            case DATE_ -> "date";
            case TIMESTAMP_TZ_MICROS -> "timestamp";
            case TIMESTAMP_MICROS_ -> "timestamp_ntz";
            case BOOLEAN_ -> "boolean";
            default -> throw new IllegalArgumentException("no Delta Lake type for " + kind);
        };
    }

    private static Optional<RandomTable.Column> partitionColumn(RandomTable table)
    {
        return table.columns().stream().filter(RandomTable.Column::partition).findFirst();
    }

    /**
     * A partition value as Hive and Spark escape it in a folder name.
     */
    private static String hiveEscape(String value)
    {
        StringBuilder escaped = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c < ' ' || "\"#%'*/:=?\\\u007F{[]^".indexOf(c) >= 0) {
                escaped.append("%%%02X".formatted((int) c));
            }
            else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /**
     * A relative path as Delta's log holds it: a URI path, every byte outside the unreserved characters and {@code /}
     * percent-encoded.
     */
    private static String encode(String path)
    {
        StringBuilder encoded = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~/=".indexOf(c) >= 0) {
                encoded.append(c);
            }
            else {
                encoded.append("%%%02X".formatted(b & 0xFF));
            }
        }
        return encoded.toString();
    }
}
