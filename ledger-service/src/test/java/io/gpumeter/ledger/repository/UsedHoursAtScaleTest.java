package io.gpumeter.ledger.repository;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Used hours over a shared fleet the size of the demo's: 32 cards, each shared by four HAMi units of a quarter for
 * 150 minutes, two of them measured by their containers' core utilization and two not. The query once searched
 * the measured series again for every unit and minute, and joined the card-minutes row by row: on such data a day's
 * answer took a minute, past billing's 10 s read timeout. It must answer well within that, and answer right.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsedHoursAtScaleTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final OffsetDateTime FROM = OffsetDateTime.parse("2025-06-10T00:00:00Z");
    private static final OffsetDateTime START = OffsetDateTime.parse("2025-06-10T10:00:00Z");
    private static final OffsetDateTime TO = OffsetDateTime.parse("2025-06-11T00:00:00Z");
    private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);

    @Inject
    Pool pool;

    @Test
    void aDayOfADemoSizedSharedFleetAnswersInAFewSecondsAndRight() {
        pool.query("CREATE TABLE IF NOT EXISTS ledger.usage_minute_p20250610 PARTITION OF ledger.usage_minute "
                + "FOR VALUES FROM ('2025-06-10T00:00:00Z') TO ('2025-06-11T00:00:00Z')").execute().await().atMost(WAIT);
        // unit u of card c: pod scale-c-u, a quarter of the card from 10:00 to 12:30
        pool.query("""
                INSERT INTO ledger.allocation_segment (cluster, pod_uid, unit_index, seg_start, seg_end, since, until, namespace,
                    pod, node, gpu_uuid, gpu_model, unit_kind, cores, memory_mib, fraction, source, tenant, team, project)
                SELECT 'scale', 'scale-' || c || '-' || u, 0, timestamptz '2025-06-10 10:00:00+00',
                       timestamptz '2025-06-10 12:30:00+00', timestamptz '2025-06-10 10:00:00+00', timestamptz '2025-06-10 12:30:00+00',
                       'scale-ns', 'scale-' || c || '-' || u, 'scale-node-' || (c / 8), 'SCALE-GPU-' || c, 'H100', 'VGPU', 25, 20000,
                       0.25, 'POD', 'scale-tenant', 'scale-team', 'scale-project'
                FROM generate_series(0, 31) c, generate_series(0, 3) u""").execute().await().atMost(WAIT);
        // every card-minute: SM_ACTIVE and GPU_UTIL 0.8; units 0 and 1 each measured at 0.2 of the card's cores
        pool.query("""
                INSERT INTO ledger.usage_minute (cluster, gpu_uuid, scope, scope_key, field, minute, sum, max, samples, seconds)
                SELECT 'scale', 'SCALE-GPU-' || c, 'DEVICE', '', f, m, 0.8 * 4, 0.8, 4, 15
                FROM generate_series(0, 31) c, unnest(ARRAY['SM_ACTIVE', 'GPU_UTIL']) f,
                     generate_series(timestamptz '2025-06-10 10:00:00+00', timestamptz '2025-06-10 12:29:00+00', interval '1 minute') m
                UNION ALL
                SELECT 'scale', 'SCALE-GPU-' || c, 'CONTAINER', 'scale-ns/scale-' || c || '-' || u || '/main', 'VGPU_CORE_UTIL', m,
                       0.2 * 4, 0.2, 4, 15
                FROM generate_series(0, 31) c, generate_series(0, 1) u,
                     generate_series(timestamptz '2025-06-10 10:00:00+00', timestamptz '2025-06-10 12:29:00+00', interval '1 minute') m
                """).execute().chain(() -> pool.query("ANALYZE ledger.allocation_segment").execute())
                .chain(() -> pool.query("ANALYZE ledger.usage_minute").execute()).await().atMost(WAIT);

        String sql = SqlFile.load("used-hours.sql").fill(SqlFile.with(Map.of("dimensions", "coalesce(m.tenant, 'unknown') AS d0",
                "groups", "d0", "tenant_filter", SqlFile.tenantFilter(null)), SqlFile.USED_PIECES));
        long t0 = System.nanoTime();
        Row row = pool.preparedQuery(sql).execute(SqlFile.withBuckets(Tuple.of(FROM, TO, TO, null),
                List.of(new TimeBucket("0", FROM.toInstant(), TO.toInstant())))).await().atMost(WAIT).iterator().next();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("used hours of 32 shared cards over 150 minutes: %d ms%n", took.toMillis());

        // A measured unit takes its containers' 0.2 of the card. The card is busy 0.8 of the time, the measured take
        // 0.4 of its cores, so half its busy time, 0.4, is left to the two unmeasured quarters: 0.2 each. Every one
        // of the 128 units is then 0.2 of a card for 2.5 h: 0.5 card-hours each, 64 in all; all were measured or
        // shared out, so the covered hours are the allocation, 128 × 0.25 × 2.5 = 80.
        assertEquals("scale-tenant", row.getString("d0"));
        assertEquals(0, new BigDecimal("64").compareTo(row.getBigDecimal("used").divide(SECONDS_PER_HOUR).setScale(6, java.math.RoundingMode.HALF_EVEN)),
                "used " + row.getBigDecimal("used"));
        assertEquals(0, new BigDecimal("80").compareTo(row.getBigDecimal("covered").divide(SECONDS_PER_HOUR).setScale(6, java.math.RoundingMode.HALF_EVEN)),
                "covered " + row.getBigDecimal("covered"));
        assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "a day of 32 shared cards took " + took + ", over billing's 10 s read timeout");
    }
}
