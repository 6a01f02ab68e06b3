package io.parquetbloom.iceberg;

import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

import java.io.EOFException;
import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * An Iceberg metadata, manifest list or manifest file, read whole on first use: Iceberg reads each of them from start
 * to end, and they are immutable by path, so one GET serves every read of it.
 */
final class S3InputFile
        implements InputFile
{
    private final S3FileIo io;
    private final String path;
    private byte[] bytes;

    S3InputFile(S3FileIo io, String path)
    {
        this.io = requireNonNull(io, "io is null");
        this.path = requireNonNull(path, "path is null");
    }

    @Override
    public long getLength()
    {
        return bytes().length;
    }

    @Override
    public SeekableInputStream newStream()
    {
        return new ByteArraySeekableStream(bytes());
    }

    @Override
    public String location()
    {
        return path;
    }

    @Override
    public boolean exists()
    {
        if (bytes == null) {
            io.read(path).ifPresent(value -> bytes = value);
        }
        return bytes != null;
    }

    private byte[] bytes()
    {
        if (bytes == null) {
            bytes = io.read(path).orElseThrow(() -> new NotFoundException("Iceberg file %s does not exist", path));
        }
        return bytes;
    }

    private static final class ByteArraySeekableStream
            extends SeekableInputStream
    {
        private final byte[] bytes;
        private int position;

        ByteArraySeekableStream(byte[] bytes)
        {
            this.bytes = bytes;
        }

        @Override
        public long getPos()
        {
            return position;
        }

        @Override
        public void seek(long newPosition)
                throws IOException
        {
            if (newPosition < 0 || newPosition > bytes.length) {
                throw new EOFException("Cannot seek to %d of a file of %d bytes".formatted(newPosition, bytes.length));
            }
            position = (int) newPosition;
        }

        @Override
        public int read()
        {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] buffer, int offset, int length)
        {
            if (length == 0) {
                return 0;
            }
            if (position >= bytes.length) {
                return -1;
            }
            int read = Math.min(length, bytes.length - position);
            System.arraycopy(bytes, position, buffer, offset, read);
            position += read;
            return read;
        }

        @Override
        public long skip(long count)
        {
            long skipped = Math.max(0, Math.min(count, bytes.length - position));
            position += (int) skipped;
            return skipped;
        }

        @Override
        public int available()
        {
            return bytes.length - position;
        }
    }
}
