package io.parquetbloom.keyindex;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.google.common.collect.ImmutableList;
import io.airlift.json.JsonCodec;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static io.airlift.json.JsonCodec.jsonCodec;
import static java.util.Objects.requireNonNull;

/**
 * The small object naming an index's current segments ({@code _key_index/<column>/_pointer}), replaced only by a
 * conditional PUT so that concurrent builders never lose each other's segments and readers always see a complete
 * set. JSON: {@code {"format": "parquet-bloom-key-index", "version": 1, "column": ..., "segments": [...]}}, oldest
 * segment first. Pointers written before JSON (a line-oriented text starting {@code parquet-bloom-key-index 1}) are
 * read too.
 */
public record KeyIndexPointer(String column, List<Segment> segments)
{
    private static final String FORMAT = "parquet-bloom-key-index";
    private static final String LEGACY_FIRST_LINE = FORMAT + " " + KeyIndexFormat.POINTER_VERSION;
    private static final JsonCodec<Stored> CODEC = jsonCodec(Stored.class);

    /**
     * The pointer as its object holds it; {@code format} and {@code version} let a reader refuse what it cannot read.
     * Public only for the JSON binding.
     */
    public record Stored(String format, int version, String column, List<Segment> segments)
    {
        @JsonCreator
        public Stored(
                @JsonProperty("format") String format,
                @JsonProperty("version") int version,
                @JsonProperty("column") String column,
                @JsonProperty("segments") List<Segment> segments)
        {
            this.format = format;
            this.version = version;
            this.column = column;
            this.segments = segments == null ? List.of() : segments;
        }

        @Override
        @JsonProperty
        public String format()
        {
            return format;
        }

        @Override
        @JsonProperty
        public int version()
        {
            return version;
        }

        @Override
        @JsonProperty
        public String column()
        {
            return column;
        }

        @Override
        @JsonProperty
        public List<Segment> segments()
        {
            return segments;
        }
    }

    /**
     * A segment as the pointer names it: enough to GET its trailer in one request and to report coverage without it.
     *
     * @param trailerBytes bytes at the end of the segment that hold its whole trailer
     */
    public record Segment(
            @JsonProperty("name") String name,
            @JsonProperty("size") long size,
            @JsonProperty("etag") String etag,
            @JsonProperty("trailerBytes") int trailerBytes,
            @JsonProperty("files") int files,
            @JsonProperty("entries") long entries,
            @JsonProperty("builtAtMillis") long builtAtMillis,
            @JsonProperty("buildMillis") long buildMillis)
    {
        @JsonCreator
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
        return CODEC.toJsonBytes(new Stored(FORMAT, KeyIndexFormat.POINTER_VERSION, column, segments));
    }

    public static KeyIndexPointer parse(byte[] bytes, String name)
            throws KeyIndexUnusableException
    {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith(LEGACY_FIRST_LINE + "\n") || text.startsWith(LEGACY_FIRST_LINE + "\r\n")) {
            return parseLegacy(text, name);
        }
        Stored json;
        try {
            json = CODEC.fromJson(bytes);
        }
        catch (IllegalArgumentException e) {
            throw new KeyIndexUnusableException("%s is not a key index pointer: %s".formatted(name, e.getMessage()));
        }
        if (!FORMAT.equals(json.format()) || json.version() != KeyIndexFormat.POINTER_VERSION || json.column() == null) {
            throw new KeyIndexUnusableException("%s is not a key index pointer of version %d (format %s, version %d)".formatted(name, KeyIndexFormat.POINTER_VERSION, json.format(), json.version()));
        }
        try {
            return new KeyIndexPointer(json.column(), json.segments());
        }
        catch (IllegalArgumentException | NullPointerException e) {
            throw new KeyIndexUnusableException("%s: unreadable segment: %s".formatted(name, e.getMessage()));
        }
    }

    /**
     * The line-oriented text pointers had before JSON: {@code parquet-bloom-key-index 1}, {@code column <url-encoded
     * name>}, then one {@code segment} line per segment.
     */
    private static KeyIndexPointer parseLegacy(String text, String name)
            throws KeyIndexUnusableException
    {
        List<String> lines = text.lines().toList();
        if (lines.size() < 2 || !lines.get(1).startsWith("column ")) {
            throw new KeyIndexUnusableException("%s is not a key index pointer of version %d".formatted(name, KeyIndexFormat.POINTER_VERSION));
        }
        String column = URLDecoder.decode(lines.get(1).substring("column ".length()), StandardCharsets.UTF_8);
        ImmutableList.Builder<Segment> segments = ImmutableList.builder();
        for (String line : lines.subList(2, lines.size())) {
            segments.add(legacySegment(line).orElseThrow(() -> new KeyIndexUnusableException("%s: unreadable line '%s'".formatted(name, line))));
        }
        return new KeyIndexPointer(column, segments.build());
    }

    private static Optional<Segment> legacySegment(String line)
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
