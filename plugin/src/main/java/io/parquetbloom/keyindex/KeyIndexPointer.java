package io.parquetbloom.keyindex;

import com.google.common.collect.ImmutableList;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The small object naming an index's current segments ({@code _key_index/<column>/_pointer}), replaced only by a
 * conditional PUT so that concurrent builders never lose each other's segments and readers always see a complete
 * set. A line-oriented text: {@code parquet-bloom-key-index 1}, {@code column <url-encoded name>}, then one
 * {@code segment} line per segment, oldest first.
 */
public record KeyIndexPointer(String column, List<Segment> segments)
{
    private static final String FIRST_LINE = "parquet-bloom-key-index " + KeyIndexFormat.VERSION;

    /**
     * A segment as the pointer names it: enough to GET its trailer in one request and to report coverage without it.
     *
     * @param trailerBytes bytes at the end of the segment that hold its whole trailer
     */
    public record Segment(String name, long size, String etag, int trailerBytes, int files, long entries, long builtAtMillis, long buildMillis)
    {
        public Segment
        {
            requireNonNull(name, "name is null");
            requireNonNull(etag, "etag is null");
            if (name.isEmpty() || name.contains("/") || name.contains(" ") || etag.contains(" ") || etag.isEmpty()) {
                throw new IllegalArgumentException("bad segment name or ETag: " + name + " " + etag);
            }
        }
    }

    public KeyIndexPointer
    {
        requireNonNull(column, "column is null");
        segments = ImmutableList.copyOf(requireNonNull(segments, "segments is null"));
    }

    public KeyIndexPointer withSegment(Segment segment)
    {
        return new KeyIndexPointer(column, ImmutableList.<Segment>builder().addAll(segments).add(segment).build());
    }

    public long entries()
    {
        return segments.stream().mapToLong(Segment::entries).sum();
    }

    public long bytes()
    {
        return segments.stream().mapToLong(Segment::size).sum();
    }

    public byte[] serialize()
    {
        StringBuilder text = new StringBuilder(FIRST_LINE).append('\n');
        text.append("column ").append(URLEncoder.encode(column, StandardCharsets.UTF_8)).append('\n');
        for (Segment segment : segments) {
            text.append("segment %s %d %s %d %d %d %d %d%n".formatted(segment.name(), segment.size(), segment.etag(), segment.trailerBytes(), segment.files(), segment.entries(), segment.builtAtMillis(), segment.buildMillis()));
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static KeyIndexPointer parse(byte[] bytes, String name)
            throws KeyIndexUnusableException
    {
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        if (lines.size() < 2 || !lines.get(0).equals(FIRST_LINE) || !lines.get(1).startsWith("column ")) {
            throw new KeyIndexUnusableException("%s is not a key index pointer of version %d".formatted(name, KeyIndexFormat.VERSION));
        }
        String column = URLDecoder.decode(lines.get(1).substring("column ".length()), StandardCharsets.UTF_8);
        ImmutableList.Builder<Segment> segments = ImmutableList.builder();
        for (String line : lines.subList(2, lines.size())) {
            segments.add(segment(line).orElseThrow(() -> new KeyIndexUnusableException("%s: unreadable line '%s'".formatted(name, line))));
        }
        return new KeyIndexPointer(column, segments.build());
    }

    private static Optional<Segment> segment(String line)
    {
        String[] parts = line.split(" ");
        if (parts.length != 9 || !parts[0].equals("segment")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Segment(parts[1], Long.parseLong(parts[2]), parts[3], Integer.parseInt(parts[4]), Integer.parseInt(parts[5]), Long.parseLong(parts[6]), Long.parseLong(parts[7]), Long.parseLong(parts[8])));
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
