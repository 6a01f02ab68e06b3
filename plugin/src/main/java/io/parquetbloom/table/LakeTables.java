package io.parquetbloom.table;

import com.google.common.cache.Cache;
import com.google.common.collect.ImmutableList;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.inject.Inject;
import io.parquetbloom.s3.S3Location;
import io.parquetbloom.s3.S3ObjectStore;
import io.parquetbloom.s3.S3ObjectStore.ListedObject;
import io.parquetbloom.s3.S3ObjectStore.ListingPage;
import io.parquetbloom.s3.S3RequestStats;
import io.trino.cache.EvictableCacheBuilder;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.Domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static com.google.common.base.Throwables.throwIfUnchecked;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_AMBIGUOUS_LOCATION;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_TABLE_EMPTY;
import static io.trino.cache.CacheUtils.invalidateAllIf;
import static io.trino.cache.CacheUtils.uncheckedCacheGet;
import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.PERMISSION_DENIED;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * The lake's tables: those registered at any prefix ({@link TableRegistry}), and those found by the layout, where
 * schemas are the first-level prefixes under the root location and tables the second-level ones. Below a table's
 * prefix every data object ({@link DataFileNames}) is table data; {@code key=value} folders are partitions; names
 * starting with {@code _} or {@code .} are ignored; a table format's folder ({@link TableFormat}) is refused. Trino
 * names are lower case; folders are matched without regard to case.
 */
public class LakeTables
{
    private final S3ObjectStore store;
    private final TableRegistry registry;
    private final TableObjectLister lister;
    private final PartitionFolders partitionFolders;
    private final S3Location root;
    private final CompanionFolder companionFolder;
    // with metadata.listing-cache-ttl=0 these cache nothing and every call lists
    private final Cache<SchemaTableName, Optional<LakeTable>> listings;
    // the metadata file each registered table pins (register_table's metadata_file_name), as its registration was last
    // read: a table's name is resolved before its files are, in the same query
    private final Map<SchemaTableName, String> pinnedMetadataFiles = new ConcurrentHashMap<>();
    // a table format's companion folder listing, by table: its metadata says nothing of it
    private final Cache<ShapeKey, Optional<List<ListedObject>>> companions;
    private final Cache<SchemaTableName, Optional<S3Location>> locations;
    private final Cache<ShapeKey, Optional<TableShape>> shapes;
    private final SharedListings sharedListings;
    private final RegistrationPolicy registrationPolicy;
    private final FormatAncestors formatAncestors;
    private final boolean registrationEnabled;
    private final FormatTables formatTables;
    // the table format a table's folder was found to be, so that later queries read its metadata without listing it
    private final Cache<ShapeKey, TableFormat> formats;

    // keyed by where the shape was read: a name registered elsewhere since (by any cluster) is read anew
    private record ShapeKey(SchemaTableName table, S3Location location, boolean unionByName) {}

    // pages a registration looks at: enough to tell a table from a mistyped prefix, bounded for a bucket root
    static final int REGISTRATION_LISTING_PAGES = 4;

    public LakeTables(LakeConfig config, S3ObjectStore store, CompanionFolder companionFolder)
    {
        this(config, store, new TableRegistry(config, store), companionFolder, FormatTables.NONE);
    }

    @Inject
    public LakeTables(LakeConfig config, S3ObjectStore store, TableRegistry registry, CompanionFolder companionFolder, Set<FormatTables> formatTables)
    {
        this(config, store, registry, companionFolder, FormatTables.of(formatTables));
    }

    public LakeTables(LakeConfig config, S3ObjectStore store, TableRegistry registry, CompanionFolder companionFolder, FormatTables formatTables)
    {
        this.store = requireNonNull(store, "store is null");
        this.formatTables = requireNonNull(formatTables, "formatTables is null");
        this.registry = requireNonNull(registry, "registry is null");
        this.lister = new TableObjectLister(store);
        this.partitionFolders = new PartitionFolders(store, lister);
        this.root = S3Location.parse(config.getLocation()).asPrefix();
        this.companionFolder = requireNonNull(companionFolder, "companionFolder is null");
        this.registrationPolicy = new RegistrationPolicy(config);
        this.registrationEnabled = config.isRegisterTableProcedureEnabled();
        this.formatAncestors = new FormatAncestors(store, config.getSchemaCacheTtl());
        long ttlMillis = config.getListingCacheTtl().toMillis();
        this.listings = listingCache(ttlMillis);
        this.locations = listingCache(ttlMillis);
        // a listing cache is the staleness its user chose: listings are then not shared on top of it
        this.sharedListings = new SharedListings(ttlMillis > 0 ? Duration.ZERO : Duration.ofMillis(config.getSharedListingMaxAge().toMillis()));
        this.formats = EvictableCacheBuilder.newBuilder()
                .expireAfterWrite(config.getSchemaCacheTtl().toMillis(), TimeUnit.MILLISECONDS)
                .maximumSize(10_000)
                .shareNothingWhenDisabled()
                .build();
        this.companions = EvictableCacheBuilder.newBuilder()
                .expireAfterWrite(config.getSchemaCacheTtl().toMillis(), TimeUnit.MILLISECONDS)
                .maximumSize(10_000)
                .shareNothingWhenDisabled()
                .build();
        this.shapes = EvictableCacheBuilder.newBuilder()
                .expireAfterWrite(config.getSchemaCacheTtl().toMillis(), TimeUnit.MILLISECONDS)
                .maximumSize(10_000)
                .shareNothingWhenDisabled()
                .build();
    }

    private static <V> Cache<SchemaTableName, Optional<V>> listingCache(long ttlMillis)
    {
        return EvictableCacheBuilder.newBuilder()
                .expireAfterWrite(ttlMillis, TimeUnit.MILLISECONDS)
                .maximumSize(10_000)
                .shareNothingWhenDisabled()
                .build();
    }

    public List<String> listSchemas(S3RequestStats stats)
    {
        List<String> rootFolders = store.listChildPrefixes(root, stats);
        List<String> schemas = new ArrayList<>(visibleLowerCase(rootFolders));
        if (registry.mayHoldTables(rootFolders)) {
            schemas.addAll(registry.listSchemas(stats));
        }
        return schemas.stream().distinct().sorted().collect(ImmutableList.toImmutableList());
    }

    /**
     * The tables of {@code schema}: its folders and the tables registered in it.
     */
    public List<String> listTables(String schema, S3RequestStats stats)
    {
        List<String> rootFolders = store.listChildPrefixes(root, stats);
        List<String> tables = new ArrayList<>();
        matchFolder(root, rootFolders, schema)
                .map(folder -> visibleLowerCase(store.listChildPrefixes(folder, stats)))
                .ifPresent(tables::addAll);
        if (registry.mayHoldTables(rootFolders)) {
            tables.addAll(registry.listTables(schema, stats));
        }
        return tables.stream().distinct().sorted().collect(ImmutableList.toImmutableList());
    }

    public boolean schemaExists(String schema, S3RequestStats stats)
    {
        List<String> rootFolders = store.listChildPrefixes(root, stats);
        return matchFolder(root, rootFolders, schema).isPresent()
                || (registry.mayHoldTables(rootFolders) && registry.schemaExists(schema, stats));
    }

    /**
     * Records {@code schema} for registered tables ({@code CREATE SCHEMA}): a registration never creates one.
     */
    public void createSchema(String schema, S3RequestStats stats)
    {
        checkRegistrationEnabled("CREATE SCHEMA");
        RegistrationPolicy.checkName("schema", schema);
        if (schemaExists(schema, stats) || !registry.createSchema(schema, stats)) {
            throw new TrinoException(ALREADY_EXISTS, "Schema %s already exists".formatted(schema));
        }
    }

    /**
     * Forgets a schema {@link #createSchema} recorded ({@code DROP SCHEMA}); one holding registered tables, or that is
     * a folder of the lake, stays.
     */
    public void dropSchema(String schema, S3RequestStats stats)
    {
        checkRegistrationEnabled("DROP SCHEMA");
        List<String> rootFolders = store.listChildPrefixes(root, stats);
        if (matchFolder(root, rootFolders, schema).isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Schema %s is the folder %s of the lake; it goes away when that folder does".formatted(schema, root.child(schema).asPrefix()));
        }
        if (!registry.listTables(schema, stats).isEmpty()) {
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Schema %s holds registered tables; unregister_table them first".formatted(schema));
        }
        if (!registry.dropSchema(schema, stats)) {
            throw new SchemaNotFoundException(schema);
        }
    }

    /**
     * The table's folder: its registered location, or the folder found by the layout {@code <location>/<schema>/<table>/}
     * with two delimited listings (the root, then the schema), and never a listing of its files. A registration
     * takes precedence over a folder of the same name. The root's listing also shows whether the default registry
     * exists: a catalog without registered tables asks nothing more.
     */
    public Optional<S3Location> findTable(SchemaTableName name, S3RequestStats stats)
    {
        return cached(locations, name, () -> {
            List<String> rootFolders = store.listChildPrefixes(root, stats);
            if (registry.mayHoldTables(rootFolders)) {
                Optional<TableRegistry.Registered> registered = registry.findRegistration(name, stats);
                if (registered.isPresent()) {
                    S3Location location = registered.get().location();
                    // as at registration: a narrowed allow-list, or a table format's folder made above it since
                    RegistrationPolicy.checkLocation(name, location);
                    registrationPolicy.checkAllowed(name, location);
                    formatAncestors.check(name, location, stats);
                    registered.get().metadataFile().ifPresentOrElse(file -> pinnedMetadataFiles.put(name, file), () -> pinnedMetadataFiles.remove(name));
                    return Optional.of(location);
                }
            }
            pinnedMetadataFiles.remove(name);
            Optional<S3Location> schemaFolder = matchFolder(root, rootFolders, name.getSchemaName());
            if (schemaFolder.isEmpty()) {
                return Optional.empty();
            }
            return findFolder(schemaFolder.get(), name.getTableName(), stats).map(S3Location::asPrefix);
        });
    }

    /**
     * The schema's folder, found with one delimited listing of the root.
     */
    public Optional<S3Location> findSchema(String schema, S3RequestStats stats)
    {
        return findFolder(root, schema, stats).map(S3Location::asPrefix);
    }

    /**
     * Records {@code name} as the table at {@code location} once its files are readable as a table (Parquet data, no
     * table format), so that a mistyped prefix fails here rather than at the first query.
     */
    public void register(SchemaTableName name, S3Location location, Optional<String> metadataFile, S3RequestStats stats)
    {
        RegistrationPolicy.checkName("schema", name.getSchemaName());
        RegistrationPolicy.checkName("table", name.getTableName());
        RegistrationPolicy.checkLocation(name, location);
        registrationPolicy.checkAllowed(name, location);
        if (!schemaExists(name.getSchemaName(), stats)) {
            throw new SchemaNotFoundException(name.getSchemaName(), "Schema %s does not exist; a registration never creates one (CREATE SCHEMA it first)".formatted(name.getSchemaName()));
        }
        formatAncestors.checkNow(name, location, stats);
        if (!registrationPolicy.allowsAliases()) {
            checkNoOtherTable(name, location.asPrefix(), stats);
        }
        checkHoldsData(name, location.asPrefix(), metadataFile, stats);
        registry.register(name, location, metadataFile, stats);
        flushListings(name::equals);
    }

    /**
     * Refuses a location without data files, or whose files are not a table (a table format, partition folders that
     * disagree), looking at its first {@value #REGISTRATION_LISTING_PAGES} listing pages at most: a bucket root of a
     * million objects is registered in a few requests, and whatever lies past them is checked by every query's listing.
     */
    private void checkHoldsData(SchemaTableName name, S3Location location, Optional<String> metadataFile, S3RequestStats stats)
    {
        ListingPage head = store.listFirstPages(location, REGISTRATION_LISTING_PAGES, stats);
        S3Location companion = companionFolder.of(name, location);
        LakeTable table;
        try {
            table = head.truncated() || companionFolder.insideTable()
                    ? TableListing.interpret(name, location, head.objects(), companion, List.of())
                    : TableListing.interpret(name, location, head.objects(), companion, store.listWithAges(companion, stats));
        }
        catch (TableFormatFound found) {
            if (!formatTables.reads(found.format())) {
                throw found;
            }
            // read through its metadata now, so that a damaged or unreadable table (or pinned file) fails here; it may
            // have no data yet
            formatTables.read(name, location, found.format(), new FormatTables.Version(metadataFile, OptionalLong.empty()), stats);
            return;
        }
        if (metadataFile.isPresent()) {
            throw new TrinoException(INVALID_ARGUMENTS, "Cannot register %s: metadata_file_name names an Iceberg table's metadata file, and %s is not an Iceberg table".formatted(name, location));
        }
        if (table.files().isEmpty()) {
            String looked = head.truncated() ? "among the first %d objects of %s".formatted(head.objects().size(), location) : "in " + location;
            throw new TrinoException(PARQUET_BLOOM_TABLE_EMPTY, "Cannot register %s: no data file %s (see the README's Tables section for which objects are data; register the folder that holds them)".formatted(name, looked));
        }
    }

    private void checkRegistrationEnabled(String statement)
    {
        if (!registrationEnabled) {
            throw new TrinoException(NOT_SUPPORTED, "%s records schemas of registered tables, and registering tables is off in this catalog (register-table-procedure.enabled=false); the lake's own schemas are its folders".formatted(statement));
        }
    }

    /**
     * Refuses a registration at, inside or containing another table's location: a second name for the same files
     * escapes the access rules, row filters and column masks of the first, and its key index procedures would write
     * into the other table's index folder.
     */
    private void checkNoOtherTable(SchemaTableName name, S3Location location, S3RequestStats stats)
    {
        registry.listAll(stats).forEach((other, otherLocation) -> {
            if (RegistrationPolicy.overlaps(location, otherLocation)) {
                throw aliasError(name, location, other.toString(), otherLocation);
            }
        });
        if (!RegistrationPolicy.overlaps(location, root)) {
            return;
        }
        if (RegistrationPolicy.contains(root, location) && !location.equals(root)) {
            // inside the layout: <root>/<schema>/<table>/ is a table when neither name is hidden or a partition
            String[] segments = location.key().substring(root.key().length()).split("/");
            if (segments.length >= 2 && !isHidden(segments[0]) && !isHidden(segments[1])) {
                throw aliasError(name, location, "%s.%s".formatted(segments[0].toLowerCase(Locale.ROOT), segments[1].toLowerCase(Locale.ROOT)), root.child(segments[0]).child(segments[1]).asPrefix());
            }
            if (segments.length == 1 && !isHidden(segments[0]) && !visibleLowerCase(store.listChildPrefixes(location, stats)).isEmpty()) {
                throw aliasError(name, location, "the tables of schema " + segments[0].toLowerCase(Locale.ROOT), location);
            }
            return;
        }
        // the lake's root or above it: every table the layout finds is inside
        for (String schema : visibleLowerCase(store.listChildPrefixes(root, stats))) {
            if (!listTables(schema, stats).isEmpty()) {
                throw aliasError(name, location, "the tables of schema " + schema, root.child(schema).asPrefix());
            }
        }
    }

    private static TrinoException aliasError(SchemaTableName name, S3Location location, String other, S3Location otherLocation)
    {
        return new TrinoException(PERMISSION_DENIED, "Cannot register %s at %s: it is at, inside or contains %s (%s), and a second name for its files would escape that table's access rules (register-table-procedure.allow-aliases=true allows it)".formatted(
                name, location.asPrefix(), other, otherLocation));
    }

    /**
     * Forgets the registration of {@code name}; the table's files stay where they are.
     */
    public boolean unregister(SchemaTableName name, S3RequestStats stats)
    {
        boolean removed = registry.unregister(name, stats);
        flushListings(name::equals);
        return removed;
    }

    public S3Location registryLocation()
    {
        return registry.location();
    }

    /**
     * The registered location of {@code name}, asked of the registry now.
     */
    public Optional<S3Location> registeredLocation(SchemaTableName name, S3RequestStats stats)
    {
        return registry.find(name, stats);
    }

    /**
     * Forgets the cached folders and listings of the tables {@code tables} selects (with
     * {@code metadata.listing-cache-ttl}; without it nothing is cached).
     */
    public void flushListings(Predicate<SchemaTableName> tables)
    {
        invalidateAllIf(locations, tables);
        invalidateAllIf(listings, tables);
        invalidateAllIf(shapes, key -> tables.test(key.table()));
        invalidateAllIf(formats, key -> tables.test(key.table()));
        invalidateAllIf(companions, key -> tables.test(key.table()));
        formatAncestors.flush();
        sharedListings.forget(tables);
    }

    /**
     * The files of the table in {@code folder}, listed now or, with {@code metadata.listing-cache-ttl}, at most that
     * long ago.
     */
    public LakeTable getTable(SchemaTableName name, S3Location folder, S3RequestStats stats)
    {
        return getTable(name, folder, Instant.now(), stats);
    }

    /**
     * The files of the table in {@code folder} for a query submitted at {@code submittedAt}: from a listing that
     * began after that ({@link SharedListings}, {@code metadata.shared-listing-max-age}), else as
     * {@link #getTable(SchemaTableName, S3Location, S3RequestStats)}.
     */
    public LakeTable getTable(SchemaTableName name, S3Location folder, Instant submittedAt, S3RequestStats stats)
    {
        return cached(listings, name, () -> Optional.of(sharedListings.sharedWith(name, folder, submittedAt)
                .map(shared -> {
                    stats.recordSharedListing();
                    return shared;
                })
                .orElseGet(() -> sharedListings.list(name, folder, () -> listTable(name, folder, stats))))).orElseThrow();
    }

    /**
     * The table of a table format as of one of its snapshots ({@code FOR VERSION AS OF}): its files and schema then.
     */
    public LakeTable getTableVersion(SchemaTableName name, S3Location folder, TableFormat format, long snapshotId, S3RequestStats stats)
    {
        return readFormat(name, folder.asPrefix(), format, OptionalLong.of(snapshotId), stats);
    }

    /**
     * The snapshot of a table format's table that was current at {@code instant} ({@code FOR TIMESTAMP AS OF}).
     */
    public long snapshotAsOf(SchemaTableName name, S3Location folder, TableFormat format, Instant instant, S3RequestStats stats)
    {
        return formatTables.snapshotAsOf(name, folder.asPrefix(), format, Optional.ofNullable(pinnedMetadataFiles.get(name)), instant, stats);
    }

    /**
     * The shape of the table {@code name} in {@code location}, from {@code metadata.schema-cache-ttl} ago at most, else
     * from {@code loader} (which lists all its files).
     */
    public TableShape shape(SchemaTableName name, S3Location location, boolean unionByName, Supplier<TableShape> loader)
    {
        ShapeKey key = new ShapeKey(name, location.asPrefix(), unionByName);
        Optional<TableShape> cached = shapes.getIfPresent(key);
        if (cached != null) {
            return cached.orElseThrow();
        }
        TableShape loaded = loader.get();
        if (loaded.fromTableFormat()) {
            // a table format's schema is its current metadata's, read with its files every query: a cached one would
            // give a renamed, dropped or re-added column's handle the field id it had before
            return loaded;
        }
        return cached(shapes, key, () -> Optional.of(loaded)).orElseThrow();
    }

    /**
     * The files of the table in {@code folder} as S3 lists them now, never from the listing cache: what a key index
     * build records.
     */
    public LakeTable listTableNow(SchemaTableName name, S3Location folder, S3RequestStats stats)
    {
        companions.invalidate(new ShapeKey(name, folder.asPrefix(), false));
        return listTable(name, folder, stats);
    }

    /**
     * Whether a query of the table of {@code shape} that selects partitions lists only those: the table takes more than
     * one listing page.
     */
    public boolean listsByPartition(TableShape shape)
    {
        return shape.listsByPartition(store.listPageSize());
    }

    /**
     * The files of the partitions of the table in {@code folder} that {@code partitionDomains} selects, listed now
     * without listing the other partitions ({@link PartitionFolders}), or with all the others where that walk would
     * cost more LIST requests than the whole table's listing; never from the listing cache.
     *
     * @param shape the table's shape, from a listing of all its files: its partition columns and how many files it had
     */
    public LakeTable listPartitions(SchemaTableName name, S3Location folder, TableShape shape, Map<String, Domain> partitionDomains, S3RequestStats stats)
    {
        S3Location prefix = folder.asPrefix();
        // what listing the whole table costs: its pages, and the listing of its folders that cuts them into ranges
        long wholeListings = (shape.files() + store.listPageSize() - 1) / store.listPageSize() + 1;
        Optional<List<ListedObject>> walked = partitionFolders.list(prefix, shape.partitionColumns(), partitionDomains, wholeListings, stats);
        List<ListedObject> objects = walked.orElseGet(() -> lister.list(prefix, stats));
        if (walked.isPresent()) {
            stats.recordPartitionListing();
        }
        else {
            stats.recordPartitionListingFallback();
        }
        S3Location companion = companionFolder.of(name, prefix);
        // the companion folder is not a partition: listed on its own wherever it is, unless the whole listing has it
        List<ListedObject> companionObjects = walked.isEmpty() && companionFolder.insideTable() ? List.of() : store.listWithAges(companion, stats);
        return TableListing.interpret(name, prefix, objects, companion, companionObjects, Optional.of(shape.partitionColumns()));
    }

    private static <K, T> Optional<T> cached(Cache<K, Optional<T>> cache, K name, Supplier<Optional<T>> loader)
    {
        try {
            return uncheckedCacheGet(cache, name, loader);
        }
        catch (UncheckedExecutionException e) {
            // the listing's own error (a TrinoException naming the bucket), not the cache's wrapper
            throwIfUnchecked(e.getCause());
            throw e;
        }
    }

    /**
     * The table's files: a folder table's as listed now; a table format's (whose folder a listing showed it to be,
     * remembered for {@code metadata.schema-cache-ttl}) as its current version's metadata says, its folder not listed.
     */
    private LakeTable listTable(SchemaTableName name, S3Location folder, S3RequestStats stats)
    {
        S3Location prefix = folder.asPrefix();
        ShapeKey formatKey = new ShapeKey(name, prefix, false);
        TableFormat known = formats.getIfPresent(formatKey);
        if (known != null) {
            return readFormat(name, prefix, known, OptionalLong.empty(), stats);
        }
        try {
            List<ListedObject> objects = lister.list(prefix, stats);
            S3Location companion = companionFolder.of(name, prefix);
            List<ListedObject> companionObjects = companionFolder.insideTable() ? List.of() : store.listWithAges(companion, stats);
            return TableListing.interpret(name, prefix, objects, companion, companionObjects);
        }
        catch (TableFormatFound found) {
            if (!formatTables.reads(found.format()) || !found.location().equals(prefix)) {
                throw TableListing.unsupportedFormat(name, found.location(), found.format());
            }
            // put is refused by a cache whose time to live is 0: get stores where it may
            uncheckedCacheGet(formats, formatKey, found::format);
            return readFormat(name, prefix, found.format(), OptionalLong.empty(), stats);
        }
    }

    /**
     * A table format's table read through its metadata, with its companion folder listed: the format's reading lists
     * none of its folders, and the key index's pointers are found by that listing.
     */
    private LakeTable readFormat(SchemaTableName name, S3Location prefix, TableFormat format, OptionalLong snapshotId, S3RequestStats stats)
    {
        LakeTable table = formatTables.read(name, prefix, format, new FormatTables.Version(Optional.ofNullable(pinnedMetadataFiles.get(name)), snapshotId), stats);
        S3Location companion = companionFolder.of(name, prefix);
        // kept as long as the format: an index built or dropped here flushes it, and one seen late is still correct
        // (a format's files never change at their path: an older pointer covers fewer files, a vanished one is unused)
        List<ListedObject> objects = cached(companions, new ShapeKey(name, prefix, false), () -> Optional.of(store.listWithAges(companion, stats))).orElseThrow();
        return table.withCompanionFolder(companion, objects);
    }

    /**
     * The {@link CompanionFolder} of the table {@code name} in {@code location}.
     */
    public S3Location companionFolder(SchemaTableName name, S3Location location)
    {
        return companionFolder.of(name, location);
    }

    /**
     * The folder whose name equals {@code name} without regard to case. Two such folders ({@code Events/} and
     * {@code events/}) are one Trino name for two sets of files: reading either alone would silently drop the other's
     * rows, so it is an error naming both.
     */
    private Optional<S3Location> findFolder(S3Location parent, String name, S3RequestStats stats)
    {
        return matchFolder(parent, store.listChildPrefixes(parent, stats), name);
    }

    private static Optional<S3Location> matchFolder(S3Location parent, List<String> children, String name)
    {
        List<String> matches = children.stream()
                .filter(child -> !isHidden(child) && child.equalsIgnoreCase(name))
                .toList();
        if (matches.size() > 1) {
            throw new TrinoException(PARQUET_BLOOM_AMBIGUOUS_LOCATION, "Name '%s' matches folders that differ only in case: %s; rename or remove all but one".formatted(
                    name.toLowerCase(Locale.ROOT),
                    matches.stream().map(child -> parent.child(child).asPrefix().toString()).collect(joining(", "))));
        }
        return matches.stream().findFirst().map(child -> parent.child(child).asPrefix());
    }

    /**
     * Folder names that can be schemas or tables: neither hidden nor a partition folder ({@code year=2026}).
     */
    private static List<String> visibleLowerCase(List<String> names)
    {
        return names.stream()
                .filter(name -> !isHidden(name) && name.indexOf('=') < 0)
                .map(name -> name.toLowerCase(Locale.ROOT))
                .distinct()
                .collect(ImmutableList.toImmutableList());
    }

    private static boolean isHidden(String name)
    {
        return DataFileNames.isHidden(name) || name.indexOf('=') >= 0;
    }
}
