package io.parquetbloom.table;

import io.airlift.slice.Slices;
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
        assertThat(PartitionFolders.admits(MONTH, march, "month=3")).isTrue();
        // read as the column reads it: 03 is 3
        assertThat(PartitionFolders.admits(MONTH, march, "month=03")).isTrue();
        assertThat(PartitionFolders.admits(MONTH, march, "month=4")).isFalse();
        // folder keys are matched without regard to case, as the listing names columns
        assertThat(PartitionFolders.admits(MONTH, march, "Month=3")).isTrue();
    }

    @Test
    void rangesAndListsAreAdmittedValueByValue()
    {
        Domain firstQuarter = Domain.create(ValueSet.ofRanges(Range.range(BIGINT, 1L, true, 3L, true)), false);
        assertThat(PartitionFolders.admits(MONTH, firstQuarter, "month=1")).isTrue();
        assertThat(PartitionFolders.admits(MONTH, firstQuarter, "month=3")).isTrue();
        assertThat(PartitionFolders.admits(MONTH, firstQuarter, "month=4")).isFalse();
        Domain days = Domain.multipleValues(DATE, List.of(LocalDate.of(2026, 3, 5).toEpochDay(), LocalDate.of(2026, 3, 7).toEpochDay()));
        PartitionColumn day = new PartitionColumn("day", DATE);
        assertThat(PartitionFolders.admits(day, days, "day=2026-03-05")).isTrue();
        assertThat(PartitionFolders.admits(day, days, "day=2026-03-06")).isFalse();
    }

    @Test
    void defaultPartitionIsTheNullValue()
    {
        assertThat(PartitionFolders.admits(MONTH, Domain.onlyNull(BIGINT), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isTrue();
        assertThat(PartitionFolders.admits(MONTH, Domain.singleValue(BIGINT, 3L), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isFalse();
        assertThat(PartitionFolders.admits(MONTH, Domain.notNull(BIGINT), "month=" + PartitionValues.HIVE_DEFAULT_PARTITION)).isFalse();
    }

    @Test
    void escapedValuesAreReadUnescaped()
    {
        PartitionColumn region = new PartitionColumn("region", VARCHAR);
        Domain usSlashX = Domain.singleValue(VARCHAR, Slices.utf8Slice("us/x"));
        assertThat(PartitionFolders.admits(region, usSlashX, "region=us%2Fx")).isTrue();
        assertThat(PartitionFolders.admits(region, usSlashX, "region=us")).isFalse();
    }

    @Test
    void undecidableFoldersAreEnteredAndOthersAreNot()
    {
        Domain march = Domain.singleValue(BIGINT, 3L);
        // not of the column's type (the table changed since its shape was learned): its files decide, never dropped
        assertThat(PartitionFolders.admits(MONTH, march, "month=march")).isTrue();
        // another level's key, a hidden folder, a folder that is no partition: hold no rows of this level
        assertThat(PartitionFolders.admits(MONTH, march, "day=3")).isFalse();
        assertThat(PartitionFolders.admits(MONTH, march, "_key_index")).isFalse();
        assertThat(PartitionFolders.admits(MONTH, march, ".month=3")).isFalse();
        assertThat(PartitionFolders.admits(MONTH, march, "archive")).isFalse();
    }
}
