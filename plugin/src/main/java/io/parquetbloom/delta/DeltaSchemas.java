package io.parquetbloom.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parquetbloom.table.TableSchemaReader.DataColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeOperators;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * A Delta Lake table's columns from its {@code metaData.schemaString} (Spark's JSON form of a struct), matched to files
 * as its column mapping mode says (PROTOCOL.md, "Column Mapping"): {@code none} by name; {@code name} by each column's
 * physical name; {@code id} by its field id, and by physical name in a file written without ids. A type this
 * connector does not read fails naming the column, never a column silently left out.
 */
public final class DeltaSchemas
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");

    private DeltaSchemas() {}

    /**
     * The data columns of the snapshot's table (partition columns included, as the schema lists them).
     */
    public static List<DataColumn> columns(String table, DeltaSnapshot snapshot, TypeOperators typeOperators)
    {
        String mode = snapshot.columnMappingMode();
        if (!List.of("none", "name", "id").contains(mode)) {
            throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s: column mapping mode '%s' is not read by this connector".formatted(table, mode));
        }
        JsonNode schema;
        try {
            schema = MAPPER.readTree(snapshot.metadata().schemaString());
        }
        catch (JsonProcessingException e) {
            throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: its schema cannot be read: %s".formatted(table, e.getOriginalMessage()), e);
        }
        List<DataColumn> columns = new ArrayList<>();
        for (JsonNode field : schema.path("fields")) {
            String name = field.path("name").asText();
            JsonNode metadata = field.path("metadata");
            Optional<String> physicalName = Optional.ofNullable(metadata.get("delta.columnMapping.physicalName")).map(JsonNode::asText);
            OptionalInt id = metadata.has("delta.columnMapping.id") ? OptionalInt.of(metadata.get("delta.columnMapping.id").asInt()) : OptionalInt.empty();
            Type type = type(table, name, field.get("type"), false, typeOperators);
            // under column mapping a struct's fields have physical names in files too: read by those
            Optional<Type> physicalType = !mode.equals("none") && hasStruct(type) ? Optional.of(type(table, name, field.get("type"), true, typeOperators)) : Optional.empty();
            columns.add(switch (mode) {
                case "name" -> new DataColumn(name.toLowerCase(Locale.ROOT), type, OptionalInt.empty(), Optional.of(List.of(physical(table, name, physicalName))), physicalType);
                case "id" -> new DataColumn(name.toLowerCase(Locale.ROOT), type, OptionalInt.of(id.orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: column %s has no column mapping id".formatted(table, name)))), Optional.of(List.of(physical(table, name, physicalName))), physicalType);
                // files, partition values and statistics name the column as the schema spells it
                default -> new DataColumn(name.toLowerCase(Locale.ROOT), type, OptionalInt.empty(), Optional.of(List.of(name)));
            });
        }
        return columns;
    }

    private static boolean hasStruct(Type type)
    {
        return switch (type) {
            case RowType _ -> true;
            case ArrayType array -> hasStruct(array.getElementType());
            case MapType map -> hasStruct(map.getKeyType()) || hasStruct(map.getValueType());
            default -> false;
        };
    }

    /**
     * The name a column has in files, in {@code partitionValues} and in statistics: its physical name under column
     * mapping, else its name as the schema spells it.
     */
    public static String physicalName(DataColumn column)
    {
        return column.mappedNames().map(List::getFirst).orElse(column.name());
    }

    private static String physical(String table, String column, Optional<String> physicalName)
    {
        return physicalName.orElseThrow(() -> new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake table %s: column %s has no physical name, though the table maps columns".formatted(table, column)));
    }

    /**
     * @param physical whether a struct's fields are named as files name them (their physical names, where the schema
     * gives them)
     */
    private static Type type(String table, String column, JsonNode type, boolean physical, TypeOperators typeOperators)
    {
        if (type != null && type.isTextual()) {
            return primitive(table, column, type.asText());
        }
        String kind = type == null ? "" : type.path("type").asText();
        return switch (kind) {
            case "array" -> new ArrayType(type(table, column, type.get("elementType"), physical, typeOperators));
            case "map" -> new MapType(type(table, column, type.get("keyType"), physical, typeOperators), type(table, column, type.get("valueType"), physical, typeOperators), typeOperators);
            case "struct" -> {
                List<RowType.Field> fields = new ArrayList<>();
                for (JsonNode field : type.path("fields")) {
                    JsonNode physicalName = field.path("metadata").get("delta.columnMapping.physicalName");
                    String name = physical && physicalName != null ? physicalName.asText() : field.path("name").asText();
                    fields.add(RowType.field(name.toLowerCase(Locale.ROOT), type(table, column, field.get("type"), physical, typeOperators)));
                }
                yield RowType.from(fields);
            }
            default -> throw unsupported(table, column, String.valueOf(type));
        };
    }

    private static Type primitive(String table, String column, String type)
    {
        return switch (type) {
            case "string" -> VARCHAR;
            case "long" -> BIGINT;
            case "integer" -> INTEGER;
            case "short" -> SMALLINT;
            case "byte" -> TINYINT;
            case "float" -> REAL;
            case "double" -> DOUBLE;
            case "boolean" -> BOOLEAN;
            case "binary" -> VARBINARY;
            case "date" -> DATE;
            // an instant, stored adjusted to UTC; timestamp_ntz (the timestampNtz feature) is a local date-time
            case "timestamp" -> TIMESTAMP_TZ_MICROS;
            case "timestamp_ntz" -> TIMESTAMP_MICROS;
            default -> {
                Matcher decimal = DECIMAL.matcher(type);
                if (decimal.matches()) {
                    yield DecimalType.createDecimalType(Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
                }
                throw unsupported(table, column, type);
            }
        };
    }

    private static TrinoException unsupported(String table, String column, String type)
    {
        return new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake table %s: column %s is of type %s, which this connector does not read".formatted(table, column, type));
    }
}
