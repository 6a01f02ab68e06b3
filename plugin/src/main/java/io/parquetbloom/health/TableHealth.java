package io.parquetbloom.health;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The filters of a table: per chunk (when asked for), per column, and the files whose footer could not be read.
 */
public record TableHealth(int files, long bytes, List<ChunkHealth> chunks, List<ColumnHealth> columns, List<UnreadableFile> unreadableFiles)
{
    public record UnreadableFile(String file, Optional<String> partition, String reason)
    {
        public UnreadableFile
        {
            requireNonNull(file, "file is null");
            requireNonNull(partition, "partition is null");
            requireNonNull(reason, "reason is null");
        }
    }

    public TableHealth
    {
        chunks = List.copyOf(requireNonNull(chunks, "chunks is null"));
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        unreadableFiles = List.copyOf(requireNonNull(unreadableFiles, "unreadableFiles is null"));
    }
}
