package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableMap;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What the index answered for one lookup: for every listed file it covers, the row groups that may hold a probed key
 * (none: the file cannot match). Files it does not cover are not here and take the per-file path.
 *
 * @param pagesRead postings pages read from S3 for this lookup
 * @param pageCacheHits pages found in the node's metadata cache instead
 * @param segmentsProbed segments whose pages were consulted (those covering no listed file are skipped)
 */
public record KeyIndexSelection(Map<String, CoveredFile> covered, long pagesRead, long bytesRead, long pageCacheHits, int segmentsProbed)
{
    /**
     * @param directory the file as the segment's directory records it (equal to the listing in path, size and ETag)
     * @param rowGroups the row groups to read, ascending
     * @param column the indexed column
     * @param keyPages of the row groups whose entries name pages of the key column, the pages that may hold a probed
     * key, ascending (a row group not here may hold one anywhere)
     */
    public record CoveredFile(IndexedFile directory, List<Integer> rowGroups, String column, Map<Integer, List<Integer>> keyPages)
    {
        public CoveredFile
        {
            requireNonNull(directory, "directory is null");
            rowGroups = List.copyOf(requireNonNull(rowGroups, "rowGroups is null"));
            requireNonNull(column, "column is null");
            keyPages = ImmutableMap.copyOf(requireNonNull(keyPages, "keyPages is null"));
        }

        public CoveredFile(IndexedFile directory, List<Integer> rowGroups)
        {
            this(directory, rowGroups, "", Map.of());
        }
    }

    public KeyIndexSelection
    {
        covered = ImmutableMap.copyOf(requireNonNull(covered, "covered is null"));
    }
}
