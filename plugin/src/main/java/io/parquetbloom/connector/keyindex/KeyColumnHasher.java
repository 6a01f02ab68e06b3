package io.parquetbloom.connector.keyindex;

import io.parquetbloom.connector.ParquetBloomColumnHandle;
import io.parquetbloom.connector.ParquetBloomSplit;
import io.parquetbloom.connector.ParquetBloomTableHandle;
import io.parquetbloom.connector.ParquetBloomTransactionHandle;
import io.parquetbloom.connector.parquet.ParquetBloomPageSourceProvider;
import io.parquetbloom.hash.ParquetValueHasher;
import io.parquetbloom.hash.ValueHash;
import io.parquetbloom.s3.S3ObjectInfo;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import org.apache.parquet.schema.PrimitiveType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * Reads a row group's key column through the connector's own page source (so every value is exactly what a query
 * reads) and hashes each distinct non-null value as a bloom filter of the index's Parquet type would: the same rule a
 * lookup's literal is hashed by, so the literal finds the entry.
 */
final class KeyColumnHasher
{
    private final ParquetBloomPageSourceProvider pageSources;
    private final ConnectorSession session;
    private final ParquetBloomTableHandle table;
    private final ParquetBloomColumnHandle column;
    private final PrimitiveType indexType;
    private final long metadataCacheFlush;

    KeyColumnHasher(ParquetBloomPageSourceProvider pageSources, ConnectorSession session, ParquetBloomTableHandle table, ParquetBloomColumnHandle column, PrimitiveType indexType, long metadataCacheFlush)
    {
        this.pageSources = requireNonNull(pageSources, "pageSources is null");
        this.session = requireNonNull(session, "session is null");
        this.table = requireNonNull(table, "table is null");
        this.column = requireNonNull(column, "column is null");
        this.indexType = requireNonNull(indexType, "indexType is null");
        this.metadataCacheFlush = metadataCacheFlush;
    }

    /**
     * The distinct hashes of the row group's values, sorted; empty when a value has no exact hash for the index's
     * type (NaN, signed zero, a value the type cannot hold), which leaves the file out of the index.
     */
    Optional<long[]> hashes(S3ObjectInfo object, int rowGroup)
    {
        ParquetBloomSplit split = new ParquetBloomSplit(object.location().toString(), object.size(), object.etag(), 0, object.size(), Map.of(), Optional.of(List.of(rowGroup)), metadataCacheFlush);
        ParquetBloomTableHandle unconstrained = new ParquetBloomTableHandle(table.schemaName(), table.tableName(), TupleDomain.all());
        Type type = column.type();
        long[] hashes = new long[1024];
        int count = 0;
        try (ConnectorPageSource source = pageSources.createPageSource(ParquetBloomTransactionHandle.create(), session, split, unconstrained, Optional.empty(), List.of(column), DynamicFilter.EMPTY)) {
            while (!source.isFinished()) {
                SourcePage page = source.getNextSourcePage();
                if (page == null) {
                    continue;
                }
                Block block = page.getBlock(0);
                for (int position = 0; position < block.getPositionCount(); position++) {
                    if (block.isNull(position)) {
                        continue;
                    }
                    if (!(ParquetValueHasher.hash(type, readNativeValue(type, block, position), indexType) instanceof ValueHash.Hashes(long[] candidates))) {
                        return Optional.empty();
                    }
                    if (count + candidates.length > hashes.length) {
                        count = distinct(hashes, count);
                        if (count + candidates.length > hashes.length / 2) {
                            hashes = Arrays.copyOf(hashes, Math.max(hashes.length * 2, count + candidates.length));
                        }
                    }
                    System.arraycopy(candidates, 0, hashes, count, candidates.length);
                    count += candidates.length;
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(Arrays.copyOf(hashes, distinct(hashes, count)));
    }

    private static int distinct(long[] values, int count)
    {
        Arrays.sort(values, 0, count);
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            if (distinct == 0 || values[i] != values[distinct - 1]) {
                values[distinct++] = values[i];
            }
        }
        return distinct;
    }
}
