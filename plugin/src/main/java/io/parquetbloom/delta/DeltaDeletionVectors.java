package io.parquetbloom.delta;

import io.parquetbloom.s3.S3Location;
import io.parquetbloom.table.RowDeletes;
import io.trino.spi.TrinoException;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.LongPredicate;
import java.util.zip.CRC32;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static java.lang.Math.toIntExact;

/**
 * Delta Lake deletion vectors (PROTOCOL.md, "Deletion Vector Descriptor Schema" and "Deletion Vector Format"): where
 * one is stored, and the rows it deletes, decoded with RoaringBitmap's portable 64-bit format (Delta's
 * RoaringBitmapArray). A vector whose size, magic number, checksum or cardinality does not match its descriptor fails
 * naming it: a vector read wrong returns deleted rows or drops live ones.
 */
public final class DeltaDeletionVectors
{
    static final int MAGIC = 1681511377;
    private static final String Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    private static final int[] Z85_VALUES = new int[128];

    static {
        Arrays.fill(Z85_VALUES, -1);
        for (int i = 0; i < Z85.length(); i++) {
            Z85_VALUES[Z85.charAt(i)] = i;
        }
    }

    private DeltaDeletionVectors() {}

    /**
     * The file holding the vector, relative to the table's folder ({@code u}: {@code <prefix>/deletion_vector_<uuid>.bin})
     * or absolute ({@code p}); none for an inline vector.
     */
    public static Optional<String> file(DeltaAction.DeletionVector vector)
    {
        return switch (vector.storageType()) {
            case "i" -> Optional.empty();
            case "p" -> Optional.of(vector.pathOrInlineDv());
            case "u" -> {
                String encoded = vector.pathOrInlineDv();
                if (encoded.length() < 20) {
                    throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake deletion vector %s: not a UUID-relative path".formatted(encoded));
                }
                String prefix = encoded.substring(0, encoded.length() - 20);
                ByteBuffer uuid = ByteBuffer.wrap(decodeZ85(encoded.substring(encoded.length() - 20), 16));
                String name = "deletion_vector_%s.bin".formatted(new UUID(uuid.getLong(), uuid.getLong()));
                yield prefix.isEmpty() ? Optional.of(name) : Optional.of(prefix + "/" + name);
            }
            default -> throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake deletion vector storage type '%s' is not read by this connector".formatted(vector.storageType()));
        };
    }

    /**
     * The bytes to read from {@link #file}: the vector's size, its bitmap and its checksum, from its offset.
     */
    public static long stored(DeltaAction.DeletionVector vector)
    {
        return 4L + vector.sizeInBytes() + 4L;
    }

    /**
     * The rows an inline vector deletes.
     */
    public static LongPredicate inline(DeltaAction.DeletionVector vector, String dataFile)
    {
        return deleted(vector, dataFile, decodeZ85(vector.pathOrInlineDv(), vector.sizeInBytes()));
    }

    /**
     * The rows a vector stored in a file deletes.
     *
     * @param stored the {@link #stored} bytes at the vector's offset of its file
     */
    public static LongPredicate fromFile(DeltaAction.DeletionVector vector, String dataFile, byte[] stored)
    {
        ByteBuffer buffer = ByteBuffer.wrap(stored);
        int size = buffer.getInt();
        if (size != vector.sizeInBytes() || stored.length != stored(vector)) {
            throw damaged(vector, dataFile, "it holds %d bytes where the log says %d".formatted(size, vector.sizeInBytes()), null);
        }
        byte[] bitmap = Arrays.copyOfRange(stored, 4, 4 + size);
        CRC32 crc = new CRC32();
        crc.update(bitmap);
        if ((int) crc.getValue() != buffer.getInt(4 + size)) {
            throw damaged(vector, dataFile, "its checksum does not match", null);
        }
        return deleted(vector, dataFile, bitmap);
    }

    /**
     * Where a vector is read from, as the reader gets it with its data file: its file's path (absolute) and offset, or
     * its inline text.
     */
    public static RowDeletes rowDeletes(DeltaAction.DeletionVector vector, S3Location table)
    {
        Optional<String> file = file(vector);
        if (file.isEmpty()) {
            return new RowDeletes(RowDeletes.Kind.DELTA_INLINE_DELETION_VECTOR, vector.pathOrInlineDv(), 0, 0, vector.sizeInBytes(), vector.cardinality());
        }
        String path = vector.storageType().equals("u") ? table.child(file.get()).toString() : DeltaPaths.absolute(file.get());
        long offset = vector.offset().orElse(0);
        return new RowDeletes(RowDeletes.Kind.DELTA_DELETION_VECTOR, path, offset + stored(vector), offset, vector.sizeInBytes(), vector.cardinality());
    }

    /**
     * The rows a vector the reader got as {@code delete} deletes.
     *
     * @param read reads {@code length} bytes at {@code offset} of the vector's file
     */
    public static LongPredicate deleted(RowDeletes delete, String dataFile, BiFunction<Long, Integer, byte[]> read)
    {
        return switch (delete.kind()) {
            case DELTA_INLINE_DELETION_VECTOR -> inline(new DeltaAction.DeletionVector("i", delete.path(), OptionalLong.empty(), toIntExact(delete.length()), delete.cardinality()), dataFile);
            case DELTA_DELETION_VECTOR -> {
                DeltaAction.DeletionVector vector = new DeltaAction.DeletionVector("p", delete.path(), OptionalLong.of(delete.offset()), toIntExact(delete.length()), delete.cardinality());
                yield fromFile(vector, dataFile, read.apply(delete.offset(), toIntExact(stored(vector))));
            }
            default -> throw new IllegalArgumentException("not a Delta Lake deletion vector: " + delete.kind());
        };
    }

    private static LongPredicate deleted(DeltaAction.DeletionVector vector, String dataFile, byte[] bitmap)
    {
        if (bitmap.length < 4 || ByteBuffer.wrap(bitmap).order(ByteOrder.LITTLE_ENDIAN).getInt() != MAGIC) {
            throw damaged(vector, dataFile, "it does not start with the RoaringBitmapArray magic number", null);
        }
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        try {
            rows.deserializePortable(new DataInputStream(new ByteArrayInputStream(bitmap, 4, bitmap.length - 4)));
        }
        catch (IOException | RuntimeException e) {
            throw damaged(vector, dataFile, "its bitmap cannot be read", e);
        }
        if (rows.getLongCardinality() != vector.cardinality()) {
            throw damaged(vector, dataFile, "it deletes %d rows where the log says %d".formatted(rows.getLongCardinality(), vector.cardinality()), null);
        }
        return rows::contains;
    }

    private static TrinoException damaged(DeltaAction.DeletionVector vector, String dataFile, String problem, Throwable cause)
    {
        return new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake deletion vector %s (%s) of %s is damaged: %s".formatted(vector.uniqueId(), vector.storageType(), dataFile, problem), cause);
    }

    /**
     * Decodes Delta's Base85 (the Z85 alphabet) into {@code length} bytes: groups of five characters are four bytes, big
     * endian; the encoding of a length not a multiple of four was padded.
     */
    static byte[] decodeZ85(String encoded, int length)
    {
        if (encoded.length() % 5 != 0 || (long) encoded.length() / 5 * 4 < length) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake deletion vector: '%s' is not Base85 of %d bytes".formatted(encoded, length));
        }
        ByteBuffer bytes = ByteBuffer.allocate(encoded.length() / 5 * 4);
        for (int group = 0; group < encoded.length(); group += 5) {
            long value = 0;
            for (int i = 0; i < 5; i++) {
                char c = encoded.charAt(group + i);
                int digit = c < 128 ? Z85_VALUES[c] : -1;
                if (digit < 0) {
                    throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake deletion vector: '%s' is not Base85 (character '%s')".formatted(encoded, c));
                }
                value = value * 85 + digit;
            }
            bytes.putInt((int) value);
        }
        return Arrays.copyOf(bytes.array(), length);
    }
}
