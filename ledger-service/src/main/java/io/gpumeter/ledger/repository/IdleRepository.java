package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.idle.domain.IdleCauseThresholds;
import io.gpumeter.ledger.idle.domain.IdleCauses;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The stretches of time Q3 splits a card's window into, computed with PostgreSQL multiranges (the pods that waited
 * meanwhile are {@link PendingPodsRepository}'s).
 */
@ApplicationScoped
public class IdleRepository {

    /** Allocation segments with a card, clipped to [$1, $2), with the MIG instance an exporter saw their pod on. */
    private static final String SEGMENTS = """
            seg AS (
                SELECT s.cluster, s.gpu_uuid, s.node, s.tenant, s.fraction, s.namespace, s.pod, coalesce(s.node, '') AS hnode,
                       ledger.clip(s.seg_start, $1, $2) AS a, ledger.clip(coalesce(s.seg_end, $2), $1, $2) AS b,
                       CASE WHEN s.unit_kind = 'MIG' THEN coalesce((SELECT g.scope_key FROM ledger.gpu_binding g
                            WHERE g.cluster = s.cluster AND g.namespace = s.namespace AND g.pod = s.pod
                              AND g.gpu_uuid = s.gpu_uuid AND g.scope_key <> '' ORDER BY g.last_seen DESC LIMIT 1), '')
                            ELSE '' END AS skey
                FROM ledger.allocation_segment s
                WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND coalesce(s.seg_end, $2) > $1
                  AND ($3::text IS NULL OR s.cluster = $3))""";

    /** A card the window covers: where it is, and the stretches of the window it was known and held nothing. */
    public record Card(String cluster, String gpuUuid, String node, Long memoryMib, String model,
                       List<TimeWindow> unallocated) {
    }

    /**
     * One tenant's (or, asked per pod, one pod's) part of one card's allocated time, in card-seconds apportioned by
     * allocated fraction, with what the host says of its not-busy part.
     *
     * @param namespace the pod's namespace, null unless asked per pod
     * @param pod       the pod, null unless asked per pod
     */
    public record AllocatedPart(String cluster, String gpuUuid, String tenant, String namespace, String pod,
                                BigDecimal busy, BigDecimal notBusy, BigDecimal unmeasured, IdleCauses causes,
                                String metrics) {
    }

    private final Pool pool;

    public IdleRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Every card of the inventory, and every card an allocation in the window names, with the stretches of the
     * window it was known and held nothing. A card is known from the earlier of its first sighting and its first
     * allocation; window end {@code cap} is the earlier of the window's end and now.
     */
    public Uni<List<Card>> cards(Instant from, Instant cap, String cluster) {
        return pool.preparedQuery("WITH " + SEGMENTS + """
                        , card AS (
                            SELECT c.cluster, c.gpu_uuid, (array_agg(c.node ORDER BY c.pri))[1] AS node,
                                   max(c.memory_mib) AS memory_mib, (array_agg(c.model ORDER BY c.pri))[1] AS model,
                                   min(c.since) AS since
                            FROM (SELECT cluster, uuid AS gpu_uuid, node, memory_mib, model, first_seen AS since, 0 AS pri
                                  FROM ledger.gpu_device WHERE ($3::text IS NULL OR cluster = $3)
                                  UNION ALL
                                  SELECT cluster, gpu_uuid, node, NULL, NULL, a, 1 FROM seg) c
                            GROUP BY c.cluster, c.gpu_uuid),
                        known AS (
                            SELECT c.*, least(c.since, (SELECT min(x.seg_start) FROM ledger.allocation_segment x
                                                        WHERE x.gpu_uuid = c.gpu_uuid)) AS first
                            FROM card c),
                        present AS (
                            SELECT k.*, tstzrange(greatest($1, k.first), $2) AS present FROM known k WHERE k.first < $2),
                        held AS (
                            SELECT cluster, gpu_uuid, range_agg(tstzrange(a, b)) AS alloc
                            FROM seg WHERE b > a GROUP BY cluster, gpu_uuid)
                        SELECT p.cluster, p.gpu_uuid, p.node, p.memory_mib, p.model, lower(e.r) AS ea, upper(e.r) AS eb
                        FROM present p
                        LEFT JOIN held h ON h.cluster = p.cluster AND h.gpu_uuid = p.gpu_uuid
                        LEFT JOIN LATERAL unnest(tstzmultirange(p.present) - coalesce(h.alloc, '{}'::tstzmultirange)) AS e(r)
                               ON true
                        WHERE NOT isempty(p.present)
                        ORDER BY p.cluster, p.gpu_uuid, lower(e.r)""")
                .execute(Tuple.of(toOffset(from), toOffset(cap), cluster))
                .map(rows -> {
                    Map<String, Card> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        Card card = out.computeIfAbsent(r.getString("cluster") + "/" + r.getString("gpu_uuid"),
                                k -> new Card(r.getString("cluster"), r.getString("gpu_uuid"), r.getString("node"),
                                        r.getLong("memory_mib"), r.getString("model"), new ArrayList<>()));
                        OffsetDateTime a = r.getOffsetDateTime("ea");
                        if (a != null) {
                            card.unallocated().add(new TimeWindow(a.toInstant(), r.getOffsetDateTime("eb").toInstant()));
                        }
                    }
                    return List.copyOf(out.values());
                });
    }

    /**
     * Each card's allocated time per tenant, split by the activity of the minutes it falls in (of the hours, before the
     * minute retention): SM_ACTIVE where measured, else GR_ENGINE_ACTIVE, else GPU_UTIL, of the unit's MIG instance
     * when an exporter named it, else
     * of the card. Where several units share a card, each second is apportioned by their allocated fractions, so
     * the parts of a card add up to its allocated time. The not-busy part is split in the same pass by the host's
     * causes of its pod's spans ({@code ledger.host_idle_causes}, ADR 22), each not-busy second counted once.
     *
     * @param perPod whether the parts are a pod's rather than a tenant's
     */
    public Uni<List<AllocatedPart>> allocated(Instant from, Instant cap, String cluster, double busyThreshold,
                                              boolean perPod, IdleCauseThresholds thresholds) {
        return pool.preparedQuery("WITH " + SEGMENTS + """
                        , act AS (
                            SELECT x.cluster, x.gpu_uuid, x.minute, x.span,
                                   CASE WHEN x.scope = 'MIG_INSTANCE' THEN x.scope_key ELSE '' END AS skey, x.act, x.metric
                            FROM (SELECT array_agg(DISTINCT cluster) AS clusters, array_agg(DISTINCT gpu_uuid) AS gpu_uuids
                                  FROM (SELECT cluster, gpu_uuid FROM seg GROUP BY cluster, gpu_uuid) held) c
                            CROSS JOIN LATERAL ledger.card_activity(c.clusters, c.gpu_uuids, $1, $2) x),
                        curve AS (
                            SELECT cluster, gpu_uuid, skey,
                                   range_agg(tstzrange(minute, minute + span)) AS measured,
                                   coalesce(range_agg(tstzrange(minute, minute + span)) FILTER (WHERE act >= $4),
                                            '{}'::tstzmultirange) AS busy,
                                   string_agg(DISTINCT metric, ',' ORDER BY metric) AS metrics
                            FROM act GROUP BY cluster, gpu_uuid, skey),
                        host AS (
                            SELECT x.cluster, x.namespace, x.pod, x.node, tstzrange(x.at, x.at + x.span) AS r, x.cause,
                                   x.pod_reported AND x.node_reported AS covered
                            FROM (SELECT array_agg(cluster) AS c, array_agg(namespace) AS n, array_agg(pod) AS p,
                                         array_agg(hnode) AS h
                                  FROM (SELECT DISTINCT cluster, namespace, pod, hnode FROM seg) d) k
                            CROSS JOIN LATERAL ledger.host_idle_causes(k.c, k.n, k.p, k.h, $1, $2, $6, $7, $8, $9, $10,
                                                                       $11, $12, $13) x),
                        cause AS (
                            SELECT cluster, namespace, pod, node,
                                   range_agg(r) FILTER (WHERE cause = 'cpu-saturated') AS cpu,
                                   range_agg(r) FILTER (WHERE cause = 'io-wait') AS io,
                                   range_agg(r) FILTER (WHERE cause = 'network') AS net,
                                   range_agg(r) FILTER (WHERE covered) AS covered
                            FROM host GROUP BY cluster, namespace, pod, node),
                        pts AS (
                            SELECT DISTINCT seg.cluster, seg.gpu_uuid, v.t
                            FROM seg CROSS JOIN LATERAL (VALUES (seg.a), (seg.b)) AS v(t)),
                        elem AS (
                            SELECT cluster, gpu_uuid, t AS a, lead(t) OVER (PARTITION BY cluster, gpu_uuid ORDER BY t) AS b
                            FROM pts),
                        piece AS (
                            SELECT s.cluster, s.gpu_uuid, s.tenant, s.namespace, s.pod, s.hnode, s.skey,
                                   tstzmultirange(tstzrange(e.a, e.b)) AS r,
                                   CASE WHEN sum(s.fraction) OVER w > 0 THEN s.fraction / sum(s.fraction) OVER w
                                        ELSE 1.0 / count(*) OVER w END AS share
                            FROM elem e
                            JOIN seg s ON s.cluster = e.cluster AND s.gpu_uuid = e.gpu_uuid AND s.a <= e.a AND s.b >= e.b
                            WHERE e.b > e.a
                            WINDOW w AS (PARTITION BY s.cluster, s.gpu_uuid, e.a)),
                        measured AS (
                            SELECT p.cluster, p.gpu_uuid, p.tenant, p.namespace, p.pod, p.hnode, p.share, p.r,
                                   p.r * coalesce(mi.measured, dv.measured, '{}'::tstzmultirange) AS m,
                                   p.r * coalesce(mi.busy, dv.busy, '{}'::tstzmultirange) AS bz,
                                   coalesce(mi.metrics, dv.metrics) AS metrics
                            FROM piece p
                            LEFT JOIN curve dv ON dv.cluster = p.cluster AND dv.gpu_uuid = p.gpu_uuid AND dv.skey = ''
                            LEFT JOIN curve mi ON p.skey <> '' AND mi.cluster = p.cluster AND mi.gpu_uuid = p.gpu_uuid
                                              AND mi.skey = p.skey),
                        idle AS (
                            SELECT me.*, me.m - me.bz AS nb, coalesce(c.cpu, '{}') AS cpu, coalesce(c.io, '{}') AS io,
                                   coalesce(c.net, '{}') AS net, coalesce(c.covered, '{}') AS covered
                            FROM measured me
                            LEFT JOIN cause c ON c.cluster = me.cluster AND c.namespace = me.namespace
                                             AND c.pod = me.pod AND c.node = me.hnode),
                        timed AS (
                            SELECT cluster, gpu_uuid, tenant, share, metrics,
                                   CASE WHEN $5 THEN namespace END AS namespace, CASE WHEN $5 THEN pod END AS pod,\s"""
                        + seconds("r") + " AS total, " + seconds("m") + " AS measured, " + seconds("bz") + " AS busy, "
                        + seconds("nb * cpu") + " AS cpu, " + seconds("nb * io") + " AS io, " + seconds("nb * net")
                        + " AS net, " + seconds("nb * covered") + """
                         AS covered FROM idle)
                        SELECT cluster, gpu_uuid, tenant, namespace, pod, sum(share * busy) AS busy,
                               sum(share * (measured - busy)) AS not_busy, sum(share * (total - measured)) AS unmeasured,
                               sum(share * cpu) AS cpu, sum(share * io) AS io, sum(share * net) AS net,
                               sum(share * covered) AS covered,
                               string_agg(DISTINCT metrics, ',' ORDER BY metrics) AS metrics
                        FROM timed GROUP BY cluster, gpu_uuid, tenant, namespace, pod
                        ORDER BY cluster, gpu_uuid, tenant, namespace, pod""")
                .execute(Tuple.from(Arrays.asList(toOffset(from), toOffset(cap), cluster,
                        busyThreshold, perPod, thresholds.cpuLimitShare(), thresholds.cfsThrottledShare(),
                        thresholds.ioPressureShare(), thresholds.diskBytesPerSecond(), thresholds.networkShare(),
                        thresholds.networkMinBytesPerSecond(), thresholds.hostNetworkTolerance(),
                        thresholds.hostNetworkDropsPerSecond())))
                .map(rows -> {
                    List<AllocatedPart> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new AllocatedPart(r.getString("cluster"), r.getString("gpu_uuid"), r.getString("tenant"),
                                r.getString("namespace"), r.getString("pod"), r.getBigDecimal("busy"),
                                r.getBigDecimal("not_busy"), r.getBigDecimal("unmeasured"),
                                new IdleCauses(r.getBigDecimal("cpu"), r.getBigDecimal("io"), r.getBigDecimal("net"),
                                        r.getBigDecimal("covered")), r.getString("metrics")));
                    }
                    return out;
                });
    }

    /** Seconds covered by a multirange expression. */
    private static String seconds(String multirange) {
        return "(SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) FROM unnest(" + multirange + ") AS x)";
    }
}
