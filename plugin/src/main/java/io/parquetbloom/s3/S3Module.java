package io.parquetbloom.s3;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import software.amazon.awssdk.services.s3.S3Client;

import static io.airlift.configuration.ConfigBinder.configBinder;
import static org.weakref.jmx.guice.ExportBinder.newExporter;

/**
 * The catalog's S3 client and the object store over it.
 */
public class S3Module
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(S3Config.class);
        // bound on its own so that the lifecycle manager sees it and closes the client with the catalog
        binder.bind(S3ClientProvider.class).in(Scopes.SINGLETON);
        binder.bind(S3Client.class).toProvider(S3ClientProvider.class).in(Scopes.SINGLETON);
        binder.bind(S3ObjectStore.class).in(Scopes.SINGLETON);
        binder.bind(S3Stats.class).in(Scopes.SINGLETON);
        newExporter(binder).export(S3Stats.class).withGeneratedName();
    }
}
