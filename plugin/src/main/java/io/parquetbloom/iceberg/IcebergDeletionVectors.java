package io.parquetbloom.iceberg;

import io.parquetbloom.table.RowDeletes;
import io.trino.spi.TrinoException;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.deletes.PositionDeleteIndex;

import java.util.function.LongPredicate;

import static com.google.common.base.Preconditions.checkArgument;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;

/**
 * An Iceberg v3 deletion vector, decoded by Iceberg's own library from the bytes of its blob: its length, magic number,
 * bitmap and CRC are checked against what the manifest recorded (a vector other writers got wrong fails, naming it).
 */
public final class IcebergDeletionVectors
{
    private IcebergDeletionVectors() {}

    /**
     * The positions of {@code dataFile} the vector deletes.
     *
     * @param blob the {@link RowDeletes#length()} bytes at {@link RowDeletes#offset()} of its Puffin file
     */
    public static LongPredicate deleted(RowDeletes vector, String dataFile, byte[] blob)
    {
        checkArgument(vector.kind() == RowDeletes.Kind.DELETION_VECTOR, "not a deletion vector: %s", vector);
        DeleteFile deleteFile = FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
                .ofPositionDeletes()
                .withPath(vector.path())
                .withFormat(FileFormat.PUFFIN)
                .withFileSizeInBytes(vector.fileSize())
                .withRecordCount(vector.cardinality())
                .withContentOffset(vector.offset())
                .withContentSizeInBytes(vector.length())
                .withReferencedDataFile(dataFile)
                .build();
        try {
            PositionDeleteIndex index = PositionDeleteIndex.deserialize(blob, deleteFile);
            return index::isDeleted;
        }
        catch (RuntimeException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Iceberg deletion vector at %d of %s (for %s) is damaged: %s".formatted(vector.offset(), vector.path(), dataFile, e.getMessage()), e);
        }
    }
}
