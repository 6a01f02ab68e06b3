package io.parquetbloom;

import com.google.inject.BindingAnnotation;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

/**
 * The catalog's threads that read metadata from S3 on the coordinator: footers and filters to prune files, first
 * footers for table schemas. Each query works on its own bounded share of them, as Hive's
 * {@code hive.max-split-iterator-threads} does, so one query's 100,000 files never queue in front of another
 * query's lookup.
 */
@Retention(RUNTIME)
@Target({FIELD, PARAMETER, METHOD})
@BindingAnnotation
public @interface ForParquetBloomMetadata {}
