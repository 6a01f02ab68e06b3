package io.parquetbloom.s3;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The key of objects written with SSE-C: S3 needs it, and its MD5, on every GET of such an object. {@code toString}
 * never shows it.
 */
record SseCustomerKey(String keyBase64, String keyMd5Base64)
{
    SseCustomerKey
    {
        requireNonNull(keyBase64, "keyBase64 is null");
        requireNonNull(keyMd5Base64, "keyMd5Base64 is null");
    }

    static SseCustomerKey of(String keyBase64)
    {
        byte[] key = Base64.getDecoder().decode(keyBase64);
        try {
            return new SseCustomerKey(keyBase64, Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(key)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String algorithm()
    {
        return "AES256";
    }

    /**
     * 256 bits, base64: what S3 accepts as an SSE-C key.
     */
    static boolean isValid(String keyBase64)
    {
        try {
            return Base64.getDecoder().decode(keyBase64).length == 32;
        }
        catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Sets the key on a request builder (GET, PUT, multipart create and part), through its three setters; nothing
     * without a key.
     */
    static void apply(Optional<SseCustomerKey> key, Consumer<String> algorithm, Consumer<String> keyBase64, Consumer<String> keyMd5Base64)
    {
        key.ifPresent(present -> {
            algorithm.accept(present.algorithm());
            keyBase64.accept(present.keyBase64());
            keyMd5Base64.accept(present.keyMd5Base64());
        });
    }

    @Override
    public String toString()
    {
        return "SseCustomerKey[redacted]";
    }
}
