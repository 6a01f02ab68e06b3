package io.parquetbloom.delta;

import io.trino.spi.TrinoException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static java.util.Objects.requireNonNull;

/**
 * The files of a Delta Lake log that make up the table as of a version: the newest complete checkpoint at or before
 * it (a multi-part checkpoint missing a part is passed over for an older one), then every commit after that
 * checkpoint up to the version. Found from the names in a listing of {@code _delta_log/} (PROTOCOL.md, "Delta Log
 * Entries").
 *
 * @param checkpoint the checkpoint's files, all its parts in order (a v2 checkpoint is one file, its sidecars named
 * inside it)
 * @param commits the commits after the checkpoint, by version, in order
 */
public record DeltaLogSegment(long version, Optional<Checkpoint> checkpoint, List<Commit> commits)
{
    private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
    private static final Pattern CLASSIC_CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");
    private static final Pattern MULTI_PART_CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.(\\d{10})\\.(\\d{10})\\.parquet");
    private static final Pattern V2_CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.[0-9a-fA-F-]{36}\\.(json|parquet)");

    public DeltaLogSegment
    {
        requireNonNull(checkpoint, "checkpoint is null");
        commits = List.copyOf(commits);
    }

    public record Checkpoint(long version, List<String> files) {}

    public record Commit(long version, String file) {}

    /**
     * The digits every name of a version's files starts with.
     */
    public static String versionName(long version)
    {
        return "%020d".formatted(version);
    }

    /**
     * The version of a commit's file name ({@code 00000000000000000012.json}), if it is one.
     */
    public static OptionalLong commitVersion(String name)
    {
        Matcher matcher = COMMIT.matcher(name);
        return matcher.matches() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
    }

    /**
     * @param names the names of the objects directly in {@code _delta_log/}
     * @param asOf the version wanted; the newest one when empty
     * @param table the table, named in errors
     */
    public static DeltaLogSegment of(String table, Collection<String> names, OptionalLong asOf)
    {
        TreeMap<Long, String> commits = new TreeMap<>();
        Map<Long, List<String>> checkpoints = new HashMap<>();
        Map<Long, Map<Integer, Map<Integer, String>>> multiPart = new HashMap<>();
        for (String name : names) {
            Matcher matcher;
            if ((matcher = COMMIT.matcher(name)).matches()) {
                commits.put(Long.parseLong(matcher.group(1)), name);
            }
            else if ((matcher = CLASSIC_CHECKPOINT.matcher(name)).matches() || (matcher = V2_CHECKPOINT.matcher(name)).matches()) {
                checkpoints.computeIfAbsent(Long.parseLong(matcher.group(1)), _ -> new ArrayList<>()).add(name);
            }
            else if ((matcher = MULTI_PART_CHECKPOINT.matcher(name)).matches()) {
                multiPart.computeIfAbsent(Long.parseLong(matcher.group(1)), _ -> new HashMap<>())
                        .computeIfAbsent(Integer.parseInt(matcher.group(3)), _ -> new HashMap<>())
                        .put(Integer.parseInt(matcher.group(2)), name);
            }
        }
        long newest = Math.max(commits.isEmpty() ? -1 : commits.lastKey(), checkpoints.keySet().stream().mapToLong(Long::longValue).max().orElse(-1));
        long version = asOf.orElse(newest);
        if (version > newest) {
            throw new TrinoException(INVALID_ARGUMENTS, "Delta Lake table %s has no version %d; its newest is %d".formatted(table, version, newest));
        }
        if (version < 0) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s has no commit in its log".formatted(table));
        }
        Optional<Checkpoint> checkpoint = newestCheckpoint(checkpoints, multiPart, version);
        long from = checkpoint.map(value -> value.version() + 1).orElse(0L);
        List<Commit> after = new ArrayList<>();
        for (long commit = from; commit <= version; commit++) {
            String name = commits.get(commit);
            if (name == null) {
                throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: its log has no commit %d (version %d%s)".formatted(
                        table, commit, version, checkpoint.map(value -> ", after the checkpoint of version " + value.version()).orElse(", and no checkpoint before it")));
            }
            after.add(new Commit(commit, name));
        }
        return new DeltaLogSegment(version, checkpoint, after);
    }

    private static Optional<Checkpoint> newestCheckpoint(Map<Long, List<String>> single, Map<Long, Map<Integer, Map<Integer, String>>> multiPart, long version)
    {
        List<Checkpoint> complete = new ArrayList<>();
        single.forEach((at, files) -> complete.add(new Checkpoint(at, List.of(files.stream().sorted().findFirst().orElseThrow()))));
        multiPart.forEach((at, byPartCount) -> byPartCount.forEach((parts, files) -> {
            if (files.size() == parts) {
                complete.add(new Checkpoint(at, files.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(Map.Entry::getValue).toList()));
            }
        }));
        return complete.stream()
                .filter(checkpoint -> checkpoint.version() <= version)
                .max(Comparator.comparingLong(Checkpoint::version));
    }
}
