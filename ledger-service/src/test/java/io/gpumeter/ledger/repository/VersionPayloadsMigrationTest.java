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
 * A ledger that stored pod versions as jsonb before V28 keeps every payload when they become json, its governance
 * pod versions get their node as a column, and the fields views read as before.
 */
class VersionPayloadsMigrationTest {

    @RegisterExtension
    static final MigrationDatabase database = new MigrationDatabase();

    @Test
    void jsonbVersionsBecomeJsonWithTheirContentAndTheNodeOfEachGovernanceVersionBecomesAColumn() throws SQLException {
        database.migrate("27");
        try (Connection conn = database.connect(); Statement sql = conn.createStatement()) {
            sql.execute("""
                    INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at, payload)
                    VALUES ('c1', 'u1', '7', 'MODIFIED', 'team-a', 'node-1', '2026-05-04T10:00:00Z',
                            '{"uid": "u1", "name": "trainer", "phase": "Running", "gpuResources": {"nvidia.com/gpu": 2}}'::jsonb)""");
            sql.execute("""
                    INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace, name,
                        owner_kind, owner_name, observed_at, payload)
                    VALUES ('c1', 'u1', '7', 'MODIFIED', 'team-a', 'trainer', 'Job', 'j', '2026-05-04T10:00:00Z',
                            '{"uid": "u1", "nodeName": "node-1"}'::jsonb),
                           ('c1', 'u2', '8', 'ADDED', 'team-a', 'waiting', 'Job', 'j', '2026-05-04T10:00:00Z',
                            '{"uid": "u2", "nodeName": null}'::jsonb)""");

            database.migrate("latest");

            assertEquals(List.of("json", "json"), column(sql, """
                    SELECT data_type FROM information_schema.columns
                    WHERE table_schema = 'ledger' AND column_name = 'payload'
                      AND table_name IN ('pod_fact', 'gov_pod_status_fact') ORDER BY table_name"""));
            assertEquals(List.of("trainer|Running|{\"nvidia.com/gpu\": 2}|jsonb"), column(sql, """
                    SELECT name || '|' || phase || '|' || gpu_resources::text || '|' || pg_typeof(gpu_resources)
                    FROM ledger.pod_fact_fields WHERE uid = 'u1'"""));
            assertEquals(List.of("u1|node-1", "u2|"), column(sql, """
                    SELECT uid || '|' || coalesce(node_name, '') FROM ledger.gov_pod_status_fact_fields ORDER BY uid"""));
            assertEquals(List.of("u1"), column(sql, """
                    SELECT uid FROM ledger.gov_pod_status_fact WHERE cluster = 'c1' AND node_name = 'node-1'"""));
            assertEquals(List.of("{\"uid\": \"u1\", \"nodeName\": \"node-1\"}"), column(sql, """
                    SELECT payload::text FROM ledger.gov_pod_status_fact WHERE uid = 'u1'"""));
        }
    }
}
