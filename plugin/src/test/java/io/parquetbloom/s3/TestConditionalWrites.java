package io.parquetbloom.s3;

import io.parquetbloom.s3.S3ObjectStore.PutCondition;
import io.trino.spi.TrinoException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_CONDITIONAL_WRITES_IGNORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store that ignores {@code If-None-Match} or {@code If-Match} is found out before the first conditional write to a
 * bucket, once, and every conditional write to it is then refused naming the header; a store that honours both is
 * checked once and trusted.
 */
final class TestConditionalWrites
{
    private static final S3Location REGISTRATION = new S3Location("lake", "warehouse/_parquet_bloom_registry/s/t.json");

    @Test
    void storeHonouringConditionsIsCheckedOnceABucket()
    {
        FakeStore store = new FakeStore(true, true);
        ConditionalWrites writes = new ConditionalWrites(store);
        writes.requireHonoured(REGISTRATION, new S3RequestStats());
        writes.requireHonoured(new S3Location("lake", "other/key"), new S3RequestStats());
        // a fresh probe, the same again (refused), a wrong ETag (refused), a delete on a wrong ETag (refused), and the
        // probe deleted
        assertThat(store.requests).containsExactly("PUT Absent", "PUT Absent", "PUT Matches", "DELETE Matches", "DELETE");
        assertThat(store.objects).isEmpty();
        assertThat(store.probes).allMatch(key -> key.startsWith("warehouse/_parquet_bloom_registry/s/.parquet-bloom-conditional-write-probe-"));
    }

    @Test
    void storeIgnoringIfNoneMatchIsRefused()
    {
        FakeStore store = new FakeStore(false, true);
        ConditionalWrites writes = new ConditionalWrites(store);
        assertThatThrownBy(() -> writes.requireHonoured(REGISTRATION, new S3RequestStats()))
                .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(PARQUET_BLOOM_CONDITIONAL_WRITES_IGNORED.toErrorCode()))
                .hasMessageContaining("bucket lake ignores If-None-Match");
        // known since: refused again without a request
        int sent = store.requests.size();
        assertThatThrownBy(() -> writes.requireHonoured(REGISTRATION, new S3RequestStats())).hasMessageContaining("If-None-Match");
        assertThat(store.requests).hasSize(sent);
        assertThat(store.objects).isEmpty();
    }

    @Test
    void storeIgnoringIfMatchIsRefused()
    {
        ConditionalWrites writes = new ConditionalWrites(new FakeStore(true, false));
        assertThatThrownBy(() -> writes.requireHonoured(REGISTRATION, new S3RequestStats()))
                .hasMessageContaining("ignores If-Match on PUT");
    }

    private static final class FakeStore
            implements ConditionalWrites.Writer
    {
        private final boolean honoursIfNoneMatch;
        private final boolean honoursIfMatch;
        private final Map<String, String> objects = new HashMap<>();
        private final List<String> requests = new ArrayList<>();
        private final List<String> probes = new ArrayList<>();
        private int version;

        FakeStore(boolean honoursIfNoneMatch, boolean honoursIfMatch)
        {
            this.honoursIfNoneMatch = honoursIfNoneMatch;
            this.honoursIfMatch = honoursIfMatch;
        }

        @Override
        public Optional<String> write(S3Location location, byte[] bytes, PutCondition condition, S3RequestStats stats)
        {
            requests.add("PUT " + condition.getClass().getSimpleName());
            probes.add(location.key());
            String existing = objects.get(location.key());
            boolean refused = switch (condition) {
                case PutCondition.None _ -> false;
                case PutCondition.Absent _ -> honoursIfNoneMatch && existing != null;
                case PutCondition.Matches(String etag) -> honoursIfMatch && !etag.equals(existing);
            };
            if (refused) {
                return Optional.empty();
            }
            String etag = "v" + version++;
            objects.put(location.key(), etag);
            return Optional.of(etag);
        }

        @Override
        public void delete(S3Location location, S3RequestStats stats)
        {
            requests.add("DELETE");
            objects.remove(location.key());
        }

        @Override
        public boolean deleteIfMatches(S3Location location, String etag, S3RequestStats stats)
        {
            requests.add("DELETE Matches");
            if (honoursIfMatch && !etag.equals(objects.get(location.key()))) {
                return false;
            }
            objects.remove(location.key());
            return true;
        }
    }
}
