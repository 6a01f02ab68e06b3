package io.parquetbloom.testing;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * One generated row of {@code telemetry.events}, kept in memory as the oracle for assertions.
 */
public record TelemetryRow(
        String region,
        String deviceId,
        String traceId,
        long seq,
        double reading,
        short small,
        int code,
        BigDecimal price,
        BigDecimal amount,
        LocalDate day,
        LocalDateTime eventTs,
        long eventTsMillisUtc,
        UUID tag,
        float ratio,
        byte[] payload,
        String note) {}
