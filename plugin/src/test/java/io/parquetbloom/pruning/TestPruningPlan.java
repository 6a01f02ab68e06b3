package io.parquetbloom.pruning;

import io.airlift.slice.Slices;
import io.parquetbloom.table.FileColumnResolver;
import io.parquetbloom.table.ParquetTypeMapping;
import io.parquetbloom.table.PartitionColumn;
import io.parquetbloom.testing.FlatTypeManager;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan both sides prune with: partition folders, which constrained columns a file can be pruned on, whether
 * reading metadata can prune at all.
 */
final class TestPruningPlan
{
    private static final SchemaTableName TABLE = new SchemaTableName("s", "t");
    private static final PruningPlan.Options ALL_ON = new PruningPlan.Options(EnumSet.of(PruningPlan.Path.STATISTICS, PruningPlan.Path.BLOOM_FILTERS, PruningPlan.Path.NO_MATCH_CACHE), 1_000, 0, 0);

    @Test
    void partitionFoldersMatchTheirDomains()
    {
        PruningPlan plan = PruningPlan.of(TABLE, ALL_ON, Map.of(), Map.of(
                new PartitionColumn("region", VARCHAR), Domain.singleValue(VARCHAR, Slices.utf8Slice("eu")),
                new PartitionColumn("year", BIGINT), Domain.singleValue(BIGINT, 2026L)));
        assertThat(plan.matchesPartition(Map.of("region", Optional.of("eu"), "year", Optional.of("2026")))).isTrue();
        assertThat(plan.matchesPartition(Map.of("region", Optional.of("us"), "year", Optional.of("2026")))).isFalse();
        // the default partition is NULL, which an equality excludes
        assertThat(plan.matchesPartition(Map.of("region", Optional.empty(), "year", Optional.of("2026")))).isFalse();
        assertThat(PruningPlan.noneMatch(TABLE, ALL_ON).matchesPartition(Map.of())).isFalse();
    }

    @Test
    void onlyColumnsTheFileStoresReadablyArePrunedOn()
    {
        MessageType file = MessageTypeParser.parseMessageType("message m { required int32 Code; required binary name (STRING); required int64 seq; }");
        PruningPlan plan = PruningPlan.of(TABLE, ALL_ON, Map.of(
                // INT32 in the file, BIGINT in the table: readable as the wider type
                new PruningPlan.DataColumn("code", BIGINT), Domain.singleValue(BIGINT, 7L),
                // INT64 in the file, INTEGER in the table: the reader reports the mismatch, pruning stays out of it
                new PruningPlan.DataColumn("seq", INTEGER), Domain.singleValue(INTEGER, 7L),
                new PruningPlan.DataColumn("missing", VARCHAR), Domain.singleValue(VARCHAR, Slices.utf8Slice("x"))), Map.of());
        FileColumnResolver resolver = new FileColumnResolver(new ParquetTypeMapping(new FlatTypeManager()));
        assertThat(plan.domainsIn(file, resolver)).containsOnlyKeys("code");
    }

    @Test
    void filesArePrunedOnlyWhenMetadataCanTellSomething()
    {
        Map<PruningPlan.DataColumn, Domain> onData = Map.of(new PruningPlan.DataColumn("seq", BIGINT), Domain.singleValue(BIGINT, 1L));
        assertThat(PruningPlan.of(TABLE, ALL_ON, onData, Map.of()).prunesFiles()).isTrue();
        assertThat(PruningPlan.of(TABLE, new PruningPlan.Options(EnumSet.of(PruningPlan.Path.NO_MATCH_CACHE), 1_000, 0, 0), onData, Map.of()).prunesFiles()).isFalse();
        assertThat(PruningPlan.of(TABLE, ALL_ON, Map.of(), Map.of(new PartitionColumn("region", VARCHAR), Domain.singleValue(VARCHAR, Slices.utf8Slice("eu")))).prunesFiles()).isFalse();
        assertThat(PruningPlan.noneMatch(TABLE, ALL_ON).prunesFiles()).isFalse();
    }
}
