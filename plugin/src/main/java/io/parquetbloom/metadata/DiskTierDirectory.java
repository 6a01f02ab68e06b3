package io.parquetbloom.metadata;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The disk tier's directory, and what in it the tier owns. It claims a directory that is empty (or new) by writing a
 * marker file holding a random key; a directory holding anything else without that marker is refused, so that
 * pointing the tier at a shared directory never deletes another program's files. Inside it, the tier only ever reads,
 * adopts or deletes files named as it names them ({@code xx/yy/<64 hex>}, and {@code <64 hex>.<n>.tmp} while
 * written). Everything it creates is readable by its owner only, and every entry is authenticated with the marker's
 * key (SipHash-2-4), so an entry planted by whoever can write the directory is a miss, never an answer.
 */
final class DiskTierDirectory
{
    static final String MARKER = ".parquet-bloom-metadata-cache";

    private static final Pattern FANOUT = Pattern.compile("[0-9a-f]{2}");
    private static final Pattern ENTRY = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern TEMPORARY = Pattern.compile("[0-9a-f]{64}\\.[0-9]+\\.tmp");
    private static final int KEY_BYTES = 16;
    // what every entry of every version begins with: "PBMD"
    private static final byte[] MAGIC = {'P', 'B', 'M', 'D'};
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private final Path root;
    private final HashFunction tags;

    private DiskTierDirectory(Path root, long k0, long k1)
    {
        this.root = requireNonNull(root, "root is null");
        this.tags = Hashing.sipHash24(k0, k1);
    }

    /**
     * Claims {@code root} for the tier: creates it, or reads its marker, or marks it when it is empty.
     *
     * @throws IllegalStateException naming the directory and a file in it, when it holds files and no marker
     */
    static DiskTierDirectory claim(Path root)
            throws IOException
    {
        createOwnerOnlyDirectories(root);
        Path marker = root.resolve(MARKER);
        if (!Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
            Optional<Path> foreign = firstForeignFile(root);
            if (foreign.isPresent()) {
                throw new IllegalStateException("metadata-cache.disk.directory %s is not empty and was not created by this connector's disk tier (it holds %s and no %s): set it to an empty or new directory; the tier deletes what it owns, so it never shares a directory".formatted(root, root.relativize(foreign.get()), MARKER));
            }
            requireTrusted(root, root, true);
            // empty, or an earlier version's tier: its entries carry no tag, so none can be trusted
            deleteUnmarkedEntries(root);
            writeMarker(marker);
        }
        requireTrusted(root, root, true);
        requireTrusted(root, marker, false);
        byte[] key;
        try (InputStream in = Files.newInputStream(marker, LinkOption.NOFOLLOW_LINKS)) {
            key = in.readNBytes(KEY_BYTES + 1);
        }
        if (key.length != KEY_BYTES) {
            throw new IllegalStateException("metadata-cache.disk.directory %s: its %s is damaged (%d bytes, not %d); delete the directory's contents to start it again".formatted(root, MARKER, key.length, KEY_BYTES));
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        return new DiskTierDirectory(root, buffer.getLong(), buffer.getLong());
    }

    /**
     * Refuses a directory or marker this server's user cannot trust, as {@code ssh} refuses a key file others can
     * write: one owned by another user, writable by its group or by others, or a link (or, for the marker, not a
     * regular file). Whoever could write either could choose the key and plant entries that prune real rows.
     */
    static void requireTrusted(Path root, Path path, boolean directory)
            throws IOException
    {
        PosixFileAttributes attributes;
        try {
            attributes = Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        }
        catch (UnsupportedOperationException | NullPointerException e) {
            // a file system without POSIX owners and modes (none a Trino server runs on): nothing more to check
            return;
        }
        String problem = null;
        if (attributes.isSymbolicLink()) {
            problem = "is a symbolic link";
        }
        else if (directory ? !attributes.isDirectory() : !attributes.isRegularFile()) {
            problem = directory ? "is not a directory" : "is not a regular file";
        }
        else if (!ownedByThisProcess(path, attributes)) {
            problem = "is owned by %s, not by this server's user %s".formatted(attributes.owner().getName(), System.getProperty("user.name"));
        }
        else if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE) || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            problem = "can be written by its group or others (%s)".formatted(PosixFilePermissions.toString(attributes.permissions()));
        }
        else if (!directory && (attributes.permissions().contains(PosixFilePermission.GROUP_READ) || attributes.permissions().contains(PosixFilePermission.OTHERS_READ))) {
            // the marker is the key: whoever reads it can forge entries
            problem = "can be read by its group or others (%s)".formatted(PosixFilePermissions.toString(attributes.permissions()));
        }
        if (problem != null) {
            throw new IllegalStateException("metadata-cache.disk.directory %s: %s %s; the tier trusts only what this server's user alone can write (chmod go-w, chown, or use a new directory)".formatted(
                    root, root.equals(path) ? "the directory" : path.getFileName(), problem));
        }
    }

    private static boolean ownedByThisProcess(Path path, PosixFileAttributes attributes)
            throws IOException
    {
        Path self = Path.of("/proc/self");
        if (Files.exists(self)) {
            // Linux: /proc/self belongs to the process's user, named or not
            return Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS).equals(Files.getAttribute(self, "unix:uid"));
        }
        return attributes.owner().getName().equals(System.getProperty("user.name"));
    }

    private static void writeMarker(Path marker)
            throws IOException
    {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        try (OutputStream out = Files.newOutputStream(createOwnerOnlyFile(marker), StandardOpenOption.WRITE)) {
            out.write(key);
        }
        catch (FileAlreadyExistsException e) {
            // another store claimed it at the same time: its key is the one to use
        }
    }

    /**
     * The first file that is not an entry of an earlier version of the tier: named as the tier names entries, and
     * beginning with its magic number.
     */
    private static Optional<Path> firstForeignFile(Path root)
            throws IOException
    {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(path -> !Files.isDirectory(path) && !earlierEntry(root, path)).findFirst();
        }
    }

    private static boolean earlierEntry(Path root, Path file)
    {
        if (!owned(root, file, ENTRY) && !owned(root, file, TEMPORARY)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(MAGIC.length);
            return Arrays.equals(magic, MAGIC) || magic.length == 0;
        }
        catch (IOException e) {
            return false;
        }
    }

    private static void deleteUnmarkedEntries(Path root)
            throws IOException
    {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(path -> !Files.isDirectory(path)).toList();
        }
        for (Path file : files) {
            Files.deleteIfExists(file);
        }
    }

    Path root()
    {
        return root;
    }

    /**
     * The authentication tag of {@code bytes[offset, offset + length)} under this directory's key.
     */
    long tag(byte[] bytes, int offset, int length)
    {
        return tags.hashBytes(bytes, offset, length).asLong();
    }

    /**
     * Whether {@code file} (below the root) is named as the tier names an entry.
     */
    boolean isEntry(Path file)
    {
        return owned(root, file, ENTRY);
    }

    /**
     * Whether {@code file} (below the root) is named as the tier names an entry being written.
     */
    boolean isTemporary(Path file)
    {
        return owned(root, file, TEMPORARY);
    }

    private static boolean owned(Path root, Path file, Pattern name)
    {
        Path relative = root.relativize(file);
        List<String> parts = Stream.iterate(0, i -> i + 1).limit(relative.getNameCount()).map(i -> relative.getName(i).toString()).toList();
        return parts.size() == 3 && FANOUT.matcher(parts.get(0)).matches() && FANOUT.matcher(parts.get(1)).matches() && name.matcher(parts.get(2)).matches();
    }

    static Path createOwnerOnlyFile(Path file)
            throws IOException
    {
        try {
            return Files.createFile(file, ownerOnly(OWNER_FILE));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access rules apply
            return Files.createFile(file);
        }
    }

    static void createOwnerOnlyDirectories(Path directory)
            throws IOException
    {
        if (Files.isDirectory(directory)) {
            return;
        }
        Path parent = directory.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createOwnerOnlyDirectories(parent);
        }
        try {
            Files.createDirectory(directory, ownerOnly(OWNER_DIRECTORY));
        }
        catch (FileAlreadyExistsException e) {
            // created meanwhile by another writer
        }
        catch (UnsupportedOperationException e) {
            Files.createDirectories(directory);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> ownerOnly(Set<PosixFilePermission> permissions)
    {
        return PosixFilePermissions.asFileAttribute(permissions);
    }
}
