package io.parquetbloom.delta;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Reads a Delta Lake table as of a version from its log: the segment of that version ({@link DeltaLogSegment}), its
 * checkpoint (every part, and a v2 checkpoint's sidecars) and the commits after it, replayed
 * ({@link DeltaLogReplay}). Where the bytes come from is the caller's ({@link LogFiles}): S3 for a table, a folder
 * in tests.
 */
public final class DeltaLogReader
{
    private static final String SIDECARS = "_sidecars/";

    /**
     * The files of a table's {@code _delta_log/} folder, by their names relative to it.
     */
    public interface LogFiles
    {
        byte[] read(String name);
    }

    private DeltaLogReader() {}

    /**
     * @param names the names of the objects directly in {@code _delta_log/}
     */
    public static DeltaSnapshot read(String table, Collection<String> names, OptionalLong version, LogFiles files)
    {
        requireNonNull(files, "files is null");
        DeltaLogSegment segment = DeltaLogSegment.of(table, names, version);
        DeltaLogReplay replay = new DeltaLogReplay(table);
        segment.checkpoint().ifPresent(checkpoint -> replay.checkpoint(checkpoint.version(), checkpointActions(checkpoint, files)));
        for (DeltaLogSegment.Commit commit : segment.commits()) {
            replay.commit(commit.version(), DeltaLogParser.parse(commit.file(), files.read(commit.file())));
        }
        return replay.snapshot();
    }

    private static List<DeltaAction> checkpointActions(DeltaLogSegment.Checkpoint checkpoint, LogFiles files)
    {
        List<DeltaAction> actions = new ArrayList<>();
        for (String file : checkpoint.files()) {
            actions.addAll(parse(file, files.read(file)));
        }
        // a v2 checkpoint names files of more actions
        List<DeltaAction> sidecars = actions.stream().filter(DeltaAction.Sidecar.class::isInstance).toList();
        for (DeltaAction action : sidecars) {
            String path = SIDECARS + ((DeltaAction.Sidecar) action).path();
            actions.addAll(parse(path, files.read(path)));
        }
        return actions;
    }

    private static List<DeltaAction> parse(String file, byte[] content)
    {
        return file.endsWith(".json") ? DeltaLogParser.parse(file, content) : DeltaCheckpointReader.read(file, content);
    }
}
