package io.parquetbloom.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.roaringbitmap.longlong.Roaring64NavigableMap;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Writes a Delta Lake table's log into S3 as the protocol (PROTOCOL.md) defines it, for tables whose data files the
 * tests wrote: commits of {@code protocol}, {@code metaData}, {@code add}, {@code remove} and {@code commitInfo}
 * actions, and deletion vectors inline or in {@code deletion_vector_<uuid>.bin} files (RoaringBitmapArray, Base85).
 * Independent of the connector's reader: it shares no code with it.
 */
public final class DeltaLogWriter
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    private static final int DELETION_VECTOR_MAGIC = 1681511377;

    private final S3Client client;
    private final String bucket;
    private final String tableKey;

    /**
     * @param tableKey the table's folder in the bucket, ending in {@code /}
     */
    public DeltaLogWriter(S3Client client, String bucket, String tableKey)
    {
        this.client = requireNonNull(client, "client is null");
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.tableKey = tableKey.endsWith("/") ? tableKey : tableKey + "/";
    }

    /**
     * An object below the table's folder (a data file).
     */
    public void put(String relativePath, byte[] bytes)
    {
        client.putObject(request -> request.bucket(bucket).key(tableKey + relativePath), RequestBody.fromBytes(bytes));
    }

    /**
     * Commit {@code version}: its actions, one JSON object a line, preceded by a {@code commitInfo} at {@code timestamp}.
     */
    public void commit(long version, long timestamp, List<ObjectNode> actions)
    {
        StringBuilder json = new StringBuilder();
        json.append(line(action("commitInfo", object().put("timestamp", timestamp).put("operation", "WRITE")))).append('\n');
        actions.forEach(action -> json.append(line(action)).append('\n'));
        put("_delta_log/%020d.json".formatted(version), json.toString().getBytes(UTF_8));
    }

    public static ObjectNode protocol(int readerVersion, int writerVersion, List<String> readerFeatures)
    {
        ObjectNode protocol = object().put("minReaderVersion", readerVersion).put("minWriterVersion", writerVersion);
        if (readerVersion >= 3) {
            readerFeatures.forEach(protocol.putArray("readerFeatures")::add);
            readerFeatures.forEach(protocol.putArray("writerFeatures")::add);
        }
        return action("protocol", protocol);
    }

    /**
     * @param fields the schema's fields ({@link #field})
     */
    public static ObjectNode metadata(String id, List<ObjectNode> fields, List<String> partitionColumns, Map<String, String> configuration)
    {
        ObjectNode schema = object().put("type", "struct");
        fields.forEach(schema.putArray("fields")::add);
        ObjectNode metadata = object().put("id", id).put("schemaString", schema.toString());
        metadata.putObject("format").put("provider", "parquet").putObject("options");
        partitionColumns.forEach(metadata.putArray("partitionColumns")::add);
        ObjectNode config = metadata.putObject("configuration");
        configuration.forEach(config::put);
        metadata.put("createdTime", 1_700_000_000_000L);
        return action("metaData", metadata);
    }

    /**
     * A field of a schema; under column mapping, with its {@code physicalName} and {@code id}.
     */
    public static ObjectNode field(String name, String type, Optional<String> physicalName, Optional<Integer> id)
    {
        ObjectNode field = object().put("name", name).put("type", type).put("nullable", true);
        ObjectNode metadata = field.putObject("metadata");
        physicalName.ifPresent(physical -> metadata.put("delta.columnMapping.physicalName", physical));
        id.ifPresent(value -> metadata.put("delta.columnMapping.id", value));
        return field;
    }

    public static ObjectNode field(String name, String type)
    {
        return field(name, type, Optional.empty(), Optional.empty());
    }

    /**
     * @param path as the log names it: relative and percent-encoded
     * @param partitionValues by physical name; a null value is a NULL partition
     * @param stats the statistics JSON, if any
     * @param deletionVector from {@link #inlineVector} or {@link #fileVector}
     */
    public static ObjectNode add(String path, Map<String, String> partitionValues, long size, long modificationTime, Optional<String> stats, Optional<ObjectNode> deletionVector)
    {
        ObjectNode add = object().put("path", path).put("size", size).put("modificationTime", modificationTime).put("dataChange", true);
        ObjectNode values = add.putObject("partitionValues");
        partitionValues.forEach(values::put);
        stats.ifPresent(json -> add.put("stats", json));
        deletionVector.ifPresent(vector -> add.set("deletionVector", vector));
        return action("add", add);
    }

    public static ObjectNode remove(String path, long deletionTimestamp, Optional<ObjectNode> deletionVector)
    {
        ObjectNode remove = object().put("path", path).put("deletionTimestamp", deletionTimestamp).put("dataChange", true);
        deletionVector.ifPresent(vector -> remove.set("deletionVector", vector));
        return action("remove", remove);
    }

    /**
     * {@code stats} of an {@code add}: the record count, and the bounds and NULL counts given, by physical name.
     */
    public static String stats(long numRecords, Map<String, Object> minValues, Map<String, Object> maxValues, Map<String, Long> nullCount)
    {
        ObjectNode stats = object().put("numRecords", numRecords);
        stats.set("minValues", MAPPER.valueToTree(minValues));
        stats.set("maxValues", MAPPER.valueToTree(maxValues));
        stats.set("nullCount", MAPPER.valueToTree(nullCount));
        return stats.toString();
    }

    /**
     * A deletion vector of {@code positions}, inline in the log (Base85).
     */
    public static ObjectNode inlineVector(long... positions)
    {
        byte[] bitmap = bitmap(positions);
        return object().put("storageType", "i").put("pathOrInlineDv", z85(bitmap)).put("sizeInBytes", bitmap.length).put("cardinality", distinct(positions));
    }

    /**
     * A deletion vector of {@code positions} in a file of its own beside the table's data (its name a UUID, Base85 in
     * the log, under {@code prefix}), at offset 1 after the file's format version.
     */
    public ObjectNode fileVector(String prefix, UUID uuid, long... positions)
    {
        byte[] bitmap = bitmap(positions);
        CRC32 crc = new CRC32();
        crc.update(bitmap);
        ByteBuffer file = ByteBuffer.allocate(1 + 4 + bitmap.length + 4);
        file.put((byte) 1).putInt(bitmap.length).put(bitmap).putInt((int) crc.getValue());
        put((prefix.isEmpty() ? "" : prefix + "/") + "deletion_vector_" + uuid + ".bin", file.array());
        byte[] id = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
        return object().put("storageType", "u").put("pathOrInlineDv", prefix + z85(id)).put("offset", 1).put("sizeInBytes", bitmap.length).put("cardinality", distinct(positions));
    }

    /**
     * Delta's RoaringBitmapArray: its magic number (little endian), then the 64-bit bitmap in RoaringBitmap's portable
     * format.
     */
    static byte[] bitmap(long... positions)
    {
        Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
        Arrays.stream(positions).forEach(bitmap::addLong);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(DELETION_VECTOR_MAGIC).array());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            bitmap.serializePortable(out);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Base85 with the Z85 alphabet, as Delta encodes: four bytes (big endian, zero-padded at the end) to five characters.
     */
    static String z85(byte[] bytes)
    {
        ByteBuffer padded = ByteBuffer.wrap(Arrays.copyOf(bytes, (bytes.length + 3) / 4 * 4));
        StringBuilder encoded = new StringBuilder();
        while (padded.hasRemaining()) {
            long value = Integer.toUnsignedLong(padded.getInt());
            char[] group = new char[5];
            for (int i = 4; i >= 0; i--) {
                group[i] = Z85.charAt((int) (value % 85));
                value /= 85;
            }
            encoded.append(group);
        }
        return encoded.toString();
    }

    private static long distinct(long... positions)
    {
        return Arrays.stream(positions).boxed().collect(Collectors.toSet()).size();
    }

    private static ObjectNode action(String name, ObjectNode body)
    {
        ObjectNode action = object();
        action.set(name, body);
        return action;
    }

    private static ObjectNode object()
    {
        return MAPPER.createObjectNode();
    }

    private static String line(ObjectNode action)
    {
        try {
            return MAPPER.writeValueAsString(action);
        }
        catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
