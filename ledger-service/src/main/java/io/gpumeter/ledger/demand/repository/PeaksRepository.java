package io.gpumeter.ledger.demand.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;

/** What the governance peaks are read from: pods' waits to be placed, queue waits, and the Kueue flavors' models. */
@ApplicationScoped
public class PeaksRepository {

    /** The resources of GPU quota in a ClusterQueue or a Workload's assignment. */
    private static final String GPU_RESOURCE = "(%1$s = 'nvidia.com/gpu' OR %1$s LIKE 'nvidia.com/mig-%%')";

    /** A GPU pod's wait to be placed: from its request (its creation) to its first unit, its end, or now. */
    public record PendingPod(String cluster, String uid, BigDecimal gpus, Instant from, Instant to, String[] heldModels) {
    }

    /** One admission or scheduling: the models it then held, or the Kueue flavors it was given. */
    public record Wait(String cluster, String source, String namespace, String localQueue, Instant admittedAt,
                       long waitMillis, String[] heldModels, String[] flavors) {
    }

    /** The newest Kueue objects of a cluster: each flavor's product label, each LocalQueue's GPU flavors. */
    public record Flavors(Map<String, String> productByFlavor, Map<String, List<String>> flavorsByLocalQueue) {
    }

    private final Pool pool;

    public PeaksRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Pods that waited during [$1, $2) before $3 (the earlier of the window's end and now), cluster $4 or all: their
     * request (pod_request, card-equivalents from creation) until their first allocated unit, else until the request
     * ended (a pod deleted unplaced), else until $3.
     */
    public Uni<List<PendingPod>> pendingPods(TimeWindow window, Instant cap, String cluster) {
        return pool.preparedQuery("""
                        SELECT r.cluster, r.pod_uid, r.requested_fraction, r.requested_at, w.wait_to, a.models
                        FROM ledger.pod_request r
                        CROSS JOIN LATERAL (SELECT min(s.since) AS since,
                                                   array_agg(DISTINCT s.gpu_model) FILTER (WHERE s.gpu_model IS NOT NULL) AS models
                                            FROM ledger.allocation_segment s
                                            WHERE s.cluster = r.cluster AND s.pod_uid = r.pod_uid) a
                        CROSS JOIN LATERAL (SELECT least(coalesce(a.since, r.until, $3), coalesce(r.until, $3), $3) AS wait_to) w
                        WHERE r.requested_at < $2 AND r.requested_at < $3 AND w.wait_to > $1 AND w.wait_to > r.requested_at
                          AND ($4::text IS NULL OR r.cluster = $4)
                          -- implied by the wait ending after the window starts (it ends by the request's end), but tested before the
                          -- lateral look-up, so that the requests over before the window are not each looked up
                          AND coalesce(r.until, $3) > $1""")
                .execute(Tuple.of(offset(window.start()), offset(window.end()), offset(cap), cluster))
                .map(rows -> {
                    List<PendingPod> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new PendingPod(r.getString("cluster"), r.getString("pod_uid"), r.getBigDecimal("requested_fraction"),
                                instant(r.getOffsetDateTime("requested_at")), instant(r.getOffsetDateTime("wait_to")),
                                r.getArrayOfStrings("models")));
                    }
                    return out;
                });
    }

    /**
     * The waits admitted in [$1, $2), cluster $3 or all, as {@code GET /api/v1/queue-wait} counts them, but a pod's
     * own wait only where no Kueue Workload or Volcano PodGroup waited for it (a pod with a LocalQueue label, or
     * placed by Volcano): that wait is already the Workload's or the gang's. A pod's wait carries the models of the
     * units it then held; a PodGroup's, those of its member pods' units; a Workload's, the GPU flavors Kueue
     * assigned it.
     */
    public Uni<List<Wait>> waits(TimeWindow window, String cluster) {
        return pool.preparedQuery("""
                        SELECT w.cluster, w.source, w.namespace, w.local_queue, w.admitted_at, w.wait_ms,
                          CASE w.source
                            WHEN 'POD' THEN (SELECT array_agg(DISTINCT s.gpu_model) FROM ledger.allocation_segment s
                                             WHERE s.cluster = w.cluster AND s.pod_uid = w.object_uid AND s.gpu_model IS NOT NULL)
                            WHEN 'VOLCANO' THEN (SELECT array_agg(DISTINCT s.gpu_model) FROM ledger.pod_status_version v
                                                 JOIN ledger.allocation_segment s ON s.cluster = v.cluster AND s.pod_uid = v.uid
                                                 WHERE v.cluster = w.cluster AND v.namespace = w.namespace
                                                   AND coalesce(v.status, v.governed) ->> 'groupName' = w.name
                                                   AND s.gpu_model IS NOT NULL)
                          END AS held_models,
                          CASE WHEN w.source = 'KUEUE' THEN (
                            SELECT array_agg(DISTINCT f.value) FROM ledger.gov_workload_fact wf
                            CROSS JOIN LATERAL jsonb_array_elements(coalesce(wf.payload -> 'assignments', '[]'::jsonb)) a
                            CROSS JOIN LATERAL jsonb_each_text(coalesce(a -> 'flavors', '{}'::jsonb)) f
                            WHERE wf.cluster = w.cluster AND wf.uid = w.object_uid AND """ + GPU_RESOURCE.formatted("f.key") + """
                          ) END AS flavors
                        FROM ledger.gov_queue_wait w
                        WHERE w.admitted_at >= $1 AND w.admitted_at < $2 AND ($3::text IS NULL OR w.cluster = $3)
                          AND NOT (w.source = 'POD' AND (w.local_queue IS NOT NULL OR w.scheduler = 'volcano'))""")
                .execute(Tuple.of(offset(window.start()), offset(window.end()), cluster))
                .map(rows -> {
                    List<Wait> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new Wait(r.getString("cluster"), r.getString("source"), r.getString("namespace"),
                                r.getString("local_queue"), instant(r.getOffsetDateTime("admitted_at")), r.getLong("wait_ms"),
                                r.getArrayOfStrings("held_models"), r.getArrayOfStrings("flavors")));
                    }
                    return out;
                });
    }

    /**
     * From the newest version of each Kueue object: every ResourceFlavor's {@code nvidia.com/gpu.product} node label
     * (keyed {@code cluster|flavor}, null when it names none) and the flavors each LocalQueue's ClusterQueue gives GPU
     * quota in (keyed {@code cluster|namespace|localQueue}).
     */
    public Uni<Flavors> flavors(String cluster) {
        return pool.preparedQuery("""
                        WITH newest AS (
                            SELECT DISTINCT ON (cluster, kind, namespace, name) cluster, kind, namespace, name, payload
                            FROM ledger.gov_queue_object_fact
                            WHERE kind IN ('LOCAL_QUEUE', 'CLUSTER_QUEUE', 'RESOURCE_FLAVOR') AND ($1::text IS NULL OR cluster = $1)
                            ORDER BY cluster, kind, namespace, name, revision DESC NULLS LAST, observed_at DESC)
                        SELECT f.cluster, f.name AS flavor, NULL AS namespace, NULL AS local_queue,
                               f.payload -> 'nodeLabels' ->> 'nvidia.com/gpu.product' AS product
                        FROM newest f WHERE f.kind = 'RESOURCE_FLAVOR'
                        UNION ALL
                        SELECT lq.cluster, q ->> 'flavor', lq.namespace, lq.name, NULL
                        FROM newest lq
                        JOIN newest cq ON cq.cluster = lq.cluster AND cq.kind = 'CLUSTER_QUEUE' AND cq.name = lq.payload ->> 'clusterQueue'
                        CROSS JOIN LATERAL jsonb_array_elements(coalesce(cq.payload -> 'quotas', '[]'::jsonb)) q
                        WHERE lq.kind = 'LOCAL_QUEUE' AND """ + GPU_RESOURCE.formatted("q ->> 'resource'"))
                .execute(Tuple.of(cluster))
                .map(rows -> {
                    Map<String, String> products = new HashMap<>();
                    Map<String, List<String>> queues = new HashMap<>();
                    for (Row r : rows) {
                        if (r.getString("local_queue") == null) {
                            products.put(r.getString("cluster") + "|" + r.getString("flavor"), r.getString("product"));
                        } else {
                            queues.computeIfAbsent(r.getString("cluster") + "|" + r.getString("namespace") + "|"
                                    + r.getString("local_queue"), k -> new ArrayList<>()).add(r.getString("flavor"));
                        }
                    }
                    return new Flavors(products, queues);
                });
    }
}
