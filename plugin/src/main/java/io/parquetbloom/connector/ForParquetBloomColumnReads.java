package io.parquetbloom.connector;

import com.google.inject.BindingAnnotation;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

/**
 * The catalog's threads that fetch the filter columns' chunks of a split a few row groups ahead of its reader, so
 * that those GETs overlap each other and the decoding of earlier row groups. A split keeps at most a few of them busy.
 */
@Retention(RUNTIME)
@Target({FIELD, PARAMETER, METHOD})
@BindingAnnotation
public @interface ForParquetBloomColumnReads {}
