package io.parquetbloom.keyindex;

/**
 * A lookup that would read more of the index than {@code key-index.max-lookup-bytes}: the scan plans without the
 * index, as it would with none.
 */
public class KeyIndexLookupTooLargeException
        extends KeyIndexUnusableException
{
    public KeyIndexLookupTooLargeException(String message)
    {
        super(message);
    }
}
