package io.parquetbloom.keyindex;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.DAYS;

/**
 * The coordinator's plans of the key index builds the cluster runs ({@code ALTER TABLE ... EXECUTE
 * create_key_index}), from the start of a build to its publishing: the files its splits read and the index as the
 * build found it, which publishing must compare against. A build whose query fails never finishes: its plan is
 * dropped a day later, or once a thousand newer builds are planned.
 */
public final class KeyIndexBuildPlans
{
    private final Cache<String, KeyIndexBuilder.BuildPlan> plans = CacheBuilder.newBuilder()
            .maximumSize(1_000)
            .expireAfterWrite(1, DAYS)
            .build();
    // the segment names each build's splits were given: what a build that does not finish leaves behind
    private final Cache<String, List<String>> segments = CacheBuilder.newBuilder()
            .maximumSize(1_000)
            .expireAfterWrite(1, DAYS)
            .build();

    /**
     * @return the build's id
     */
    public String register(KeyIndexBuilder.BuildPlan plan)
    {
        requireNonNull(plan, "plan is null");
        String id = UUID.randomUUID().toString();
        plans.put(id, plan);
        return id;
    }

    public Optional<KeyIndexBuilder.BuildPlan> get(String id)
    {
        return Optional.ofNullable(plans.getIfPresent(id));
    }

    public Optional<KeyIndexBuilder.BuildPlan> remove(String id)
    {
        segments.invalidate(id);
        return Optional.ofNullable(plans.asMap().remove(id));
    }

    public void recordSegments(String id, List<String> names)
    {
        segments.put(id, List.copyOf(names));
    }

    /**
     * The segment names of every build planned and not finished.
     */
    public Set<String> allSegments()
    {
        Set<String> names = new HashSet<>();
        segments.asMap().values().forEach(names::addAll);
        return names;
    }

    public List<String> segments(String id)
    {
        return Optional.ofNullable(segments.getIfPresent(id)).orElse(List.of());
    }
}
