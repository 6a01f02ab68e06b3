package io.parquetbloom.s3;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a segment is cut into upload parts: by long arithmetic (a part above 2 GiB once overflowed an int into
 * "capacity < 0"), each part streamed from the file rather than held whole in the heap.
 */
final class TestMultipartParts
{
    private static final long GIB = 1L << 30;

    @TempDir
    Path directory;

    @Test
    void partsAboveTwoGibibytes()
    {
        List<S3Writes.Part> parts = S3Writes.parts(6 * GIB + 5, 5 * GIB / 2);
        assertThat(parts).containsExactly(
                new S3Writes.Part(1, 0, 5 * GIB / 2),
                new S3Writes.Part(2, 5 * GIB / 2, 5 * GIB / 2),
                new S3Writes.Part(3, 5 * GIB, GIB + 5));
    }

    @Test
    void eachPartStreamsItsOwnBytesAgainOnEveryOpen()
            throws IOException
    {
        byte[] bytes = new byte[10_000];
        new Random(12).nextBytes(bytes);
        Path file = directory.resolve("segment.kidx");
        Files.write(file, bytes);
        List<S3Writes.Part> parts = S3Writes.parts(bytes.length, 4_096);
        assertThat(parts).hasSize(3);
        for (S3Writes.Part part : parts) {
            byte[] expected = Arrays.copyOfRange(bytes, (int) part.offset(), (int) (part.offset() + part.length()));
            // an SDK retry opens the part again: the same bytes
            for (int attempt = 0; attempt < 2; attempt++) {
                try (InputStream in = part.open(file)) {
                    assertThat(in.readAllBytes()).isEqualTo(expected);
                }
            }
        }
    }
}
