package io.parquetbloom.metadata;

import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.parquetbloom.testing.TestingParquetFiles;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One tail GET when the footer fits it, a second for exactly the missing front part when it does not; files that
 * are not Parquet fail with an error naming the file.
 */
final class TestFooterReader
{
    private static final byte[] FILE = TestingParquetFiles.devices(4, 100);

    @Test
    void footerInTheTailTakesOneGet()
    {
        InMemoryObjectStore store = new InMemoryObjectStore(FILE);
        S3RequestStats stats = new S3RequestStats();
        ParquetFileMetadata file = FooterReader.readFooter(store, store.object(), 1 << 20, stats);
        assertThat(stats.getRequests()).isEqualTo(1);
        // the whole (small) file was the tail: every filter is in it
        assertThat(file.tailStart()).isZero();
        assertThat(file.tail()).isEqualTo(FILE);
        assertThat(file.footerStart() + 8 + file.footerLength()).isEqualTo(FILE.length);
    }

    @Test
    void footerLargerThanTheTailTakesASecondGetForTheRest()
            throws IOException
    {
        InMemoryObjectStore store = new InMemoryObjectStore(FILE);
        S3RequestStats stats = new S3RequestStats();
        ParquetFileMetadata file = FooterReader.readFooter(store, store.object(), 64, stats);
        assertThat(stats.getRequests()).isEqualTo(2);
        // 64 bytes, then the footer's front part; nothing before the footer
        assertThat(stats.getBytes()).isEqualTo(file.footerLength() + 8L);
        assertThat(file.tailStart()).isEqualTo(file.footerStart());
        assertThat(file.blocks()).hasSize(4);
    }

    @Test
    void rowGroupThatCannotBeLocatedIsAnErrorNamingIt()
    {
        // trino-parquet drops this row group from its blocks: later row groups would take its number
        byte[] shifted = TestingParquetFiles.rewriteFooter(FILE, footer -> footer.getRow_groups().get(1).getColumns().getFirst().getMeta_data().setData_page_offset(-100));
        assertBadData(shifted, "row group 1 of 4 cannot be located");
        byte[] dictionaryBefore = TestingParquetFiles.rewriteFooter(FILE, footer -> {
            var first = footer.getRow_groups().get(2).getColumns().getFirst().getMeta_data();
            first.setDictionary_page_offset(-7);
            first.setData_page_offset(-3);
        });
        assertBadData(dictionaryBefore, "row group 2 of 4 cannot be located");
    }

    @Test
    void notParquetIsAnErrorNamingTheFile()
    {
        assertBadData(new byte[7], "is not a Parquet file: 7 bytes is too small");
        assertBadData(Arrays.copyOf(FILE, FILE.length - 1), "no PAR1 magic at its end");
        byte[] hugeFooterLength = FILE.clone();
        hugeFooterLength[FILE.length - 5] = 0x7f;
        assertBadData(hugeFooterLength, "footer length");
        byte[] garbageFooter = FILE.clone();
        int footerLength = (garbageFooter[FILE.length - 8] & 0xFF) | (garbageFooter[FILE.length - 7] & 0xFF) << 8;
        Arrays.fill(garbageFooter, FILE.length - 8 - footerLength, FILE.length - 8, (byte) 0x5a);
        assertBadData(garbageFooter, "has a corrupt footer");
    }

    private static void assertBadData(byte[] bytes, String message)
    {
        InMemoryObjectStore store = new InMemoryObjectStore(bytes);
        assertThatThrownBy(() -> FooterReader.readFooter(store, store.object(), 1 << 20, new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_BAD_DATA.toErrorCode()))
                .hasMessageContaining("s3://bucket/table/file.parquet")
                .hasMessageContaining(message);
    }
}
