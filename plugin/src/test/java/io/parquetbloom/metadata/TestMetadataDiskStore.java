package io.parquetbloom.metadata;

import io.airlift.units.DataSize;
import io.parquetbloom.sbbf.SplitBlockBloomFilter;
import io.parquetbloom.sbbf.SplitBlockBloomFilterBuilder;
import io.parquetbloom.sbbf.SplitBlockBloomFilterReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The disk tier serves exactly what was written for a key, across restarts, within its size; anything else on disk
 * (damaged, short, another key's entry, a write cut short) is a miss that is counted, never data.
 */
final class TestMetadataDiskStore
{
    @TempDir
    Path directory;

    @Test
    void servesWhatWasWrittenAcrossARestart()
    {
        MetadataDiskStore store = store(DataSize.of(10, DataSize.Unit.MEGABYTE));
        store.write("a", bytes(1_000, 1));
        store.write("b", bytes(2_000, 2));
        store.flush();
        assertThat(store.read("a")).hasValueSatisfying(payload -> assertThat(payload).isEqualTo(bytes(1_000, 1)));
        assertThat(store.read("c")).isEmpty();
        assertThat(store.getDiskHits()).isEqualTo(1);
        assertThat(store.getDiskMisses()).isEqualTo(1);
        store.shutdown();

        MetadataDiskStore restarted = store(DataSize.of(10, DataSize.Unit.MEGABYTE));
        restarted.flush();
        assertThat(restarted.getDiskEntries()).isEqualTo(2);
        assertThat(restarted.getDiskSize()).isGreaterThan(3_000);
        assertThat(restarted.read("b")).hasValueSatisfying(payload -> assertThat(payload).isEqualTo(bytes(2_000, 2)));
        assertThat(restarted.getDiskCorruptEntries()).isZero();
    }

    @Test
    void damagedShortOrForeignEntriesAreMisses()
            throws IOException
    {
        MetadataDiskStore store = store(DataSize.of(10, DataSize.Unit.MEGABYTE));
        for (String key : List.of("flipped", "short", "empty", "foreign", "other")) {
            store.write(key, bytes(4_096, key.length()));
        }
        store.flush();
        Path flipped = store.pathOf("flipped");
        byte[] content = Files.readAllBytes(flipped);
        content[content.length / 2] ^= 0x10;
        Files.write(flipped, content);
        Path shortEntry = store.pathOf("short");
        Files.write(shortEntry, Files.readAllBytes(shortEntry).length > 100 ? Arrays.copyOf(Files.readAllBytes(shortEntry), 100) : new byte[0]);
        Files.write(store.pathOf("empty"), new byte[0]);
        // another key's whole, valid entry where this key's belongs
        Files.copy(store.pathOf("other"), store.pathOf("foreign"), StandardCopyOption.REPLACE_EXISTING);

        for (String key : List.of("flipped", "short", "empty", "foreign")) {
            assertThat(store.read(key)).as(key).isEmpty();
            assertThat(store.pathOf(key)).as("a bad entry is deleted").doesNotExist();
        }
        assertThat(store.getDiskCorruptEntries()).isEqualTo(4);
        assertThat(store.read("other")).isPresent();
    }

    @Test
    void evictsLeastRecentlyUsedBeyondItsSize()
            throws InterruptedException
    {
        MetadataDiskStore store = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        store.write("first", bytes(32_768, 0));
        store.flush();
        Thread.sleep(5);
        for (int i = 0; i < 50; i++) {
            // the first entry stays in use
            assertThat(store.read("first")).isPresent();
            store.write("entry-" + i, bytes(32_768, i));
            store.flush();
            Thread.sleep(1);
        }
        assertThat(store.getDiskSize()).isLessThanOrEqualTo(1 << 20);
        assertThat(store.getDiskEvictions()).isPositive();
        assertThat(store.read("first")).isPresent();
        assertThat(store.read("entry-0")).isEmpty();
        assertThat(store.read("entry-49")).isPresent();
    }

    @Test
    void startRemovesWritesCutShort()
            throws IOException
    {
        MetadataDiskStore first = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        first.write("a", bytes(100, 1));
        first.flush();
        first.shutdown();
        Path entry = first.pathOf("a");
        Path leftover = entry.resolveSibling(entry.getFileName() + ".7.tmp");
        Files.write(leftover, bytes(100, 1));
        MetadataDiskStore store = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        store.flush();
        assertThat(leftover).doesNotExist();
        assertThat(store.getDiskEntries()).isEqualTo(1);
    }

    /**
     * Pointed at a directory another program uses, the tier refuses it, naming it, and touches nothing; before, it
     * deleted every {@code *.tmp} three levels down and evicted the rest as its own.
     */
    @Test
    void refusesADirectoryItDoesNotOwn()
            throws IOException
    {
        Path shared = directory.resolve("shared");
        Path notes = shared.resolve("notes.txt");
        Path cutShort = shared.resolve("ab").resolve("cd").resolve("download.tmp");
        Files.createDirectories(cutShort.getParent());
        Files.write(notes, bytes(100, 1));
        Files.write(cutShort, bytes(100, 2));
        MetadataConfig config = new MetadataConfig().setMetadataCacheDiskDirectory(shared.toString());
        assertThatThrownBy(() -> new MetadataDiskStore(config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("metadata-cache.disk.directory " + shared)
                .hasMessageContaining("not created by this connector");
        assertThat(notes).exists();
        assertThat(cutShort).exists();
    }

    /**
     * A directory or marker others can write is refused as {@code ssh} refuses such a key file: whoever can write the
     * marker chooses the key that authenticates entries, and could plant entries that prune real rows.
     */
    @Test
    void refusesADirectoryOrMarkerOthersCanWrite()
            throws IOException
    {
        Path tier = directory.resolve("tier");
        MetadataConfig config = new MetadataConfig().setMetadataCacheDiskDirectory(tier.toString());
        new MetadataDiskStore(config);
        Path marker;
        try (var files = Files.list(tier)) {
            marker = files.filter(file -> file.getFileName().toString().startsWith(".")).findFirst().orElseThrow();
        }
        Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> new MetadataDiskStore(config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("can be written by its group or others (rw-rw-rw-)");
        // the marker is the key: readable by others, entries could be forged
        Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> new MetadataDiskStore(config))
                .hasMessageContaining("can be read by its group or others (rw-r--r--)");
        Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(tier, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> new MetadataDiskStore(config))
                .hasMessageContaining("the directory can be written by its group or others");
        Files.setPosixFilePermissions(tier, PosixFilePermissions.fromString("rwx------"));
        // a marker that is a link to a file someone else keeps
        Path elsewhere = directory.resolve("planted-key");
        Files.write(elsewhere, bytes(16, 9));
        Files.delete(marker);
        Files.createSymbolicLink(marker, elsewhere);
        assertThatThrownBy(() -> new MetadataDiskStore(config))
                .hasMessageContaining("is a symbolic link");
    }

    /**
     * In its own directory, the tier reads, adopts, evicts and deletes only files named as it names entries.
     */
    @Test
    void leavesForeignFilesInItsDirectoryAlone()
            throws IOException
    {
        MetadataDiskStore first = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        first.write("a", bytes(100, 1));
        first.flush();
        first.shutdown();
        Path planted = directory.resolve("ab").resolve("cd").resolve("other.tmp");
        Path large = directory.resolve("big.bin");
        Files.createDirectories(planted.getParent());
        Files.write(planted, bytes(100, 3));
        Files.write(large, new byte[2 << 20]);
        MetadataDiskStore store = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        store.flush();
        assertThat(planted).exists();
        assertThat(large).exists();
        assertThat(store.getDiskForeignFiles()).isEqualTo(2);
        assertThat(store.getDiskEntries()).isEqualTo(1);
        assertThat(store.getDiskEvictions()).isZero();
        assertThat(store.read("a")).isPresent();
    }

    @Test
    void entriesAreReadableByTheirOwnerOnly()
            throws IOException
    {
        MetadataDiskStore store = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        store.write("a", bytes(100, 1));
        store.flush();
        Path entry = store.pathOf("a");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry.getParent()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(DiskTierDirectory.MARKER)))).isEqualTo("rw-------");
    }

    /**
     * A whole, well-formed entry for the right key, written by whoever can write the directory but without its key
     * (here: another directory's tier), is a miss: before, a CRC was all it needed.
     */
    @Test
    void plantedEntriesAreMisses()
            throws IOException
    {
        MetadataDiskStore store = store(DataSize.of(1, DataSize.Unit.MEGABYTE));
        Path elsewhere = directory.resolve("elsewhere");
        MetadataDiskStore other = new MetadataDiskStore(new MetadataConfig().setMetadataCacheDiskDirectory(elsewhere.toString()));
        other.write("a", bytes(100, 9));
        other.flush();
        Files.createDirectories(store.pathOf("a").getParent());
        Files.copy(other.pathOf("a"), store.pathOf("a"));
        assertThat(store.read("a")).isEmpty();
        assertThat(store.getDiskCorruptEntries()).isEqualTo(1);
    }

    /**
     * A directory an earlier version of the tier filled (its naming, its magic number, no marker) is taken over: its
     * entries carry no tag, so they are deleted, and the directory is marked.
     */
    @Test
    void takesOverAnEarlierVersionsDirectory()
            throws IOException
    {
        Path earlier = directory.resolve("earlier");
        Path entry = earlier.resolve("0a").resolve("1b").resolve("0a1b" + "c".repeat(60));
        Files.createDirectories(entry.getParent());
        Files.write(entry, new byte[] {'P', 'B', 'M', 'D', 0, 0, 0, 2});
        MetadataDiskStore store = new MetadataDiskStore(new MetadataConfig().setMetadataCacheDiskDirectory(earlier.toString()));
        store.flush();
        assertThat(entry).doesNotExist();
        assertThat(earlier.resolve(DiskTierDirectory.MARKER)).exists();
    }

    @Test
    void offWithoutADirectory()
    {
        MetadataDiskStore store = new MetadataDiskStore(new MetadataConfig());
        assertThat(store.enabled()).isFalse();
        store.write("a", bytes(10, 1));
        store.flush();
        assertThat(store.read("a")).isEmpty();
        assertThat(store.getDiskWrites()).isZero();
    }

    @Test
    void keepsFiltersAsFoldedAndTheFactOfNone()
    {
        MetadataDiskStore store = store(DataSize.of(10, DataSize.Unit.MEGABYTE));
        MetadataDiskTier tier = new MetadataDiskTier(store);
        FileKey file = new FileKey("s3://lake/t/a.parquet", 1234, "\"etag\"");
        SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(4096);
        for (long hash = 0; hash < 100; hash++) {
            builder.insert(hash * 0x9E3779B97F4A7C15L);
        }
        SplitBlockBloomFilter filter = builder.build();
        BloomFilterKey withFilter = new BloomFilterKey(0, List.of("device_id"));
        BloomFilterKey without = new BloomFilterKey(1, List.of("device_id"));
        tier.keepFilter(file, withFilter, new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(filter, 4200)));
        tier.keepFilter(file, without, new BloomFilterCache.Cached.NoFilter());
        tier.keepFilter(file, new BloomFilterKey(2, List.of("device_id")), new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Unusable("bad header")));
        store.flush();

        MetadataCacheStats stats = new MetadataCacheStats();
        assertThat(tier.filter(file, withFilter, stats)).contains(new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(filter, 4200)));
        assertThat(tier.filter(file, without, stats)).contains(new BloomFilterCache.Cached.NoFilter());
        // what a reader could not use is read again, never remembered
        assertThat(tier.filter(file, new BloomFilterKey(2, List.of("device_id")), stats)).isEmpty();
        // another version of the object: nothing
        assertThat(tier.filter(new FileKey("s3://lake/t/a.parquet", 1234, "\"other\""), withFilter, stats)).isEmpty();
        assertThat(stats.diskHits()).isEqualTo(2);
        assertThat(stats.diskBytesRead()).isEqualTo(4096 + 1);
    }

    /**
     * Probing a filter where it lies answers exactly as the filter in memory does, reads only the pages of the
     * probed blocks, and a damaged page is no answer (the entry is dropped), never "absent".
     */
    @Test
    void probesFiltersOnDiskExactlyAsInMemory()
            throws IOException
    {
        MetadataDiskStore store = store(DataSize.of(10, DataSize.Unit.MEGABYTE));
        MetadataDiskTier tier = new MetadataDiskTier(store);
        FileKey file = new FileKey("s3://lake/t/b.parquet", 99_999, "\"v1\"");
        SplittableRandom random = new SplittableRandom(24);
        // 64 KiB: 16 pages
        SplitBlockBloomFilterBuilder builder = new SplitBlockBloomFilterBuilder(65_536);
        long[] inserted = new long[5_000];
        for (int i = 0; i < inserted.length; i++) {
            inserted[i] = random.nextLong();
            builder.insert(inserted[i]);
        }
        SplitBlockBloomFilter filter = builder.build();
        BloomFilterKey key = new BloomFilterKey(3, List.of("device_id"));
        BloomFilterKey none = new BloomFilterKey(4, List.of("device_id"));
        tier.keepFilter(file, key, new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(filter, 65_600)));
        tier.keepFilter(file, none, new BloomFilterCache.Cached.NoFilter());
        store.flush();

        MetadataCacheStats stats = new MetadataCacheStats();
        int absent = 0;
        for (int i = 0; i < 2_000; i++) {
            long[] hashes = i % 10 == 0 ? new long[] {inserted[i], random.nextLong()} : new long[] {random.nextLong(), random.nextLong(), random.nextLong()};
            MetadataDiskTier.Verdict expected = filter.mightContainAny(hashes) ? MetadataDiskTier.Verdict.MIGHT_CONTAIN : MetadataDiskTier.Verdict.ABSENT;
            assertThat(tier.probe(file, key, hashes, stats)).contains(expected);
            absent += expected == MetadataDiskTier.Verdict.ABSENT ? 1 : 0;
        }
        assertThat(absent).isGreaterThan(1_000);
        assertThat(tier.probe(file, none, new long[] {1}, stats)).contains(MetadataDiskTier.Verdict.NO_FILTER);
        // a filter whose bitset ends in a short page (200 blocks: one page of 128 and one of 72)
        SplitBlockBloomFilterBuilder shortBuilder = new SplitBlockBloomFilterBuilder(200 * SplitBlockBloomFilter.BYTES_PER_BLOCK);
        for (int i = 0; i < 300; i++) {
            shortBuilder.insert(inserted[i]);
        }
        SplitBlockBloomFilter shortFilter = shortBuilder.build();
        BloomFilterKey shortKey = new BloomFilterKey(5, List.of("device_id"));
        tier.keepFilter(file, shortKey, new BloomFilterCache.Cached.Filter(new SplitBlockBloomFilterReader.Result.Usable(shortFilter, 6_500)));
        store.flush();
        for (int i = 0; i < 1_000; i++) {
            long[] hashes = {i < 300 ? inserted[i] : random.nextLong()};
            assertThat(tier.probe(file, shortKey, hashes, stats)).contains(shortFilter.mightContainAny(hashes) ? MetadataDiskTier.Verdict.MIGHT_CONTAIN : MetadataDiskTier.Verdict.ABSENT);
        }
        // a probe of one hash reads the header and one 4 KiB page, not the filter
        MetadataCacheStats one = new MetadataCacheStats();
        tier.probe(file, key, new long[] {inserted[7]}, one);
        assertThat(one.diskBytesRead()).isLessThan(4_096 + 200);

        // a query cancelled while probing (its thread interrupted): no verdict, and the entry is not blamed
        Thread.currentThread().interrupt();
        try {
            assertThat(tier.probe(file, key, new long[] {inserted[1]}, stats)).isEmpty();
        }
        finally {
            Thread.interrupted();
        }
        assertThat(store.getDiskCorruptEntries()).isZero();
        assertThat(tier.probe(file, key, new long[] {inserted[1]}, stats)).contains(MetadataDiskTier.Verdict.MIGHT_CONTAIN);

        // a bit flipped in the bitset: the probe of that page gives no answer and the entry is gone
        Path entry = store.pathOf(MetadataDiskTier.filterKey(file, key));
        byte[] bytes = Files.readAllBytes(entry);
        bytes[bytes.length - 100] ^= 0x04;
        Files.write(entry, bytes);
        long[] lastPage = LongStream.generate(random::nextLong)
                .filter(hash -> SplitBlockBloomFilter.blockOf(hash, filter.numBlocks()) >= filter.numBlocks() - 8)
                .limit(1)
                .toArray();
        assertThat(tier.probe(file, key, lastPage, stats)).isEmpty();
        assertThat(entry).doesNotExist();
        assertThat(store.getDiskCorruptEntries()).isEqualTo(1);
        assertThat(tier.probe(file, key, new long[] {inserted[0]}, stats)).isEmpty();
    }

    private MetadataDiskStore store(DataSize maxSize)
    {
        return new MetadataDiskStore(new MetadataConfig()
                .setMetadataCacheDiskDirectory(directory.toString())
                .setMetadataCacheDiskMaxSize(maxSize));
    }

    private static byte[] bytes(int length, int seed)
    {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }
}
