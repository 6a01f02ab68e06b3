package io.parquetbloom.keyindex;

/**
 * The index cannot be trusted for this query (missing or changed object, bad checksum, unknown version, a type
 * that does not fit the column): planning ignores it and takes every file's own path.
 */
public class KeyIndexUnusableException
        extends Exception
{
    public KeyIndexUnusableException(String message)
    {
        super(message);
    }

    public KeyIndexUnusableException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
