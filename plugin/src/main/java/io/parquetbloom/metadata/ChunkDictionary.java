package io.parquetbloom.metadata;

import io.trino.parquet.metadata.ColumnChunkMetadata;

import java.util.Arrays;
import java.util.OptionalLong;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static io.trino.parquet.ParquetReaderUtils.isOnlyDictionaryEncodingPages;
import static java.util.Objects.requireNonNull;

/**
 * The compact, exact form of a column chunk's dictionary that pruning keeps: the sorted bloom filter hashes (XXH64 of
 * the plain encoding, as the Parquet spec hashes values into a filter) of its entries. An entirely
 * dictionary-encoded chunk holds only values of its dictionary, so this answers like a bloom filter without false
 * positives (two different values share a 64-bit hash with odds of 2^-64, and then the row group is merely kept),
 * and every rule that decides when a filter may answer for a predicate applies unchanged.
 */
public final class ChunkDictionary
{
    private static final int INSTANCE_SIZE = instanceSize(ChunkDictionary.class);

    private final long[] sortedHashes;

    /**
     * @param hashes the hash of every entry, in any order, duplicates allowed
     */
    public ChunkDictionary(long[] hashes)
    {
        requireNonNull(hashes, "hashes is null");
        long[] sorted = hashes.clone();
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        this.sortedHashes = distinct == sorted.length ? sorted : Arrays.copyOf(sorted, distinct);
    }

    /**
     * Whether any of the hashes is the hash of an entry: {@code false} proves that no value with one of these hashes
     * is in the chunk.
     */
    public boolean containsAny(long[] hashes)
    {
        for (long hash : hashes) {
            if (Arrays.binarySearch(sortedHashes, hash) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The distinct hashes of the entries, ascending (a copy).
     */
    public long[] hashes()
    {
        return sortedHashes.clone();
    }

    /**
     * Whether every value of the chunk is an entry of its dictionary: trino-parquet's rule, as its Hive connector
     * applies it (every data page dictionary-encoded per the chunk's encoding stats; without them, only the dictionary
     * and level encodings of a version 1 writer). A chunk that fell back to PLAIN for some pages is not.
     */
    public static boolean entirelyDictionaryEncoded(ColumnChunkMetadata chunk)
    {
        return isOnlyDictionaryEncodingPages(chunk);
    }

    /**
     * Bytes of the chunk's dictionary page where the footer records them (the page ends where the data pages begin).
     */
    public static OptionalLong dictionaryPageBytes(ColumnChunkMetadata chunk)
    {
        long dictionary = chunk.getDictionaryPageOffset();
        long data = chunk.getFirstDataPageOffset();
        return dictionary > 0 && data > dictionary ? OptionalLong.of(data - dictionary) : OptionalLong.empty();
    }

    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + sizeOf(sortedHashes);
    }

    /**
     * What reading a chunk's dictionary page gave.
     */
    public sealed interface Result
    {
        record Usable(ChunkDictionary dictionary)
                implements Result
        {
            public Usable
            {
                requireNonNull(dictionary, "dictionary is null");
            }
        }

        /**
         * The page could not be read or does not add up: its row group is kept and this is counted.
         */
        record Unusable(String reason)
                implements Result
        {
            public Unusable
            {
                requireNonNull(reason, "reason is null");
            }
        }

        /**
         * The dictionary exceeds the bound on entries or bytes: not used, as a cost decision rather than a fault.
         *
         * @param entries the entries the page declares, {@link Integer#MAX_VALUE} where its size alone decided
         */
        record TooLarge(int entries, String reason)
                implements Result
        {
            public TooLarge
            {
                requireNonNull(reason, "reason is null");
            }
        }
    }
}
