package io.parquetbloom.table;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.connector.SchemaTableName;

import java.net.URLEncoder;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * A folder that a higher layer keeps for each table (the key index's): never table data, listed with the table when
 * it lies in the table's folder, or beside it under a root of its own, and handed over as listed. Its owner names it
 * and reads what is in it.
 *
 * @param name the folder's name inside the table's folder (or inside the table's place under {@code root})
 * @param root where the folders live instead of in the tables' own folders: {@code <root>/<schema>/<table>/<name>/}
 */
public record CompanionFolder(String name, Optional<S3Location> root)
{
    public CompanionFolder
    {
        requireNonNull(name, "name is null");
        root = requireNonNull(root, "root is null").map(S3Location::asPrefix);
    }

    /**
     * The folder of the table {@code name} whose files are in {@code tableLocation}.
     */
    public S3Location of(SchemaTableName table, S3Location tableLocation)
    {
        S3Location home = root
                .map(prefix -> prefix.child(URLEncoder.encode(table.getSchemaName(), UTF_8) + "/" + URLEncoder.encode(table.getTableName(), UTF_8)).asPrefix())
                .orElse(tableLocation.asPrefix());
        return home.child(name).asPrefix();
    }

    /**
     * Whether the table's own listing holds the folder (no separate root).
     */
    public boolean insideTable()
    {
        return root.isEmpty();
    }
}
