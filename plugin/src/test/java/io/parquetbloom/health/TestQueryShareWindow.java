package io.parquetbloom.health;

import io.trino.spi.connector.SchemaTableName;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

final class TestQueryShareWindow
{
    private static final SchemaTableName EVENTS = new SchemaTableName("telemetry", "events");
    private static final SchemaTableName DEVICES = new SchemaTableName("telemetry", "devices");

    @Test
    void sharesOfRecentQueries()
    {
        QueryShareWindow window = new QueryShareWindow(4);
        assertThat(window.share(EVENTS).queries()).isZero();
        assertThat(window.share(EVENTS).share("device_id")).isEqualTo(-1);

        window.record("q1", EVENTS, Set.of("device_id"));
        window.record("q2", EVENTS, Set.of());
        // a self-join scans the table twice: one query, the union of its columns
        window.record("q3", EVENTS, Set.of("device_id"));
        window.record("q3", EVENTS, Set.of("trace_id"));
        window.record("q4", DEVICES, Set.of("device_id"));
        QueryShareWindow.TableShare events = window.share(EVENTS);
        assertThat(events.queries()).isEqualTo(3);
        assertThat(events.share("device_id")).isEqualTo(2 / 3.0);
        assertThat(events.share("trace_id")).isEqualTo(1 / 3.0);
        assertThat(events.share("seq")).isZero();
        assertThat(window.share(DEVICES).share("device_id")).isEqualTo(1.0);

        // the window keeps the last 4 scans of the catalog: q1 leaves
        window.record("q5", EVENTS, Set.of("trace_id"));
        events = window.share(EVENTS);
        assertThat(events.queries()).isEqualTo(3);
        assertThat(events.share("device_id")).isEqualTo(1 / 3.0);
        assertThat(events.share("trace_id")).isEqualTo(2 / 3.0);
    }
}
