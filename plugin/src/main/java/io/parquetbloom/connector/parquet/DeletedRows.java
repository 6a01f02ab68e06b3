package io.parquetbloom.connector.parquet;

import io.parquetbloom.delta.DeltaDeletionVectors;
import io.parquetbloom.iceberg.IcebergDeletionVectors;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.RowDeletes;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongPredicate;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.Math.toIntExact;

/**
 * The rows of one data file its table format deleted, by absolute position: deletion vectors (Iceberg's, Delta Lake's)
 * decoded as the format defines them, position delete files read by this connector's reader (their rows for other data files skipped). The
 * reader drops these positions from what it returns, whatever row groups and pages it skipped.
 */
final class DeletedRows
{
    private DeletedRows() {}

    /**
     * @param positionFile the rows ({@code file_path}, {@code pos}) of a position delete file, read as a query reads
     */
    static LongPredicate load(String dataFile, List<RowDeletes> deletes, S3ObjectStore store, Function<RowDeletes, ConnectorPageSource> positionFile, S3RequestStats stats)
    {
        List<LongPredicate> vectors = new ArrayList<>();
        Roaring64Bitmap positions = new Roaring64Bitmap();
        for (RowDeletes delete : deletes) {
            switch (delete.kind()) {
                case DELETION_VECTOR -> {
                    S3ObjectInfo puffin = S3ObjectInfo.immutable(S3Location.parse(normalized(delete.path())), delete.fileSize());
                    byte[] blob = store.read(puffin, delete.offset(), toIntExact(delete.length()), stats);
                    vectors.add(IcebergDeletionVectors.deleted(delete, dataFile, blob));
                }
                case POSITION_FILE -> addPositions(dataFile, delete, positionFile.apply(delete), positions);
                case DELTA_DELETION_VECTOR, DELTA_INLINE_DELETION_VECTOR -> vectors.add(DeltaDeletionVectors.deleted(delete, dataFile, (offset, length) -> {
                    S3ObjectInfo file = S3ObjectInfo.immutable(S3Location.parse(delete.path()), delete.fileSize());
                    return store.read(file, offset, length, stats);
                }));
            }
        }
        if (!positions.isEmpty()) {
            vectors.add(positions::contains);
        }
        return position -> {
            for (LongPredicate vector : vectors) {
                if (vector.test(position)) {
                    return true;
                }
            }
            return false;
        };
    }

    private static void addPositions(String dataFile, RowDeletes delete, ConnectorPageSource rows, Roaring64Bitmap positions)
    {
        String wanted = normalized(dataFile);
        try (rows) {
            for (SourcePage page = rows.getNextSourcePage(); page != null || !rows.isFinished(); page = rows.getNextSourcePage()) {
                if (page == null) {
                    continue;
                }
                Block paths = page.getBlock(0);
                Block rowPositions = page.getBlock(1);
                for (int i = 0; i < page.getPositionCount(); i++) {
                    if (paths.isNull(i) || rowPositions.isNull(i)) {
                        throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Position delete file %s has a row without file_path or pos".formatted(delete.path()));
                    }
                    if (normalized(VARCHAR.getSlice(paths, i).toStringUtf8()).equals(wanted)) {
                        positions.addLong(BIGINT.getLong(rowPositions, i));
                    }
                }
            }
        }
        catch (IOException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Cannot read position delete file %s: %s".formatted(delete.path(), e.getMessage()), e);
        }
    }

    /**
     * A path as S3 names its object: {@code s3a://} and {@code s3n://} are {@code s3://}.
     */
    static String normalized(String path)
    {
        if (path.startsWith("s3a://")) {
            return "s3://" + path.substring("s3a://".length());
        }
        if (path.startsWith("s3n://")) {
            return "s3://" + path.substring("s3n://".length());
        }
        return path;
    }
}
