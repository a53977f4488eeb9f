package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plans of the hot queries for one tenant's month: their first step reads allocation_segment through an index
 * whose condition carries the tenant and the window, the tenant is never a filter over a sequential scan of the
 * table, and no other step reads the table sequentially either. The data is 40 tenants of 500 segments each in
 * March 2025, written in tenant order as derivation writes a tenant's pods together, so one tenant is 1/40 of it.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class HotQueryPlanTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final OffsetDateTime FROM = OffsetDateTime.parse("2025-03-01T00:00:00Z");
    private static final OffsetDateTime TO = OffsetDateTime.parse("2025-04-01T00:00:00Z");
    private static final String TENANT = "plan-tenant-17";
    private static boolean loaded;

    @Inject
    Pool pool;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        pool.query("""
                        INSERT INTO ledger.allocation_segment (cluster, pod_uid, unit_index, seg_start, seg_end, since, until,
                            namespace, pod, node, gpu_uuid, gpu_model, unit_kind, fraction, source, tenant, team, project)
                        SELECT 'plan-hot', 'plan-' || t || '-' || i, 0, x.s, x.s + interval '3 hours', x.s, x.s + interval '3 hours',
                               'plan-ns-' || t, 'plan-pod-' || i, 'plan-node-' || t, 'PLAN-GPU-' || t || '-' || (i % 5), 'H100',
                               'WHOLE', 1, 'POD', 'plan-tenant-' || lpad(t::text, 2, '0'), 'plan-team', 'plan-project'
                        FROM generate_series(0, 39) t, generate_series(0, 499) i,
                             LATERAL (SELECT timestamptz '2025-03-01 00:00:00+00' + i * interval '85 minutes' AS s) x
                        ORDER BY t, i
                        ON CONFLICT DO NOTHING""").execute()
                .chain(() -> pool.query("ANALYZE ledger.allocation_segment").execute())
                .await().atMost(WAIT);
    }

    @Test
    void usedHoursOfOneTenantReadTheTenantsSegmentsByIndex() throws Exception {
        String sql = SqlFile.load("used-hours.sql").fill(SqlFile.with(Map.of("dimensions", "coalesce(m.tenant, 'unknown') AS d0",
                "groups", "d0", "tenant_filter", SqlFile.tenantFilter(TENANT)), SqlFile.USED_PIECES));
        JsonNode plan = plan(sql);
        assertFirstStepIndexed(plan);
        assertNoSequentialScan(plan);
    }

    @Test
    void allocatedHoursOfOneTenantReadTheTenantsSegmentsByIndex() throws Exception {
        String sql = SqlFile.load("allocated-hours.sql").fill(SqlFile.with(Map.of("dimensions", "coalesce(s.tenant, 'unknown') AS d0",
                "groups", "d0", "tenant_filter", SqlFile.tenantFilter(TENANT)), SqlFile.ALLOCATED_PIECES));
        JsonNode plan = plan(sql);
        assertFirstStepIndexed(plan);
        assertNoSequentialScan(plan);
    }

    private JsonNode plan(String sql) throws Exception {
        return PlanNodes.plan(pool, sql, SqlFile.withBuckets(Tuple.of(FROM, TO, TO, TENANT), List.of(new TimeBucket("0", FROM.toInstant(), TO.toInstant()))));
    }

    /**
     * One index condition on allocation_segment (an Index Cond, or the Recheck Cond of a bitmap scan) names both the
     * tenant and a bound of the window, and no sequential scan of the table filters by the tenant.
     */
    private static void assertFirstStepIndexed(JsonNode plan) {
        List<JsonNode> nodes = PlanNodes.nodes(plan);
        List<String> types = nodes.stream().map(n -> n.path("Node Type").asText()).toList();
        assertFalse(nodes.stream().anyMatch(n -> n.path("Node Type").asText().equals("Seq Scan")
                        && n.path("Relation Name").asText().equals("allocation_segment")
                        && n.path("Filter").asText().contains("tenant")),
                "the tenant's segments are found by a sequential scan: " + plan.toPrettyString());
        boolean indexed = nodes.stream()
                .filter(n -> n.path("Relation Name").asText().equals("allocation_segment")
                        || n.path("Index Name").asText().startsWith("allocation_segment"))
                .flatMap(n -> List.of(n.path("Index Cond").asText(), n.path("Recheck Cond").asText()).stream())
                .anyMatch(c -> c.contains("tenant") && (c.contains("seg_start") || c.contains("seg_end")));
        assertTrue(indexed, "no index condition on allocation_segment names the tenant and the window; nodes " + types
                + ": " + plan.toPrettyString());
    }

    /** No node reads allocation_segment sequentially: the other occupants of the tenant's cards are read by card. */
    private static void assertNoSequentialScan(JsonNode plan) {
        assertFalse(PlanNodes.nodes(plan).stream().anyMatch(n -> n.path("Node Type").asText().equals("Seq Scan")
                        && n.path("Relation Name").asText().equals("allocation_segment")),
                "allocation_segment is read by a sequential scan: " + plan.toPrettyString());
    }
}
