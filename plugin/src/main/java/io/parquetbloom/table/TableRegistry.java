package io.parquetbloom.table;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.inject.Inject;
import io.airlift.json.JsonCodec;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.PutCondition;
import io.parquetbloom.s3.S3ObjectStore.StoredObject;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.airlift.json.JsonCodec.jsonCodec;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_REGISTRY_ERROR;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Tables registered at any S3 prefix ({@code register_table}), kept in S3 so that every node and every cluster using
 * the catalog sees the same ones: one small JSON object per table, {@code <registry>/<schema>/<table>.json} (names
 * URL-encoded). A registration is created only by a PUT conditional on no object being there
 * ({@code If-None-Match: *}): of two registrations of one name racing, exactly one lands and the other is told the
 * table exists; registrations of different names never touch the same object, so none is ever lost.
 * <p>
 * The registry lives under {@code table-registry.location}, or by default in {@code _parquet_bloom_registry/} under the
 * catalog's {@code location}, a hidden folder the listing of the root already shows: a catalog that never registered a
 * table pays no request for the registry.
 */
public class TableRegistry
{
    public static final String DEFAULT_FOLDER = "_parquet_bloom_registry";
    private static final String SUFFIX = ".json";
    private static final String SCHEMA_MARKER = ".schema";
    private static final JsonCodec<TableRegistration> CODEC = jsonCodec(TableRegistration.class);

    private final S3ObjectStore store;
    private final S3Location location;
    private final boolean underRoot;

    @Inject
    public TableRegistry(LakeConfig config, S3ObjectStore store)
    {
        this.store = requireNonNull(store, "store is null");
        this.underRoot = config.getTableRegistryLocation().isEmpty();
        this.location = config.getTableRegistryLocation()
                .map(S3Location::parse)
                .orElseGet(() -> S3Location.parse(config.getLocation()).child(DEFAULT_FOLDER))
                .asPrefix();
    }

    public S3Location location()
    {
        return location;
    }

    /**
     * Whether the registry may hold tables, given the names of the folders directly under the catalog's location: the
     * default registry is one of them once a table was registered; a registry elsewhere must be asked.
     */
    public boolean mayHoldTables(List<String> rootFolders)
    {
        return !underRoot || rootFolders.contains(DEFAULT_FOLDER);
    }

    /**
     * The registered location of {@code name}, with one GET (none when the registry cannot hold tables).
     */
    public Optional<S3Location> find(SchemaTableName name, S3RequestStats stats)
    {
        return findRegistration(name, stats).map(Registered::location);
    }

    /**
     * A registered table's location and the version of its registration (the entry's ETag).
     */
    public record Registered(S3Location location, String version, Optional<String> metadataFile) {}

    /**
     * The registration of {@code name} with its version, with one GET.
     */
    public Optional<Registered> findRegistration(SchemaTableName name, S3RequestStats stats)
    {
        S3Location entry = entry(name);
        return store.readWhole(entry, stats)
                .map(object -> {
                    TableRegistration registration = parse(entry, object.bytes());
                    return new Registered(S3Location.parse(registration.location()).asPrefix(), object.etag(), registration.metadataFile());
                });
    }

    /**
     * Every registered table's location: one listing of the registry and a GET per table (for a registration's
     * checks, never for a query).
     */
    public Map<SchemaTableName, S3Location> listAll(S3RequestStats stats)
    {
        ImmutableMap.Builder<SchemaTableName, S3Location> tables = ImmutableMap.builder();
        for (String schema : listSchemas(stats)) {
            for (String table : listTables(schema, stats)) {
                SchemaTableName name = new SchemaTableName(schema, table);
                try {
                    findRegistration(name, stats).ifPresent(registered -> tables.put(name, registered.location()));
                }
                catch (TrinoException e) {
                    if (!e.getErrorCode().equals(PARQUET_BLOOM_REGISTRY_ERROR.toErrorCode())) {
                        throw e;
                    }
                    // a damaged registration names no location any query reads; it does not block others
                }
            }
        }
        return tables.buildKeepingLast();
    }

    /**
     * Whether {@code schema} was created ({@code CREATE SCHEMA}) or holds registered tables.
     */
    public boolean schemaExists(String schema, S3RequestStats stats)
    {
        S3Location folder = location.child(encode(schema)).asPrefix();
        // its marker or a registration; anything else there (a probe of conditional writes) is neither
        return store.listWithAges(folder, stats).stream()
                .map(object -> object.key().substring(folder.key().length()))
                .anyMatch(name -> name.equals(SCHEMA_MARKER) || (name.endsWith(SUFFIX) && name.indexOf('/') < 0));
    }

    /**
     * Records {@code schema} ({@code CREATE SCHEMA}) with a PUT conditional on its marker not existing.
     *
     * @return whether it was not recorded before
     */
    public boolean createSchema(String schema, S3RequestStats stats)
    {
        return store.write(schemaMarker(schema), new byte[0], new PutCondition.Absent(), stats).isPresent();
    }

    /**
     * Forgets {@code schema} ({@code DROP SCHEMA}), which must hold no registered table.
     *
     * @return whether it was recorded
     */
    public boolean dropSchema(String schema, S3RequestStats stats)
    {
        S3Location marker = schemaMarker(schema);
        Optional<StoredObject> stored = store.readWhole(marker, stats);
        stored.ifPresent(_ -> store.delete(marker, stats));
        return stored.isPresent();
    }

    // not a registration (no .json): the schema's folder exists while it holds no table
    private S3Location schemaMarker(String schema)
    {
        return location.child(encode(schema) + "/" + SCHEMA_MARKER);
    }

    public List<String> listSchemas(S3RequestStats stats)
    {
        return store.listChildPrefixes(location, stats).stream()
                .map(TableRegistry::decode)
                .flatMap(Optional::stream)
                .distinct()
                .collect(ImmutableList.toImmutableList());
    }

    public List<String> listTables(String schema, S3RequestStats stats)
    {
        S3Location folder = location.child(encode(schema)).asPrefix();
        ImmutableList.Builder<String> names = ImmutableList.builder();
        for (S3ObjectStore.ListedObject object : store.listWithAges(folder, stats)) {
            String name = object.key().substring(folder.key().length());
            if (name.endsWith(SUFFIX) && name.indexOf('/') < 0) {
                decode(name.substring(0, name.length() - SUFFIX.length())).ifPresent(names::add);
            }
        }
        return names.build();
    }

    /**
     * Records {@code name} at {@code tableLocation}, unless a registration of that name exists already.
     *
     * @param metadataFile the name of the table format's metadata file the registration pins
     */
    public void register(SchemaTableName name, S3Location tableLocation, Optional<String> metadataFile, S3RequestStats stats)
    {
        TableRegistration registration = TableRegistration.of(name.getSchemaName(), name.getTableName(), tableLocation.asPrefix().toString(), metadataFile);
        Optional<String> written = store.write(entry(name), CODEC.toJsonBytes(registration), new PutCondition.Absent(), stats);
        if (written.isEmpty()) {
            throw new TrinoException(ALREADY_EXISTS, "Table %s is already registered (%s); unregister_table it first".formatted(name, entry(name)));
        }
    }

    /**
     * Removes the registration of {@code name}; never touches the table's data.
     *
     * @return whether there was one
     */
    public boolean unregister(SchemaTableName name, S3RequestStats stats)
    {
        S3Location entry = entry(name);
        Optional<StoredObject> stored = store.readWhole(entry, stats);
        if (stored.isEmpty()) {
            return false;
        }
        // only the registration read here: one made again since (by anyone) is not removed with it
        if (!store.deleteIfMatches(entry, stored.get().etag(), stats)) {
            throw new TrinoException(PARQUET_BLOOM_REGISTRY_ERROR, "Table %s was registered again while it was being unregistered (%s); nothing was removed, check where it points and call unregister_table again".formatted(name, entry));
        }
        return true;
    }

    private S3Location entry(SchemaTableName name)
    {
        return location.child(encode(name.getSchemaName()) + "/" + encode(name.getTableName()) + SUFFIX);
    }

    private static TableRegistration parse(S3Location entry, byte[] bytes)
    {
        TableRegistration registration;
        try {
            registration = CODEC.fromJson(bytes);
        }
        catch (IllegalArgumentException e) {
            throw new TrinoException(PARQUET_BLOOM_REGISTRY_ERROR, "Table registration %s is damaged (not a registration this connector wrote): %s; unregister_table and register_table the table again".formatted(entry, e.getMessage()), e);
        }
        if (registration.formatVersion() > TableRegistration.CURRENT_VERSION) {
            throw new TrinoException(PARQUET_BLOOM_REGISTRY_ERROR, "Table registration %s has format version %d, written by a newer version of this connector (this one reads up to %d): upgrade the plugin on this cluster".formatted(
                    entry, registration.formatVersion(), TableRegistration.CURRENT_VERSION));
        }
        if (registration.formatVersion() < 1 || !isLocation(registration.location())) {
            throw new TrinoException(PARQUET_BLOOM_REGISTRY_ERROR, "Table registration %s is damaged: format version %d, location '%s'; unregister_table and register_table the table again".formatted(entry, registration.formatVersion(), registration.location()));
        }
        return registration;
    }

    private static boolean isLocation(String location)
    {
        try {
            S3Location.parse(location);
            return true;
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String encode(String name)
    {
        return URLEncoder.encode(name.toLowerCase(Locale.ROOT), UTF_8);
    }

    /**
     * A name as this registry encodes it; anything else in the registry's folder (a stray object, a malformed escape)
     * is not a registration.
     */
    private static Optional<String> decode(String name)
    {
        try {
            String decoded = URLDecoder.decode(name, UTF_8);
            return decoded.equals(decoded.toLowerCase(Locale.ROOT)) && !decoded.isEmpty() ? Optional.of(decoded) : Optional.empty();
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
