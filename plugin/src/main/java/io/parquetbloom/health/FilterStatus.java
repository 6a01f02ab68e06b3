package io.parquetbloom.health;

import static java.util.Objects.requireNonNull;

/**
 * What a chunk's bloom filter is to a lookup, shown as the {@code status} of {@code "t$bloom_filters"}.
 */
public sealed interface FilterStatus
{
    /**
     * The text users see.
     */
    String describe();

    record Usable()
            implements FilterStatus
    {
        @Override
        public String describe()
        {
            return "usable";
        }
    }

    /**
     * The writer made no filter for the chunk.
     */
    record Missing()
            implements FilterStatus
    {
        @Override
        public String describe()
        {
            return "missing";
        }
    }

    /**
     * Only cached filters were asked for, and this one was not cached: nothing is known of it.
     */
    record NotCached()
            implements FilterStatus
    {
        @Override
        public String describe()
        {
            return "not cached";
        }
    }

    record Unusable(String reason)
            implements FilterStatus
    {
        public Unusable
        {
            requireNonNull(reason, "reason is null");
        }

        @Override
        public String describe()
        {
            return "unusable: " + reason;
        }
    }
}
