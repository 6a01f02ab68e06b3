package io.parquetbloom.delta;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The actions of a Delta Lake log this connector acts on (PROTOCOL.md, "Actions"); the others (transaction
 * identifiers, domain metadata, CDC files, checkpoint metadata and sidecars) change no file's liveness and are skipped
 * by {@link DeltaLogParser}.
 */
public sealed interface DeltaAction
{
    /**
     * @param readerFeatures the table features a reader must implement, where {@code minReaderVersion} is 3
     */
    record Protocol(int minReaderVersion, int minWriterVersion, List<String> readerFeatures)
            implements DeltaAction
    {
        public Protocol
        {
            readerFeatures = List.copyOf(readerFeatures);
        }
    }

    /**
     * @param schemaString the table's schema, Spark's JSON form of a struct
     * @param partitionColumns the logical names of the partition columns, in order
     * @param configuration the table properties ({@code delta.columnMapping.mode}, ...)
     */
    record Metadata(String id, String schemaString, List<String> partitionColumns, Map<String, String> configuration, OptionalLong createdTime)
            implements DeltaAction
    {
        public Metadata
        {
            requireNonNull(id, "id is null");
            requireNonNull(schemaString, "schemaString is null");
            partitionColumns = List.copyOf(partitionColumns);
            configuration = Map.copyOf(configuration);
            requireNonNull(createdTime, "createdTime is null");
        }
    }

    /**
     * A data file made live.
     *
     * @param path the file's path: relative to the table's folder (URI-encoded), or an absolute URI
     * @param partitionValues serialized partition values by physical column name; an absent value is NULL
     * @param stats the writer's statistics, a JSON string ({@code numRecords}, {@code minValues}, ...), where written
     */
    record Add(String path, Map<String, Optional<String>> partitionValues, long size, long modificationTime, Optional<String> stats, Optional<DeletionVector> deletionVector)
            implements DeltaAction
    {
        public Add
        {
            requireNonNull(path, "path is null");
            partitionValues = Map.copyOf(partitionValues);
            requireNonNull(stats, "stats is null");
            requireNonNull(deletionVector, "deletionVector is null");
        }

        /**
         * What replay reconciles on: the path and the deletion vector (a file with a new vector is re-added).
         */
        public FileKey key()
        {
            return new FileKey(path, deletionVector.map(DeletionVector::uniqueId));
        }
    }

    /**
     * A data file made dead: its add, with the same path and deletion vector, no longer counts.
     */
    record Remove(String path, Optional<DeletionVector> deletionVector)
            implements DeltaAction
    {
        public Remove
        {
            requireNonNull(path, "path is null");
            requireNonNull(deletionVector, "deletionVector is null");
        }

        public FileKey key()
        {
            return new FileKey(path, deletionVector.map(DeletionVector::uniqueId));
        }
    }

    /**
     * @param timestamp when the commit was made (milliseconds), as its writer recorded it
     */
    record CommitInfo(OptionalLong timestamp, Optional<Long> inCommitTimestamp)
            implements DeltaAction
    {
        public CommitInfo
        {
            requireNonNull(timestamp, "timestamp is null");
            requireNonNull(inCommitTimestamp, "inCommitTimestamp is null");
        }
    }

    /**
     * A v2 checkpoint's reference to a file of more add and remove actions ({@code _delta_log/_sidecars/}).
     */
    record Sidecar(String path, long sizeInBytes)
            implements DeltaAction
    {
        public Sidecar
        {
            requireNonNull(path, "path is null");
        }
    }

    /**
     * What replay reconciles adds and removes on (PROTOCOL.md, "Action Reconciliation").
     */
    record FileKey(String path, Optional<String> deletionVectorId)
    {
        public FileKey
        {
            requireNonNull(path, "path is null");
            requireNonNull(deletionVectorId, "deletionVectorId is null");
        }
    }

    /**
     * Where the rows a file no longer holds are recorded (PROTOCOL.md, "Deletion Vectors").
     *
     * @param storageType {@code u} (a file beside the table named by a UUID), {@code i} (inline, Base85) or {@code p}
     * (an absolute path)
     * @param offset where the vector starts in its file; absent for inline vectors
     * @param cardinality how many rows it deletes
     */
    record DeletionVector(String storageType, String pathOrInlineDv, OptionalLong offset, int sizeInBytes, long cardinality)
    {
        public DeletionVector
        {
            requireNonNull(storageType, "storageType is null");
            requireNonNull(pathOrInlineDv, "pathOrInlineDv is null");
            requireNonNull(offset, "offset is null");
        }

        /**
         * The vector's identity: its storage type and path or inline bytes, and its offset where it has one.
         */
        public String uniqueId()
        {
            String id = storageType + pathOrInlineDv;
            return offset.isPresent() ? id + "@" + offset.getAsLong() : id;
        }
    }
}
