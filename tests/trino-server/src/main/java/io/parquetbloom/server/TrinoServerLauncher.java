package io.parquetbloom.server;

import io.trino.server.Server;

/**
 * Starts a Trino 483 server the way the server tarball's launcher does; configuration comes from system properties
 * ({@code -Dconfig=etc/config.properties}, {@code -Dplugin.dir=...}, {@code -Dlog.levels-file=...}).
 */
public final class TrinoServerLauncher
{
    private TrinoServerLauncher() {}

    public static void main(String[] args)
    {
        new Server().start("483");
    }
}
