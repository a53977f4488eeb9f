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
 * A ledger holding pod versions before V41 gets what each pod is by its newest version into its lifecycle row: five
 * pods worked out by hand, and a generated history of 2,000 pods whose rows equal the demand read's former statement
 * over their versions.
 */
class PodIdentityMigrationTest {

    @RegisterExtension
    static final MigrationDatabase database = new MigrationDatabase();

    @Test
    void theNewestStoredVersionOfEachPodIsKeptInItsLifecycleRow() throws SQLException {
        database.migrate("38");
        try (Connection conn = database.connect(); Statement sql = conn.createStatement()) {
            // u1: relabelled by its second version. u2: two versions at one instant, rv 9 and 10: 10 is the newer.
            // u3: no controller and no labels field. u4: labels null, owner without apiVersion. u5: rv 7 as DELETED
            // and MODIFIED at one instant: MODIFIED, the greater text.
            sql.execute("""
                    INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at,
                                                 payload, name, owner_kind, owner_name)
                    VALUES ('c1', 'u1', '2', 'MODIFIED', 'ml', 'n1', '2026-05-04T10:05:00Z',
                            '{"owner": {"kind": "Job", "name": "etl", "apiVersion": "batch/v1"}, "labels": {"team": "y", "tier": "gold"}}',
                            'p1', 'Job', 'etl'),
                           ('c1', 'u1', '1', 'ADDED', 'ml', null, '2026-05-04T10:00:00Z',
                            '{"owner": {"kind": "Job", "name": "etl", "apiVersion": "batch/v1"}, "labels": {"team": "x"}}',
                            'p1', 'Job', 'etl'),
                           ('c1', 'u2', '9', 'MODIFIED', 'ml', 'n1', '2026-05-04T11:00:00Z',
                            '{"owner": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"}, "labels": {"step": "nine"}}',
                            'p2', 'Deployment', 'web'),
                           ('c1', 'u2', '10', 'MODIFIED', 'ml', 'n1', '2026-05-04T11:00:00Z',
                            '{"owner": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"}, "labels": {"step": "ten"}}',
                            'p2', 'Deployment', 'web'),
                           ('c1', 'u3', '1', 'ADDED', 'nb', null, '2026-05-04T12:00:00Z', '{"owner": null}', 'p3', null, null),
                           ('c1', 'u4', '1', 'ADDED', 'hpc', null, '2026-05-04T12:00:00Z',
                            '{"owner": {"kind": "Job", "name": "mpi"}, "labels": null}', 'p4', 'Job', 'mpi'),
                           ('c1', 'u5', '7', 'MODIFIED', 'ml', 'n1', '2026-05-04T13:00:00Z',
                            '{"owner": null, "labels": {"gone": "no"}}', 'p5', null, null),
                           ('c1', 'u5', '7', 'DELETED', 'ml', 'n1', '2026-05-04T13:00:00Z',
                            '{"owner": null, "labels": {"gone": "yes"}}', 'p5', null, null)""");
            // 2,000 pods of two clusters, 1-4 versions each, rv 7, 14, 21, 28 (one digit, then two); every third pod's
            // versions all seen at one instant, so that the resource version decides; labels and owner by version.
            sql.execute("""
                    INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at,
                                                 payload, name, owner_kind, owner_name)
                    SELECT 'gen-' || (p % 2), 'p' || p, (7 * v)::text, CASE WHEN v = 1 THEN 'ADDED' ELSE 'MODIFIED' END,
                           'ns' || (p % 5), null,
                           timestamptz '2026-05-01' + p * interval '17 minutes'
                               + CASE WHEN p % 3 = 0 THEN interval '0' ELSE v * interval '7 minutes' END,
                           json_build_object('owner', CASE WHEN p % 4 = 0 THEN null
                                                           ELSE json_build_object('kind', 'Job', 'name', 'j' || p,
                                                                                  'apiVersion', CASE WHEN v > 1 THEN 'batch/v1' END) END,
                                             'labels', json_build_object('v', v::text, 'team', 't' || (p % 3))),
                           'p' || p, CASE WHEN p % 4 <> 0 THEN 'Job' END, CASE WHEN p % 4 <> 0 THEN 'j' || p END
                    FROM generate_series(1, 2000) p
                    CROSS JOIN generate_series(1, 1 + p % 4) v""");

            database.migrate("latest");

            assertEquals(List.of(
                    "u1|2|MODIFIED|ml|p1|Job|etl|batch/v1|{\"team\": \"y\", \"tier\": \"gold\"}",
                    "u2|10|MODIFIED|ml|p2|Deployment|web|apps/v1|{\"step\": \"ten\"}",
                    "u3|1|ADDED|nb|p3|-|-|-|{}",
                    "u4|1|ADDED|hpc|p4|Job|mpi|-|{}",
                    "u5|7|MODIFIED|ml|p5|-|-|-|{\"gone\": \"no\"}"), column(sql, """
                    SELECT concat_ws('|', uid, version, version_event, namespace, name, coalesce(owner_kind, '-'),
                                     coalesce(owner_name, '-'), coalesce(owner_api_version, '-'), labels::text)
                    FROM ledger.pod_lifecycle WHERE cluster = 'c1' ORDER BY uid"""));

            String fromVersions = """
                    SELECT DISTINCT ON (cluster, uid) cluster, uid, resource_version, namespace, name,
                           payload->'owner'->>'kind' AS kind, payload->'owner'->>'name' AS owner,
                           payload->'owner'->>'apiVersion' AS api, (payload->'labels')::jsonb AS labels
                    FROM ledger.pod_fact WHERE cluster LIKE 'gen-%'
                    ORDER BY cluster, uid, observed_at DESC, length(resource_version) DESC, resource_version DESC""";
            String kept = """
                    SELECT cluster, uid, version, namespace, name, owner_kind, owner_name, owner_api_version, labels
                    FROM ledger.pod_lifecycle WHERE cluster LIKE 'gen-%'""";
            assertEquals(List.of("2000"), column(sql, "SELECT count(*) FROM (" + kept + ") k"));
            assertEquals(List.of("0"), column(sql, "SELECT count(*) FROM ((" + fromVersions + ") EXCEPT (" + kept + ")) d"));
            assertEquals(List.of("0"), column(sql, "SELECT count(*) FROM ((" + kept + ") EXCEPT (" + fromVersions + ")) d"));
            // Not vacuous: the 500 pods of more than one version all seen at one instant (p divisible by 3, not by
            // 4) have "14", "21" or "28" as their newest, not "7", the greatest text.
            assertEquals(List.of("500"), column(sql, """
                    SELECT count(*) FROM ledger.pod_lifecycle
                    WHERE cluster LIKE 'gen-%' AND substr(uid, 2)::int % 3 = 0 AND version IN ('14', '21', '28')"""));
        }
    }
}
