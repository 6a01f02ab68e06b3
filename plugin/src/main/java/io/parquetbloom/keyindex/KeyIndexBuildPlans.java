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
    /**
     * @param segments the segment names the build's splits were given, once its splits are made: what a build that
     * does not finish leaves behind
     */
    private record Build(KeyIndexBuilder.BuildPlan plan, List<String> segments) {}

    private final Cache<String, Build> builds = CacheBuilder.newBuilder()
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
        builds.put(id, new Build(plan, List.of()));
        return id;
    }

    public Optional<KeyIndexBuilder.BuildPlan> get(String id)
    {
        return Optional.ofNullable(builds.getIfPresent(id)).map(Build::plan);
    }

    public Optional<KeyIndexBuilder.BuildPlan> remove(String id)
    {
        return Optional.ofNullable(builds.asMap().remove(id)).map(Build::plan);
    }

    public void recordSegments(String id, List<String> names)
    {
        builds.asMap().computeIfPresent(id, (_, build) -> new Build(build.plan(), List.copyOf(names)));
    }

    /**
     * The segment names of every build planned and not finished.
     */
    public Set<String> allSegments()
    {
        Set<String> names = new HashSet<>();
        builds.asMap().values().forEach(build -> names.addAll(build.segments()));
        return names;
    }

    public List<String> segments(String id)
    {
        return Optional.ofNullable(builds.getIfPresent(id)).map(Build::segments).orElse(List.of());
    }
}
