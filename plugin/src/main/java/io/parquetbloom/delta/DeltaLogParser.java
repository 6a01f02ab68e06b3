package io.parquetbloom.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trino.spi.TrinoException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Reads the actions of a Delta Lake log file written as JSON: a commit ({@code %020d.json}) or a v2 checkpoint or
 * sidecar in JSON, one action per line. A line that is not JSON, or an action missing what the protocol requires of
 * it, fails naming the file and the line: a log read partly would return dead files or drop live ones.
 */
public final class DeltaLogParser
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DeltaLogParser() {}

    public static List<DeltaAction> parse(String file, byte[] content)
    {
        List<DeltaAction> actions = new ArrayList<>();
        String[] lines = new String(content, UTF_8).split("\n", -1);
        for (int line = 0; line < lines.length; line++) {
            String text = lines[line].strip();
            if (text.isEmpty()) {
                continue;
            }
            try {
                action(MAPPER.readTree(text)).ifPresent(actions::add);
            }
            catch (JsonProcessingException | RuntimeException e) {
                if (e instanceof TrinoException trinoException) {
                    throw trinoException;
                }
                throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake log file %s, line %d, cannot be read: %s".formatted(file, line + 1, e.getMessage()), e);
            }
        }
        return actions;
    }

    private static Optional<DeltaAction> action(JsonNode node)
    {
        if (node.hasNonNull("add")) {
            return Optional.of(add(node.get("add")));
        }
        if (node.hasNonNull("remove")) {
            JsonNode remove = node.get("remove");
            return Optional.of(new DeltaAction.Remove(required(remove, "path").asText(), deletionVector(remove.get("deletionVector"))));
        }
        if (node.hasNonNull("metaData")) {
            return Optional.of(metadata(node.get("metaData")));
        }
        if (node.hasNonNull("protocol")) {
            JsonNode protocol = node.get("protocol");
            return Optional.of(new DeltaAction.Protocol(required(protocol, "minReaderVersion").asInt(), protocol.path("minWriterVersion").asInt(0), strings(protocol.get("readerFeatures"))));
        }
        if (node.hasNonNull("commitInfo")) {
            JsonNode commit = node.get("commitInfo");
            return Optional.of(new DeltaAction.CommitInfo(
                    commit.hasNonNull("timestamp") ? OptionalLong.of(commit.get("timestamp").asLong()) : OptionalLong.empty(),
                    commit.hasNonNull("inCommitTimestamp") ? Optional.of(commit.get("inCommitTimestamp").asLong()) : Optional.empty()));
        }
        if (node.hasNonNull("sidecar")) {
            JsonNode sidecar = node.get("sidecar");
            return Optional.of(new DeltaAction.Sidecar(required(sidecar, "path").asText(), sidecar.path("sizeInBytes").asLong(0)));
        }
        // txn, domainMetadata, cdc, checkpointMetadata: no file becomes live or dead by them
        return Optional.empty();
    }

    private static DeltaAction.Add add(JsonNode add)
    {
        Map<String, Optional<String>> partitionValues = new LinkedHashMap<>();
        JsonNode values = add.get("partitionValues");
        if (values != null && values.isObject()) {
            values.properties().forEach(entry -> partitionValues.put(entry.getKey(), entry.getValue().isNull() ? Optional.empty() : Optional.of(entry.getValue().asText())));
        }
        return new DeltaAction.Add(
                required(add, "path").asText(),
                partitionValues,
                required(add, "size").asLong(),
                add.path("modificationTime").asLong(0),
                add.hasNonNull("stats") ? Optional.of(add.get("stats").asText()) : Optional.empty(),
                deletionVector(add.get("deletionVector")));
    }

    private static DeltaAction.Metadata metadata(JsonNode metadata)
    {
        Map<String, String> configuration = new HashMap<>();
        JsonNode values = metadata.get("configuration");
        if (values != null && values.isObject()) {
            values.properties().forEach(entry -> {
                if (!entry.getValue().isNull()) {
                    configuration.put(entry.getKey(), entry.getValue().asText());
                }
            });
        }
        return new DeltaAction.Metadata(
                required(metadata, "id").asText(),
                required(metadata, "schemaString").asText(),
                strings(metadata.get("partitionColumns")),
                configuration,
                metadata.hasNonNull("createdTime") ? OptionalLong.of(metadata.get("createdTime").asLong()) : OptionalLong.empty());
    }

    private static Optional<DeltaAction.DeletionVector> deletionVector(JsonNode vector)
    {
        if (vector == null || vector.isNull()) {
            return Optional.empty();
        }
        return Optional.of(new DeltaAction.DeletionVector(
                required(vector, "storageType").asText(),
                required(vector, "pathOrInlineDv").asText(),
                vector.hasNonNull("offset") ? OptionalLong.of(vector.get("offset").asLong()) : OptionalLong.empty(),
                required(vector, "sizeInBytes").asInt(),
                required(vector, "cardinality").asLong()));
    }

    private static List<String> strings(JsonNode array)
    {
        List<String> values = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(value -> values.add(value.asText()));
        }
        return values;
    }

    private static JsonNode required(JsonNode node, String field)
    {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("an action without its required field '%s': %s".formatted(field, node));
        }
        return value;
    }
}
