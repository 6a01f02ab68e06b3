package io.parquetbloom.keyindex;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.airlift.units.DataSize;
import io.parquetbloom.hash.ParquetValueHasher;
import io.parquetbloom.hash.ValueHash;
import io.parquetbloom.metadata.MetadataConfig;
import io.parquetbloom.metadata.ParquetMetadataCache;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectInfo;
import io.parquetbloom.s3.S3RequestStats;
import io.parquetbloom.table.LakeFile;
import io.parquetbloom.testing.InMemoryObjectStore;
import io.trino.spi.predicate.Domain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.airlift.units.DataSize.Unit.KILOBYTE;
import static io.airlift.units.DataSize.Unit.MEGABYTE;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.apache.parquet.schema.LogicalTypeAnnotation.stringType;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.Type.Repetition.OPTIONAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A lookup's reads of a segment are bounded: pages are matched a window at a time, a lookup that would read more
 * than {@code key-index.max-lookup-bytes} is refused (the scan plans without the index), and a trailer the metadata
 * cache could never keep is not read by every query.
 */
final class TestKeyIndexReader
{
    private static final int FILES = 4;
    private static final int ROW_GROUPS = 8;
    private static final int KEYS = 400_000;
    private static final S3Location TABLE = new S3Location("bucket", "table/");
    private static final org.apache.parquet.schema.PrimitiveType STRING_COLUMN = org.apache.parquet.schema.Types.primitive(BINARY, OPTIONAL).as(stringType()).named("device_id");

    @TempDir
    Path directory;

    private record Segment(byte[] bytes, KeyIndexPointer pointer, Map<String, LakeFile> listed) {}

    @Test
    void lookupAboveTheLimitIsRefusedAndOneKeyReadsOnePage()
            throws Exception
    {
        Segment segment = writeSegment();
        assertThat(segment.bytes().length).isGreaterThan(1024 * 1024);
        InMemoryObjectStore store = new InMemoryObjectStore(segment.bytes());
        KeyIndexReader reader = new KeyIndexReader(store, new ParquetMetadataCache(new MetadataConfig()), new KeyIndexConfig().setMaxLookupBytes(DataSize.of(1, MEGABYTE)));

        // one key: the trailer and one page
        Optional<KeyIndexSelection> one = reader.lookup(TABLE, "device_id", segment.pointer(), Domain.singleValue(VARCHAR, key(17)), 100_000, segment.listed(), new S3RequestStats(), Runnable::run);
        assertThat(one).isPresent();
        assertThat(one.get().pagesRead()).isEqualTo(1);
        assertThat(one.get().covered().values().stream().mapToInt(file -> file.rowGroups().size()).sum()).isEqualTo(1);

        // 20,000 keys touch every page: more than the 1 MB a lookup may read
        List<Slice> many = IntStream.range(0, 20_000).mapToObj(i -> key(i * 20)).toList();
        long before = store.gets();
        assertThatThrownBy(() -> reader.lookup(TABLE, "device_id", segment.pointer(), Domain.multipleValues(VARCHAR, many), 100_000, segment.listed(), new S3RequestStats(), Runnable::run))
                .isInstanceOf(KeyIndexLookupTooLargeException.class)
                .hasMessageContaining("key-index.max-lookup-bytes");
        // refused before any page is read
        assertThat(store.gets()).isEqualTo(before);

        // under a limit that fits, the same lookup is answered, every key found
        KeyIndexReader roomy = new KeyIndexReader(store, new ParquetMetadataCache(new MetadataConfig()), new KeyIndexConfig());
        KeyIndexSelection all = roomy.lookup(TABLE, "device_id", segment.pointer(), Domain.multipleValues(VARCHAR, many), 100_000, segment.listed(), new S3RequestStats(), Runnable::run).orElseThrow();
        assertThat(all.bytesRead()).isGreaterThan(1024 * 1024);
        assertThat(all.covered()).hasSize(FILES);
    }

    /**
     * A lookup whose pages take many windows (here of 64 kB: one or two pages each) answers exactly as one window,
     * with one GET per range.
     */
    @Test
    void lookupReadInManyWindowsAnswersAsInOne()
            throws Exception
    {
        Segment segment = writeSegment();
        // keys on every fourth page only: pages far enough apart to be read as ranges of their own
        KeyIndexPointer.Segment reference = segment.pointer().segments().getFirst();
        KeyIndexSegment parsed = KeyIndexSegment.parse(Arrays.copyOfRange(segment.bytes(), segment.bytes().length - reference.trailerBytes(), segment.bytes().length), segment.bytes().length, "s");
        List<Slice> many = IntStream.range(0, KEYS)
                .filter(i -> Arrays.stream(parsed.pagesFor(new long[] {KeyIndexFormat.truncate(hash(key(i)), parsed.header().hashBits())})).allMatch(page -> page % 4 == 0))
                .limit(2_000)
                .mapToObj(TestKeyIndexReader::key)
                .toList();
        InMemoryObjectStore whole = new InMemoryObjectStore(segment.bytes());
        KeyIndexSelection inOne = new KeyIndexReader(whole, new ParquetMetadataCache(new MetadataConfig()), new KeyIndexConfig())
                .lookup(TABLE, "device_id", segment.pointer(), Domain.multipleValues(VARCHAR, many), 100_000, segment.listed(), new S3RequestStats(), Runnable::run).orElseThrow();
        InMemoryObjectStore windowed = new InMemoryObjectStore(segment.bytes());
        KeyIndexSelection inMany = new KeyIndexReader(windowed, new ParquetMetadataCache(new MetadataConfig()), new KeyIndexConfig(), 64 * 1024)
                .lookup(TABLE, "device_id", segment.pointer(), Domain.multipleValues(VARCHAR, many), 100_000, segment.listed(), new S3RequestStats(), Runnable::run).orElseThrow();
        assertThat(inMany.covered()).isEqualTo(inOne.covered());
        assertThat(inMany.pagesRead()).isEqualTo(inOne.pagesRead()).isGreaterThan(3);
        assertThat(inMany.bytesRead()).isEqualTo(inOne.bytesRead());
        assertThat(windowed.reads()).isEqualTo(whole.reads()).hasSizeGreaterThan(3);
    }

    @Test
    void trailerTheCacheCannotKeepIsNotUsed()
            throws Exception
    {
        Segment segment = writeSegment();
        InMemoryObjectStore store = new InMemoryObjectStore(segment.bytes());
        int trailerBytes = segment.pointer().segments().getFirst().trailerBytes();
        MetadataConfig tiny = new MetadataConfig().setMetadataCacheMaxSize(DataSize.of(trailerBytes / 1024, KILOBYTE));
        KeyIndexReader reader = new KeyIndexReader(store, new ParquetMetadataCache(tiny), new KeyIndexConfig());
        assertThatThrownBy(() -> reader.lookup(TABLE, "device_id", segment.pointer(), Domain.singleValue(VARCHAR, key(17)), 100_000, segment.listed(), new S3RequestStats(), Runnable::run))
                .isInstanceOf(KeyIndexUnusableException.class)
                .hasMessageContaining("metadata-cache.max-size");
        assertThat(store.gets()).isZero();
    }

    private static long hash(Slice key)
    {
        return ((ValueHash.Hashes) ParquetValueHasher.hash(VARCHAR, key, STRING_COLUMN)).canonical();
    }

    private static Slice key(int i)
    {
        return Slices.utf8Slice("device-%08d".formatted(i));
    }

    private Segment writeSegment()
            throws Exception
    {
        org.apache.parquet.schema.PrimitiveType type = STRING_COLUMN;
        int rowGroupBits = KeyIndexFormat.rowGroupBits(FILES * ROW_GROUPS);
        int hashBits = KeyIndexFormat.hashBits(KEYS, rowGroupBits);
        long[] packed = new long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            long hash = hash(key(i));
            packed[i] = KeyIndexFormat.pack(KeyIndexFormat.truncate(hash, hashBits), rowGroupBits, i % (FILES * ROW_GROUPS));
        }
        Arrays.sort(packed);
        List<IndexedFile> files = new ArrayList<>();
        Map<String, LakeFile> listed = new HashMap<>();
        long[] rows = new long[ROW_GROUPS];
        Arrays.fill(rows, KEYS / (FILES * ROW_GROUPS));
        for (int file = 0; file < FILES; file++) {
            String path = "part-%d.parquet".formatted(file);
            files.add(new IndexedFile(path, 1000 + file, "etag" + file, true, rows, rows));
            listed.put(path, new LakeFile(new S3ObjectInfo(TABLE.child(path), 1000 + file, "etag" + file), path, Map.of(), Instant.EPOCH));
        }
        Path target = directory.resolve("segment.kidx");
        SegmentHeader header = new SegmentHeader("device_id", "varchar", type.toString(), hashBits, rowGroupBits, 1, 2);
        KeyIndexWriter.WrittenSegment written = KeyIndexWriter.write(target, header, files, Arrays.stream(packed).distinct().iterator());
        byte[] bytes = Files.readAllBytes(target);
        KeyIndexPointer.Segment reference = new KeyIndexPointer.Segment("s.kidx", bytes.length, "etag-1", written.trailerBytes(), FILES, written.entries(), 1, 2);
        return new Segment(bytes, new KeyIndexPointer("device_id", List.of(reference)), listed);
    }
}
