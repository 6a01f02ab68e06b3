package io.parquetbloom.metadata;

import com.google.common.hash.Hashing;
import com.google.inject.Inject;
import io.airlift.log.Logger;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import jakarta.annotation.PreDestroy;
import org.weakref.jmx.Managed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static io.airlift.concurrent.Threads.daemonThreadsNamed;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * The local disk tier of the metadata cache: payloads by key in files of their own under
 * {@code metadata-cache.disk.directory}, bounded by {@code metadata-cache.disk.max-size} and evicted least recently
 * used first. What it serves is what was written: an entry holds its key and a tag of everything (SipHash-2-4 under the
 * key of the directory, which it owns: {@link DiskTierDirectory}), is written owner-only to a
 * temporary file and then renamed into place (a reader sees a whole entry or none), and any entry that is short,
 * damaged or holds another key is a miss, deleted and counted, never data. Entries survive a restart: the directory
 * is indexed when the store starts. Off (every read a miss, every write dropped) when no directory is configured.
 */
public class MetadataDiskStore
{
    private static final Logger log = Logger.get(MetadataDiskStore.class);

    private static final int MAGIC = 0x50424D44; // "PBMD"
    // 2: filters with a checksum per page; 3: entries and pages authenticated with the directory's key
    private static final int VERSION = 3;
    // magic, version, key length, payload length, then after key and payload the tag (SipHash-2-4 under the key)
    private static final int HEADER = 16;
    private static final int TRAILER = 8;
    // writes wait in memory for the disk at most this many bytes; beyond it they are dropped (and counted)
    private static final long MAX_PENDING_BYTES = 16 << 20;
    private static final String TEMPORARY_SUFFIX = ".tmp";

    private record Entry(long size, long lastUsed) {}

    private final Optional<DiskTierDirectory> directory;
    private final long maxSize;
    private final Map<Path, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong size = new AtomicLong();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final ExecutorService writer;

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong droppedWrites = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final AtomicLong corrupt = new AtomicLong();
    private final AtomicLong foreignFiles = new AtomicLong();

    @Inject
    public MetadataDiskStore(MetadataConfig config)
    {
        requireNonNull(config, "config is null");
        this.directory = config.getMetadataCacheDiskDirectory().map(Path::of).map(MetadataDiskStore::claim);
        this.maxSize = config.getMetadataCacheDiskMaxSize().toBytes();
        this.writer = Executors.newSingleThreadExecutor(daemonThreadsNamed("parquet-bloom-metadata-disk-%s"));
        directory.ifPresent(owned -> writer.execute(() -> index(owned)));
    }

    private static DiskTierDirectory claim(Path root)
    {
        try {
            return DiskTierDirectory.claim(root);
        }
        catch (IOException e) {
            throw new IllegalStateException("Cannot use metadata-cache.disk.directory %s: %s".formatted(root, e), e);
        }
    }

    public boolean enabled()
    {
        return directory.isPresent();
    }

    /**
     * The tag that authenticates {@code bytes[offset, offset + length)} in this directory: parts of a payload read
     * alone ({@link #openPayload}) carry such tags of their own.
     */
    long tag(byte[] bytes, int offset, int length)
    {
        return directory.orElseThrow().tag(bytes, offset, length);
    }

    /**
     * The payload stored under {@code key}, or empty when none is stored or the stored entry fails any check.
     */
    public Optional<byte[]> read(String key)
    {
        if (directory.isEmpty()) {
            return Optional.empty();
        }
        Path path = pathOf(key);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        }
        catch (NoSuchFileException e) {
            misses.incrementAndGet();
            return Optional.empty();
        }
        catch (IOException | UncheckedIOException e) {
            misses.incrementAndGet();
            log.warn("Cannot read metadata disk cache entry %s: %s", path, e);
            return Optional.empty();
        }
        Optional<byte[]> payload = verifiedPayload(bytes, key);
        if (payload.isEmpty()) {
            corrupt.incrementAndGet();
            misses.incrementAndGet();
            delete(path);
            return Optional.empty();
        }
        hits.incrementAndGet();
        bytesRead.addAndGet(bytes.length);
        entries.computeIfPresent(path, (_, entry) -> new Entry(entry.size(), System.currentTimeMillis()));
        return payload;
    }

    /**
     * Opens the entry stored under {@code key} for reads of parts of its payload: its header, key and length are
     * checked now, its checksum is not (a part cannot be checked against the whole), so what the caller reads must
     * carry checksums of its own. Empty when no such entry is there or its header does not match.
     */
    public Optional<PayloadReader> openPayload(String key)
    {
        if (directory.isEmpty()) {
            return Optional.empty();
        }
        Path path = pathOf(key);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        catch (IOException e) {
            // none there, or the disk failed us: a miss either way, the entry is not blamed
            misses.incrementAndGet();
            return Optional.empty();
        }
        try {
            byte[] keyBytes = key.getBytes(UTF_8);
            ByteBuffer header = ByteBuffer.allocate(HEADER + keyBytes.length);
            if (!readFully(channel, header, 0) || !headerMatches(header.array(), keyBytes, channel.size())) {
                channel.close();
                misses.incrementAndGet();
                discard(path);
                return Optional.empty();
            }
            hits.incrementAndGet();
            entries.computeIfPresent(path, (_, entry) -> new Entry(entry.size(), System.currentTimeMillis()));
            return Optional.of(new PayloadReader(path, channel, HEADER + keyBytes.length, Slices.wrappedBuffer(header.array()).getInt(12)));
        }
        catch (IOException e) {
            // an interrupted query (closed by interrupt) or a failing disk: a miss, and the entry is kept
            closeQuietly(channel);
            misses.incrementAndGet();
            return Optional.empty();
        }
    }

    /**
     * Reads parts of one entry's payload; see {@link #openPayload}.
     */
    public final class PayloadReader
            implements AutoCloseable
    {
        private final Path path;
        private final FileChannel channel;
        private final long payloadStart;
        private final long payloadLength;

        private PayloadReader(Path path, FileChannel channel, long payloadStart, long payloadLength)
        {
            this.path = path;
            this.channel = channel;
            this.payloadStart = payloadStart;
            this.payloadLength = payloadLength;
        }

        public long payloadLength()
        {
            return payloadLength;
        }

        /**
         * The payload's bytes {@code [offset, offset + length)}, or empty when the entry is shorter now (a check
         * failed).
         *
         * @throws IOException when the disk fails, or the reading thread is interrupted: not the entry's fault
         */
        public Optional<byte[]> read(long offset, int length)
                throws IOException
        {
            if (offset < 0 || length < 0 || offset + length > payloadLength) {
                return Optional.empty();
            }
            ByteBuffer buffer = ByteBuffer.allocate(length);
            if (!readFully(channel, buffer, payloadStart + offset)) {
                return Optional.empty();
            }
            bytesRead.addAndGet(length);
            return Optional.of(buffer.array());
        }

        /**
         * The entry failed a check of the caller's: it is deleted and counted, and read from S3 again.
         */
        public void discard()
        {
            MetadataDiskStore.this.discard(path);
        }

        @Override
        public void close()
        {
            closeQuietly(channel);
        }
    }

    private static boolean readFully(FileChannel channel, ByteBuffer buffer, long position)
            throws IOException
    {
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position + buffer.position());
            if (read < 0) {
                return false;
            }
        }
        return true;
    }

    private static void closeQuietly(FileChannel channel)
    {
        try {
            channel.close();
        }
        catch (IOException e) {
            // nothing was written through it
        }
    }

    private void discard(Path path)
    {
        corrupt.incrementAndGet();
        delete(path);
    }

    /**
     * Stores {@code payload} under {@code key} in the background; dropped when the disk falls too far behind.
     */
    public void write(String key, byte[] payload)
    {
        if (directory.isEmpty()) {
            return;
        }
        byte[] entry = encode(directory.get(), key, payload);
        if (pendingBytes.addAndGet(entry.length) > MAX_PENDING_BYTES) {
            pendingBytes.addAndGet(-entry.length);
            droppedWrites.incrementAndGet();
            return;
        }
        try {
            writer.execute(() -> {
                try {
                    store(pathOf(key), entry);
                }
                finally {
                    pendingBytes.addAndGet(-entry.length);
                }
            });
        }
        catch (RejectedExecutionException e) {
            pendingBytes.addAndGet(-entry.length);
            droppedWrites.incrementAndGet();
        }
    }

    static byte[] encode(DiskTierDirectory owner, String key, byte[] payload)
    {
        byte[] keyBytes = key.getBytes(UTF_8);
        Slice entry = Slices.allocate(HEADER + keyBytes.length + payload.length + TRAILER);
        entry.setInt(0, MAGIC);
        entry.setInt(4, VERSION);
        entry.setInt(8, keyBytes.length);
        entry.setInt(12, payload.length);
        entry.setBytes(HEADER, keyBytes);
        entry.setBytes(HEADER + keyBytes.length, payload);
        entry.setLong(entry.length() - TRAILER, owner.tag(entry.byteArray(), 0, entry.length() - TRAILER));
        return entry.byteArray();
    }

    /**
     * The payload when the bytes are a whole entry of this version for exactly this key with a matching checksum.
     */
    private Optional<byte[]> verifiedPayload(byte[] bytes, String key)
    {
        if (bytes.length < HEADER + TRAILER) {
            return Optional.empty();
        }
        byte[] keyBytes = key.getBytes(UTF_8);
        if (!headerMatches(bytes, keyBytes, bytes.length) || Slices.wrappedBuffer(bytes).getLong(bytes.length - TRAILER) != tag(bytes, 0, bytes.length - TRAILER)) {
            return Optional.empty();
        }
        return Optional.of(Arrays.copyOfRange(bytes, HEADER + keyBytes.length, bytes.length - TRAILER));
    }

    /**
     * Whether {@code header} (at least the header and the key) begins an entry of this version for exactly this
     * key whose lengths add up to {@code entryLength}.
     */
    private static boolean headerMatches(byte[] header, byte[] keyBytes, long entryLength)
    {
        if (header.length < HEADER + keyBytes.length) {
            return false;
        }
        Slice slice = Slices.wrappedBuffer(header);
        long payloadLength = slice.getInt(12);
        return slice.getInt(0) == MAGIC && slice.getInt(4) == VERSION && slice.getInt(8) == keyBytes.length
                && payloadLength >= 0 && HEADER + keyBytes.length + payloadLength + TRAILER == entryLength
                && Arrays.equals(header, HEADER, HEADER + keyBytes.length, keyBytes, 0, keyBytes.length);
    }

    /**
     * Entries live two levels down, by a SHA-256 of the key, so no directory grows past a few hundred entries per
     * 100,000 in all.
     */
    Path pathOf(String key)
    {
        String name = Hashing.sha256().hashString(key, UTF_8).toString();
        return directory.orElseThrow().root().resolve(name.substring(0, 2)).resolve(name.substring(2, 4)).resolve(name);
    }

    private void store(Path path, byte[] entry)
    {
        Path temporary = path.resolveSibling(path.getFileName() + "." + Thread.currentThread().threadId() + TEMPORARY_SUFFIX);
        try {
            DiskTierDirectory.createOwnerOnlyDirectories(path.getParent());
            // readable by the owner only: footers hold min/max values, in plain text even of SSE-C objects
            Files.deleteIfExists(temporary);
            Files.write(DiskTierDirectory.createOwnerOnlyFile(temporary), entry, StandardOpenOption.WRITE);
            try {
                Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (IOException e) {
            log.warn("Cannot write metadata disk cache entry %s: %s", path, e);
            delete(temporary);
            return;
        }
        Entry previous = entries.put(path, new Entry(entry.length, System.currentTimeMillis()));
        size.addAndGet(entry.length - (previous == null ? 0 : previous.size()));
        writes.incrementAndGet();
        bytesWritten.addAndGet(entry.length);
        evictOverMaxSize();
    }

    /**
     * Least recently used first, down to 90% of the limit, so that eviction runs now and then rather than on every
     * write.
     */
    private void evictOverMaxSize()
    {
        if (size.get() <= maxSize) {
            return;
        }
        List<Map.Entry<Path, Entry>> oldestFirst = entries.entrySet().stream()
                .sorted(Comparator.comparingLong(entry -> entry.getValue().lastUsed()))
                .toList();
        for (Map.Entry<Path, Entry> entry : oldestFirst) {
            if (size.get() <= maxSize * 9 / 10) {
                return;
            }
            delete(entry.getKey());
            evictions.incrementAndGet();
        }
    }

    private void delete(Path path)
    {
        Entry removed = entries.remove(path);
        if (removed != null) {
            size.addAndGet(-removed.size());
        }
        try {
            Files.deleteIfExists(path);
        }
        catch (IOException e) {
            log.warn("Cannot delete metadata disk cache entry %s: %s", path, e);
        }
    }

    /**
     * Learns what an earlier server left: sizes and ages of its entries, so the limit holds across restarts;
     * temporary files of writes a stop cut short are removed. Files the tier does not name as its own are left
     * alone, never adopted, evicted or deleted (counted).
     */
    private void index(DiskTierDirectory owned)
    {
        try {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(owned.root(), 3)) {
                files = walk.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().equals(DiskTierDirectory.MARKER)).toList();
            }
            for (Path file : files) {
                indexFile(owned, file);
            }
            evictOverMaxSize();
        }
        catch (IOException | UncheckedIOException e) {
            log.warn("Cannot index the metadata disk cache directory %s: %s", owned.root(), e);
        }
    }

    private void indexFile(DiskTierDirectory owned, Path file)
    {
        try {
            if (owned.isTemporary(file)) {
                Files.deleteIfExists(file);
                return;
            }
            if (!owned.isEntry(file)) {
                foreignFiles.incrementAndGet();
                log.warn("Metadata disk cache: leaving %s alone, it is not one of the tier's entries", file);
                return;
            }
            Entry entry = new Entry(Files.size(file), Files.getLastModifiedTime(file).toMillis());
            if (entries.putIfAbsent(file, entry) == null) {
                size.addAndGet(entry.size());
            }
        }
        catch (IOException | UncheckedIOException e) {
            // deleted meanwhile (a bad entry found by a read, or another store's write): nothing to count
        }
    }

    /**
     * Waits for the writes queued so far (tests, and a server that stops).
     */
    public void flush()
    {
        try {
            writer.submit(() -> {}).get(1, TimeUnit.MINUTES);
        }
        catch (Exception e) {
            throw new IllegalStateException("metadata disk cache writes did not finish", e);
        }
    }

    @PreDestroy
    public void shutdown()
    {
        writer.shutdown();
    }

    @Managed
    public long getDiskHits()
    {
        return hits.get();
    }

    @Managed
    public long getDiskMisses()
    {
        return misses.get();
    }

    @Managed
    public long getDiskBytesRead()
    {
        return bytesRead.get();
    }

    @Managed
    public long getDiskWrites()
    {
        return writes.get();
    }

    @Managed
    public long getDiskBytesWritten()
    {
        return bytesWritten.get();
    }

    @Managed
    public long getDiskDroppedWrites()
    {
        return droppedWrites.get();
    }

    @Managed
    public long getDiskEvictions()
    {
        return evictions.get();
    }

    /**
     * Entries found short, damaged or holding another key: ignored, deleted, never served.
     */
    @Managed
    public long getDiskCorruptEntries()
    {
        return corrupt.get();
    }

    /**
     * Files in the tier's directory it did not name as its own: never read, evicted or deleted.
     */
    @Managed
    public long getDiskForeignFiles()
    {
        return foreignFiles.get();
    }

    @Managed
    public long getDiskSize()
    {
        return size.get();
    }

    @Managed
    public long getDiskMaxSize()
    {
        return maxSize;
    }

    @Managed
    public long getDiskEntries()
    {
        return entries.size();
    }
}
