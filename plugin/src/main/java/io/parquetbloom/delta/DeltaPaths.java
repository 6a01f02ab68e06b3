package io.parquetbloom.delta;

import io.parquetbloom.s3.S3Location;
import io.trino.spi.TrinoException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_BAD_DATA;
import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE;

/**
 * The paths a Delta Lake log names files by (PROTOCOL.md, "Add File and Remove File"): URIs, relative to the table's
 * folder or absolute, with their special characters percent-encoded ({@code a%20b}, {@code %3A}); a {@code +} is
 * itself, not a space.
 */
public final class DeltaPaths
{
    private static final Pattern SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*:.*");

    private DeltaPaths() {}

    /**
     * The object a log's path names, in the table whose folder is {@code table}.
     */
    public static S3Location resolve(S3Location table, String path)
    {
        if (SCHEME.matcher(path).matches()) {
            return S3Location.parse(absolute(path));
        }
        return table.asPrefix().child(decode(path));
    }

    /**
     * An absolute URI as this connector's S3 client names its object ({@code s3a://} and {@code s3n://} are
     * {@code s3://}), decoded.
     */
    public static String absolute(String uri)
    {
        String decoded = decode(uri);
        for (String scheme : new String[] {"s3a://", "s3n://"}) {
            if (decoded.startsWith(scheme)) {
                return "s3://" + decoded.substring(scheme.length());
            }
        }
        if (!decoded.startsWith("s3://")) {
            throw new TrinoException(PARQUET_BLOOM_UNSUPPORTED_TABLE_FEATURE, "Delta Lake file %s is not in S3 (s3://, s3a://, s3n://), which is all this connector reads".formatted(uri));
        }
        return decoded;
    }

    /**
     * Percent-decoding as URIs define it: {@code %XX} is a byte of UTF-8, everything else is itself.
     */
    static String decode(String encoded)
    {
        if (encoded.indexOf('%') < 0) {
            return encoded;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= encoded.length() || Character.digit(encoded.charAt(i + 1), 16) < 0 || Character.digit(encoded.charAt(i + 2), 16) < 0) {
                throw new TrinoException(PARQUET_BLOOM_BAD_DATA, "Delta Lake path %s has a '%%' that is not an escape".formatted(encoded));
            }
            bytes.write(Character.digit(encoded.charAt(i + 1), 16) * 16 + Character.digit(encoded.charAt(i + 2), 16));
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
