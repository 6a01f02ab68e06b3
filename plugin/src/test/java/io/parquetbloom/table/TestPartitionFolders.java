package io.parquetbloom.table;

import io.airlift.slice.Slices;
import io.parquetbloom.table.PartitionPaths.FolderStep;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

final class TestPartitionFolders
{
    private static final PartitionColumn MONTH = new PartitionColumn("month", BIGINT);

    @Test
    void folderOfAnAdmittedValueIsEntered()
    {
        Domain march = Domain.singleValue(BIGINT, 3L);
        assertThat(admits(MONTH, march, "month=3")).isTrue();
        // read as the column reads it: 03 is 3
        assertThat(admits(MONTH, march, "month=03")).isTrue();
        assertThat(admits(MONTH, march, "month=4")).isFalse();
        // folder keys are matched without regard to case, as the listing names columns
        assertThat(admits(MONTH, march, "Month=3")).isTrue();
    }

    @Test
    void rangesAndListsAreAdmittedValueByValue()
    {
        Domain firstQuarter = Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 1L, true, 3L, true)), false);
        assertThat(admits(MONTH, firstQuarter, "month=1")).isTrue();
        assertThat(admits(MONTH, firstQuarter, "month=3")).isTrue();
        assertThat(admits(MONTH, firstQuarter, "month=4")).isFalse();
        Domain days = Domain.multipleValues(DATE, List.of(LocalDate.of(2026, 3, 5).toEpochDay(), LocalDate.of(2026, 3, 7).toEpochDay()));
        PartitionColumn day = new PartitionColumn("day", DATE);
        assertThat(admits(day, days, "day=2026-03-05")).isTrue();
        assertThat(admits(day, days, "day=2026-03-06")).isFalse();
    }

    @Test
    void defaultPartitionIsTheNullValue()
    {
        assertThat(admits(MONTH, Domain.onlyNull(BIGINT), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isTrue();
        assertThat(admits(MONTH, Domain.singleValue(BIGINT, 3L), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isFalse();
        assertThat(admits(MONTH, Domain.notNull(BIGINT), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isFalse();
    }

    @Test
    void escapedValuesAreReadUnescaped()
    {
        PartitionColumn region = new PartitionColumn("region", VARCHAR);
        Domain usSlashX = Domain.singleValue(VARCHAR, Slices.utf8Slice("us/x"));
        assertThat(admits(region, usSlashX, "region=us%2Fx")).isTrue();
        assertThat(admits(region, usSlashX, "region=us")).isFalse();
    }

    @Test
    void undecidableFoldersAreEnteredAndOthersAreNot()
    {
        Domain march = Domain.singleValue(BIGINT, 3L);
        // not of the column's type (the table changed since its shape was learned): its files decide, never dropped
        assertThat(PartitionPaths.step(MONTH, march, "month=march")).isEqualTo(FolderStep.NEXT_LEVEL);
        // a plain folder (Firehose's raw/, an archive/ beside the partitions) is looked through at the same level, as
        // the whole listing looks through it; so is another key's folder, whose files the whole listing refuses
        assertThat(PartitionPaths.step(MONTH, march, "archive")).isEqualTo(FolderStep.ENTER);
        assertThat(PartitionPaths.step(MONTH, march, "day=3")).isEqualTo(FolderStep.ENTER);
        // hidden folders hold no data, but a table format's folder is listed so that it fails as the whole listing does
        assertThat(PartitionPaths.step(MONTH, march, "_key_index")).isEqualTo(FolderStep.SKIP);
        assertThat(PartitionPaths.step(MONTH, march, ".month=3")).isEqualTo(FolderStep.SKIP);
        assertThat(PartitionPaths.step(MONTH, march, "_delta_log")).isEqualTo(FolderStep.LIST_WHOLE);
        assertThat(PartitionPaths.step(MONTH, march, "_spark_metadata")).isEqualTo(FolderStep.LIST_WHOLE);
    }

    @Test
    void hiveTransactionalFoldersAreNamedAsHiveWritesThem()
    {
        assertThat(TableFormat.ofFolder("base_0000005")).contains(TableFormat.HIVE_TRANSACTIONAL);
        assertThat(TableFormat.ofFolder("delta_0000001_0000001_0000")).contains(TableFormat.HIVE_TRANSACTIONAL);
        assertThat(TableFormat.ofFolder("delete_delta_0000003_0000003")).contains(TableFormat.HIVE_TRANSACTIONAL);
        assertThat(TableFormat.ofFolder("base_0000007_v0000012")).contains(TableFormat.HIVE_TRANSACTIONAL);
        // plain folders that only look alike
        assertThat(TableFormat.ofFolder("delta_2024_06")).isEmpty();
        assertThat(TableFormat.ofFolder("base_2024")).isEmpty();
        assertThat(TableFormat.ofFolder("metadata")).isEmpty();
    }

    private static boolean admits(PartitionColumn column, Domain domain, String name)
    {
        return PartitionPaths.step(column, domain, name) == FolderStep.NEXT_LEVEL;
    }
}
