package io.parquetbloom.delta;

import io.trino.spi.TrinoException;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static com.google.common.base.Preconditions.checkArgument;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static java.util.Objects.requireNonNull;

/**
 * Replays a Delta Lake log into the table as of one version (PROTOCOL.md, "Action Reconciliation"): a checkpoint's
 * actions, then each commit after it in version order. A file is live while its latest action, by path and deletion
 * vector, is an {@code add}; the latest {@code protocol} and {@code metaData} are the table's. Not thread-safe: one
 * replay per read of a table.
 */
public final class DeltaLogReplay
{
    private final String table;
    private final Map<DeltaAction.FileKey, DeltaAction.Add> live = new LinkedHashMap<>();
    private Optional<DeltaAction.Protocol> protocol = Optional.empty();
    private Optional<DeltaAction.Metadata> metadata = Optional.empty();
    private long version = -1;
    private OptionalLong committedAt = OptionalLong.empty();

    /**
     * @param table the table's location, named in errors
     */
    public DeltaLogReplay(String table)
    {
        this.table = requireNonNull(table, "table is null");
    }

    /**
     * A replay that goes on from {@code snapshot}: the commits after its version are applied to it, as a cached
     * snapshot is brought up to date with only what is new in the log.
     */
    public static DeltaLogReplay after(String table, DeltaSnapshot snapshot)
    {
        DeltaLogReplay replay = new DeltaLogReplay(table);
        snapshot.files().forEach(add -> replay.live.put(add.key(), add));
        replay.protocol = Optional.of(snapshot.protocol());
        replay.metadata = Optional.of(snapshot.metadata());
        replay.version = snapshot.version();
        replay.committedAt = snapshot.committedAt();
        return replay;
    }

    /**
     * The actions of the checkpoint of {@code version} (all its parts, sidecars included): the table as of it.
     */
    public DeltaLogReplay checkpoint(long version, Collection<DeltaAction> actions)
    {
        checkArgument(this.version == -1, "a checkpoint starts a replay");
        apply(actions);
        this.version = version;
        return this;
    }

    /**
     * The actions of commit {@code version}, the next one after those replayed.
     */
    public DeltaLogReplay commit(long version, Collection<DeltaAction> actions)
    {
        if (this.version >= 0 && version != this.version + 1) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: its log has no commit %d between %d and %d".formatted(table, this.version + 1, this.version, version));
        }
        apply(actions);
        this.version = version;
        committedAt = OptionalLong.empty();
        for (DeltaAction action : actions) {
            if (action instanceof DeltaAction.CommitInfo info) {
                committedAt = info.inCommitTimestamp().map(OptionalLong::of).orElse(info.timestamp());
            }
        }
        return this;
    }

    private void apply(Collection<DeltaAction> actions)
    {
        for (DeltaAction action : actions) {
            switch (action) {
                case DeltaAction.Add add -> live.put(add.key(), add);
                case DeltaAction.Remove remove -> live.remove(remove.key());
                case DeltaAction.Protocol value -> protocol = Optional.of(value);
                case DeltaAction.Metadata value -> metadata = Optional.of(value);
                case DeltaAction.CommitInfo _, DeltaAction.Sidecar _ -> {}
            }
        }
    }

    /**
     * The table as of the last version replayed; its protocol checked ({@link DeltaProtocols#check}).
     */
    public DeltaSnapshot snapshot()
    {
        if (version < 0) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s has no commit in its log".formatted(table));
        }
        DeltaAction.Protocol tableProtocol = protocol.orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: its log as of version %d has no protocol action".formatted(table, version)));
        DeltaAction.Metadata tableMetadata = metadata.orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: its log as of version %d has no metaData action".formatted(table, version)));
        DeltaProtocols.check(table, tableProtocol);
        return new DeltaSnapshot(version, tableProtocol, tableMetadata, List.copyOf(live.values()), committedAt);
    }
}
