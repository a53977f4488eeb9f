package io.gpumeter.ledger.repository;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The statement that stores a slice of new pod versions ({@code ledger.pod_fact}) and folds them into their pods'
 * lifecycle rows ({@code ledger.pod_lifecycle}, V39 and V41). A slice's versions are grouped by pod: each row takes
 * the least of every time, the resources of the version observed last, and the namespace, name, owner and labels of
 * the newest version, by observation, then resource version (longer first, then as text), then event type: the order
 * in which the demand read took a pod's newest version from all of its versions. Every column is a least or a newest
 * by an order of the versions alone, so versions that arrive late, twice or in several slices leave the same row.
 */
final class PodVersionStatement {

    /** The newest version's columns of the lifecycle row. */
    private static final List<String> NEWEST_VERSION = List.of("version", "version_event", "namespace", "name",
            "owner_kind", "owner_name", "owner_api_version", "labels");

    /**
     * Whether the slice's newest version of the pod is newer than the row's: the slice's greatest observation is its
     * newest version's, as the row's {@code resources_observed_at} is its newest version's.
     */
    private static final String NEWER = "(excluded.resources_observed_at, length(excluded.version), excluded.version,"
            + " excluded.version_event) > (l.resources_observed_at, length(l.version), l.version, l.version_event)";

    /**
     * $1 the cluster; per version: $2 uid, $3 resource version, $4 event type, $5 namespace, $6 node, $7 observed,
     * $8 payload, $9 name, $10 owner kind, $11 owner name, $12 carried status, $13 created, $14 scheduled, $15 deletion
     * asked, $16 finished, $17 resources as jsonb prints them, $18 owner apiVersion, $19 labels as JSON.
     */
    static final String SQL = KeptPrepared.BULK_WRITE.sql("""
            WITH stored AS (
                INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name,
                                             observed_at, payload, name, owner_kind, owner_name, status)
                SELECT $1, u.uid, u.rv, u.et, u.ns, u.node, u.obs, convert_from(u.payload, 'UTF8')::json,
                       u.name, u.ok, u.oname, convert_from(u.status, 'UTF8')::json
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                            $8::bytea[], $9::text[], $10::text[], $11::text[], $12::bytea[])
                     AS u(uid, rv, et, ns, node, obs, payload, name, ok, oname, status)),
            times AS (
                SELECT v.uid, min(coalesce(v.created, v.obs)) AS created, min(v.scheduled) AS scheduled,
                       min(least(v.obs, v.deletion)) FILTER (WHERE v.et = 'DELETED') AS deleted,
                       min(v.obs) FILTER (WHERE v.finished) AS finished,
                       (array_agg(v.res ORDER BY v.obs DESC, v.res DESC))[1]::jsonb AS resources, max(v.obs) AS observed
                FROM unnest($2::text[], $4::text[], $7::timestamptz[], $13::timestamptz[], $14::timestamptz[],
                            $15::timestamptz[], $16::bool[], $17::text[])
                     AS v(uid, et, obs, created, scheduled, deletion, finished, res)
                GROUP BY v.uid),
            newest AS (
                SELECT DISTINCT ON (n.uid) n.uid, n.rv, n.et, n.ns, n.name, n.ok, n.oname, n.api, n.labels
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $7::timestamptz[], $9::text[],
                            $10::text[], $11::text[], $18::text[], $19::bytea[])
                     AS n(uid, rv, et, ns, obs, name, ok, oname, api, labels)
                ORDER BY n.uid, n.obs DESC, length(n.rv) DESC, n.rv DESC, n.et DESC)
            INSERT INTO ledger.pod_lifecycle AS l (cluster, uid, created, scheduled, deleted, finished, resources,
                                                   resources_observed_at, version, version_event, namespace, name,
                                                   owner_kind, owner_name, owner_api_version, labels)
            SELECT $1, t.uid, t.created, t.scheduled, t.deleted, t.finished, t.resources, t.observed, n.rv, n.et, n.ns,
                   n.name, n.ok, n.oname, n.api, convert_from(n.labels, 'UTF8')::jsonb
            FROM times t JOIN newest n ON n.uid = t.uid
            ON CONFLICT (cluster, uid) DO UPDATE SET
                created = least(l.created, excluded.created),
                scheduled = least(l.scheduled, excluded.scheduled),
                deleted = least(l.deleted, excluded.deleted),
                finished = least(l.finished, excluded.finished),
                resources = CASE WHEN (excluded.resources_observed_at, coalesce(excluded.resources::text, ''))
                                      > (l.resources_observed_at, coalesce(l.resources::text, ''))
                                 THEN excluded.resources ELSE l.resources END,
                resources_observed_at = greatest(l.resources_observed_at, excluded.resources_observed_at),
            """ + NEWEST_VERSION.stream()
            .map(c -> "    " + c + " = CASE WHEN " + NEWER + " THEN excluded." + c + " ELSE l." + c + " END")
            .collect(Collectors.joining(",\n")));

    private PodVersionStatement() {
    }
}
