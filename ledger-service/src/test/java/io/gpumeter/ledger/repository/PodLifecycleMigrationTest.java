package io.gpumeter.ledger.repository;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.gpumeter.ledger.repository.MigrationDatabase.column;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A ledger holding pod versions before V39 gets each pod's lifecycle row from them: two pods worked out by hand, and
 * a generated history of 2,000 pods whose rows equal the pending read's former statement over their versions.
 */
class PodLifecycleMigrationTest {

    @RegisterExtension
    static final MigrationDatabase database = new MigrationDatabase();

    @Test
    void theVersionsStoredBeforeBecomeEachPodsLifecycle() throws SQLException {
        database.migrate("38");
        try (Connection conn = database.connect(); Statement sql = conn.createStatement()) {
            sql.execute("SET TIME ZONE 'UTC'");
            // u1: waited 10:00-10:04, ran, succeeded at 10:30, deleted (asked 10:31, seen 10:32); asked 2 GPUs, then 1.
            // u2: created 11:00 (its ADDED version says no creation time), deleted unscheduled at 11:20 (asked 11:25).
            sql.execute("""
                    INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at, payload)
                    VALUES ('c1', 'u1', '3', 'MODIFIED', 'ml', 'n1', '2026-05-04T10:30:00Z',
                            '{"createdAt": "2026-05-04T10:00:00Z", "scheduledAt": "2026-05-04T10:04:00Z", "phase": "Succeeded", "gpuResources": {"nvidia.com/gpu": 1}}'),
                           ('c1', 'u1', '1', 'ADDED', 'ml', null, '2026-05-04T10:00:00.5Z',
                            '{"createdAt": "2026-05-04T10:00:00Z", "phase": "Pending", "gpuResources": {"nvidia.com/gpu": 2}}'),
                           ('c1', 'u1', '4', 'DELETED', 'ml', 'n1', '2026-05-04T10:32:00Z',
                            '{"createdAt": "2026-05-04T10:00:00Z", "scheduledAt": "2026-05-04T10:04:00Z", "phase": "Succeeded",
                              "deletionTimestamp": "2026-05-04T10:31:00Z", "gpuResources": {"nvidia.com/gpu": 1}}'),
                           ('c1', 'u2', '5', 'ADDED', 'ml', null, '2026-05-04T11:00:00Z',
                            '{"phase": "Pending", "gpuResources": {"nvidia.com/gpu": 4}}'),
                           ('c1', 'u2', '6', 'DELETED', 'ml', null, '2026-05-04T11:20:00Z',
                            '{"createdAt": "2026-05-04T11:00:30Z", "phase": "Pending", "deletionTimestamp": "2026-05-04T11:25:00Z",
                              "gpuResources": {"nvidia.com/gpu": 4}}')""");
            // 2,000 pods of two clusters, 1-4 versions each: creation, scheduling, deletion and phase varied by the
            // pod's and version's numbers, some versions without a creation time, resources changing with the version.
            sql.execute("""
                    INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at, payload)
                    SELECT 'gen-' || (p % 2), 'p' || p, v::text,
                           CASE WHEN v = 1 THEN 'ADDED' WHEN v = 4 OR (p % 7 = 0 AND v = 2) THEN 'DELETED' ELSE 'MODIFIED' END,
                           'ml', null, t + v * interval '7 minutes' + (p % 13) * interval '1.234567 seconds',
                           json_build_object(
                               'createdAt', CASE WHEN p % 5 = 0 AND v = 1 THEN null ELSE t + (v % 2) * interval '1 second' END,
                               'scheduledAt', CASE WHEN p % 3 = 0 OR v = 1 THEN null ELSE t + (p % 11) * interval '1 minute' END,
                               'phase', CASE WHEN v = 3 AND p % 5 = 0 THEN 'Failed' WHEN v = 3 AND p % 5 = 1 THEN 'Succeeded'
                                             ELSE 'Running' END,
                               'deletionTimestamp', CASE WHEN v >= 2 THEN t + (p % 17) * interval '2 minutes' END,
                               'gpuResources', json_build_object('nvidia.com/gpu', 1 + (v + p) % 3))
                    FROM generate_series(1, 2000) p
                    CROSS JOIN LATERAL (SELECT timestamptz '2026-05-01' + p * interval '17 minutes' AS t) c
                    CROSS JOIN generate_series(1, 1 + p % 4) v""");

            database.migrate("latest");

            assertEquals(List.of(
                    "u1|2026-05-04 10:00:00+00|2026-05-04 10:04:00+00|2026-05-04 10:31:00+00|2026-05-04 10:30:00+00|"
                            + "{\"nvidia.com/gpu\": 1}|2026-05-04 10:32:00+00",
                    "u2|2026-05-04 11:00:00+00||2026-05-04 11:20:00+00||{\"nvidia.com/gpu\": 4}|2026-05-04 11:20:00+00"),
                    column(sql, """
                            SELECT concat_ws('|', uid, created, coalesce(scheduled::text, ''), deleted, coalesce(finished::text, ''),
                                             resources, resources_observed_at)
                            FROM ledger.pod_lifecycle WHERE cluster = 'c1' ORDER BY uid"""));

            String fromVersions = """
                    SELECT cluster, uid, min(coalesce(created_at, observed_at)) AS created, min(scheduled_at) AS scheduled,
                           min(least(observed_at, deletion_at)) FILTER (WHERE event_type = 'DELETED') AS deleted,
                           min(observed_at) FILTER (WHERE phase IN ('Succeeded', 'Failed')) AS finished,
                           (array_agg(gpu_resources ORDER BY observed_at DESC))[1]::text AS resources
                    FROM ledger.pod_fact_fields GROUP BY cluster, uid""";
            String kept = "SELECT cluster, uid, created, scheduled, deleted, finished, resources::text FROM ledger.pod_lifecycle";
            assertEquals(List.of("2002"), column(sql, "SELECT count(*) FROM ledger.pod_lifecycle"));
            assertEquals(List.of("0"), column(sql, "SELECT count(*) FROM ((" + fromVersions + ") EXCEPT (" + kept + ")) d"));
            assertEquals(List.of("0"), column(sql, "SELECT count(*) FROM ((" + kept + ") EXCEPT (" + fromVersions + ")) d"));
            // Not vacuous: the generated pods include some deleted and some finished before they were scheduled.
            assertEquals(List.of("true|true"), column(sql, """
                    SELECT (count(*) FILTER (WHERE scheduled IS NULL AND deleted IS NOT NULL) > 100)::text || '|'
                           || (count(*) FILTER (WHERE scheduled IS NULL AND finished IS NOT NULL) > 50)::text
                    FROM ledger.pod_lifecycle"""));
        }
    }
}
