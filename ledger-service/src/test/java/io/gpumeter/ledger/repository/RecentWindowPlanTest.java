package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A window of recent days reads the segments that end after its start by their end (V43), not every segment of the
 * ledger's history: 20,000 segments that ended in 2024, 20 still held since 2032.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class RecentWindowPlanTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The condition the demand's and the hours' reads write for a segment overlapping the window [$1, ...). */
    private static final String ENDS_AFTER_START = """
            SELECT s.cluster, s.pod_uid FROM ledger.allocation_segment s
            WHERE s.seg_start < $2 AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $2) > $1""";

    @Inject
    Pool pool;

    @Test
    void aRecentWindowReadsTheSegmentsThatEndAfterItsStartByIndex() throws Exception {
        pool.query("""
                        INSERT INTO ledger.allocation_segment (cluster, pod_uid, unit_index, seg_start, seg_end, since, until,
                            namespace, pod, node, gpu_uuid, gpu_model, unit_kind, fraction, source, tenant, team, project)
                        SELECT 'recent', 'recent-' || i, 0, x.s, CASE WHEN i < 20 THEN NULL ELSE x.s + interval '1 hour' END,
                               x.s, NULL, 'recent-ns', 'recent-' || i, 'n', 'RECENT-' || (i % 50), 'H100', 'WHOLE', 1, 'POD',
                               'recent', 'recent', 'recent'
                        FROM generate_series(0, 20019) i,
                             LATERAL (SELECT CASE WHEN i < 20 THEN timestamptz '2032-01-01 00:00:00+00'
                                                  ELSE timestamptz '2024-01-01 00:00:00+00' + i * interval '5 minutes' END AS s) x
                        ON CONFLICT DO NOTHING""").execute()
                .chain(() -> pool.query("ANALYZE ledger.allocation_segment").execute()).await().atMost(WAIT);
        JsonNode plan = PlanNodes.plan(pool, ENDS_AFTER_START, Tuple.of(OffsetDateTime.parse("2032-02-01T00:00:00Z"),
                OffsetDateTime.parse("2032-03-01T00:00:00Z")));
        assertFalse(PlanNodes.nodes(plan).stream().anyMatch(n -> n.path("Node Type").asText().equals("Seq Scan")
                && n.path("Relation Name").asText().equals("allocation_segment")), plan.toPrettyString());
        assertTrue(PlanNodes.nodes(plan).stream().anyMatch(n -> n.path("Index Name").asText().equals("allocation_segment_end")),
                plan.toPrettyString());
    }
}
